#!/usr/bin/env python3
"""Independent verifier for masque transcripts, from docs/protocol.md and mental/SPEC.md only.
Pure Python 3, standard library only.  Usage: verify.py FILE   (prints JSON, exit 0/1/3)
"""
import sys, os, json, struct, unicodedata
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import r255, sigma
from r255 import EncodingError, r_decode, scalar_decode
from fmt import H, R as Rd, Damaged, parse_file, parse_entry
from mascarade import RuleFault, Mascarade, parse_options as masc_options

SUPPORTED_GAMES = ('mascarade', 'mascarade2', 'grimm')

class Fault(Exception):
    def __init__(self, reason, detail=''):
        self.reason = reason; self.detail = detail

# ---------------------------------------------------------------- roster (protocol.md §2)
def good_text(b, lo, hi):
    if not lo <= len(b) <= hi: return False
    try: s = b.decode('utf-8')
    except UnicodeDecodeError: return False
    for ch in s:
        cat = unicodedata.category(ch)
        if cat == 'Cc' or unicodedata.bidirectional(ch) in ('LRE', 'RLE', 'LRO', 'RLO', 'PDF', 'LRI', 'RLI', 'FSI', 'PDI') \
           or ch in '\u200e\u200f\u061c':
            return False
    return True

def parse_roster(roster):
    r = Rd(roster); ro = {}
    ro['table_id'] = r.take(16)
    g = r.bu8()
    if not good_text(g, 1, 64): raise Damaged('game name')
    ro['game'] = g.decode()
    opts = r.bu16()
    if len(opts) > 4096: raise Damaged('options too long')
    ns = r.u8()
    if not 1 <= ns <= 18: raise Damaged('seat count')
    seats = []
    for _ in range(ns):
        s = {}
        nm = r.bu8()
        if not good_text(nm, 1, 64): raise Damaged('name')
        s['name'] = nm.decode(); s['peer'] = r.bu8(); s['sign'] = r.take(32)
        keys = r.bu16()
        s['keys'] = keys
        seats.append(s)
    if not r.done(): raise Damaged('roster trailing bytes')
    if len({s['name'] for s in seats}) != ns: raise Damaged('repeated name')
    if len({s['sign'] for s in seats}) != ns: raise Damaged('repeated sign key')
    for s in seats:
        if not r255.ed_key_ok(s['sign']): raise Damaged('weak or non-canonical sign key')
    ro['seats'] = seats
    # table options (§2.2): a decoding failure here is treated like a game-options failure (exit 1, no fault)
    ro['opts_raw'] = opts
    return ro

def parse_table_options(opts):
    o = Rd(opts); ro = {}
    ro['game_options'] = o.bu16()
    flags = o.u8()
    if flags & ~0x0f: raise ValueError('flags')
    ro['publish_keys'] = bool(flags & 1); ro['fixed'] = None
    if flags & 2:
        n = o.u8()
        if not 1 <= n <= 64: raise ValueError('fixed deal size')
        ro['fixed'] = list(o.take(n))
    if flags & 8:
        ro['move_time'] = o.u16()
        if ro['move_time'] == 0: raise ValueError('move time')
    if not o.done(): raise ValueError('options trailing')
    return ro

# ---------------------------------------------------------------- bodies (protocol.md §4)
def dcard(r, width=None):
    w = r.u8()
    if not 1 <= w <= 3 or (width is not None and w != width): raise EncodingError('card width')
    raw = bytes([w]) + r.take(64 * w)
    return sigma.card_from_raw(raw)

def check_points(b, n_el, n_sc, off=0):
    for i in range(n_el): r_decode(b[off + 32 * i:off + 32 * i + 32])
    for i in range(n_sc): scalar_decode(b[off + 32 * (n_el + i):off + 32 * (n_el + i) + 32])

def decode_body(b):
    if not b: raise EncodingError('empty body')
    r = Rd(b); kind = r.u8(); out = dict(kind=kind)
    if kind in (1, 2):
        out['v'] = r.take(32)
    elif kind == 5:
        out['raw'] = r.take(32)
    elif kind == 3:
        out['mk'] = r.u8(); n = r.u8()
        if n > 16: raise EncodingError('argument count')
        out['args'] = list(struct.unpack('>%di' % n, r.take(4 * n)))
        ns = r.u8()
        if ns > 4: raise EncodingError('swap count')
        sw = []
        for _ in range(ns):
            o0 = dcard(r, 1); o1 = dcard(r, 1); pr = r.take(224)
            check_points(pr, 0, 1); check_points(pr, 4, 2, 32)
            sw.append((o0, o1, pr))
        out['swaps'] = sw; out['stmts'] = None
        if not r.done():
            k = r.u8()
            if not 1 <= k <= 4: raise EncodingError('statement count')
            st = []
            for _ in range(k):
                tag = r.u8(); kk = r.u8()
                if not 1 <= kk <= 64: raise EncodingError('statement k')
                if tag == 1:
                    pr = r.take(32 * (6 * kk - 1))
                    check_points(pr, 0, kk - 1); check_points(pr, 3 * kk, 2 * kk, 32 * (kk - 1))
                elif tag == 2:
                    pr = r.take(224 * kk)
                    for j in range(kk): check_points(pr, 4, 3, 224 * j)
                else: raise EncodingError('statement tag')
                st.append((tag, kk, pr))
            out['stmts'] = st
    elif kind == 4:
        p = r.u8(); pub = []
        for _ in range(p):
            sb = r.bu16(); w = sb[0] if sb else 0
            if not 1 <= w <= 3 or len(sb) != 1 + 32 * w + 32 * (w + 2): raise EncodingError('share')
            check_points(sb, w + w + 1, 1, 1)
            pub.append(sb)
        q = r.u8(); encs = []
        for _ in range(q):
            sb = r.bu16(); w = sb[0] if sb else 0
            if not 1 <= w <= 3 or len(sb) != 1 + 64 * w + 32 * (2 + 3 * w): raise EncodingError('enc share')
            check_points(sb, 2 * w + 1 + 2 * w, 1 + w, 1)
            encs.append(sb)
        if p + q > 256: raise EncodingError('too many shares')
        out['pub'] = pub; out['enc'] = encs
    elif kind == 6:
        n = r.u8()
        if not 1 <= n <= 64: raise EncodingError('shuffle size')
        out['cards'] = [dcard(r, 1) for _ in range(n)]
        w = 1
        pr = r.take(32 * (5 * n + 6 + 3 * w))
        check_points(pr, 3 * n + 3 + 2 * w, 2 * n + 3 + w)
        out['proof'] = pr
    elif kind == 7:
        cs = r.take(128); check_points(cs, 3, 1); out['cs'] = cs
    else:
        raise EncodingError('unknown kind')
    if not r.done(): raise EncodingError('trailing bytes')
    return out

# ---------------------------------------------------------------- the verifier
def verify(data):
    res = dict(valid=False, game=None, entries=0, complete=False, keys_published=False, fault=None, notes=[])
    notes = res['notes']
    def note(s):
        if s not in notes: notes.append(s)
    # 1. framing, roster, entries' framing, roster signatures: exit 3 without a fault
    try:
        roster, rsigs, entries_raw = parse_file(data)
        ro = parse_roster(roster)
        n = len(ro['seats'])
        if len(rsigs) != n: raise Damaged('signature count')
        entries = [parse_entry(e) for e in entries_raw]
        gid = H(b"masque/v1/roster" + roster)
        for i, s in enumerate(ro['seats']):
            if not r255.ed_verify(s['sign'], b"masque/v1/roster-sig" + gid, rsigs[i]):
                raise Damaged('roster signature of seat %d' % i)
    except (Damaged, struct.error, UnicodeDecodeError) as e:
        res['exit'] = 3; res['detail'] = 'not a whole transcript: %s' % e; return res
    res['game'] = ro['game']; res['entries'] = len(entries)
    seats = ro['seats']; names = [s['name'] for s in seats]

    def refuse(why, seat=None):
        res['exit'] = 1; res['detail'] = 'roster refused: ' + why
        if seat is not None: res['fault'] = dict(position=0, seat=seat, reason='bad-seat-keys', roster=True)
        return res
    # 2. mental keys (§2.3)
    table32 = ro['table_id'] + b'\0' * 16
    Xb, Yb, Xs, Ys = [], [], [], []
    for i, s in enumerate(seats):
        k = s['keys']
        try:
            if len(k) != 192: raise EncodingError('keys length')
            X = r_decode(k[:32]); Y = r_decode(k[96:128])
            if r255.is_ident(X) or r255.is_ident(Y): raise EncodingError('identity key')
            ok1, _ = sigma.verify_key(b"masque/key-pok/v1", table32, i, s['peer'], k[:96])
            ok2, _ = sigma.verify_key(b"masque/view-key-pok/v1", table32, i, s['peer'], k[96:])
            if not (ok1 and ok2): raise EncodingError('key proof')
            if k[96:128] == k[:32]: raise EncodingError('Y = X')
        except EncodingError as e:
            return refuse('seat %d: %s' % (i, e), i)
        Xb.append(k[:32]); Yb.append(k[96:128]); Xs.append(X); Ys.append(Y)
    for i in range(n):
        if Yb[i] in Xb or Yb[i] in Yb[:i]: return refuse('viewing key of seat %d clashes' % i, i)
    if len(set(Xb)) != n: return refuse('two seats share a card key')
    Hj = r255.IDENT
    for X in Xs: Hj = r255.padd(Hj, X)
    if r255.is_ident(Hj): return refuse('joint key is the identity')
    Hb = r255.r_encode(Hj)
    try:
        to = parse_table_options(ro['opts_raw'])
    except (ValueError, Damaged, struct.error) as e:
        return refuse('table options: %s' % e)
    game = ro['game']
    unimplemented = None
    try:
        if game in ('mascarade', 'mascarade2'):
            gopts = masc_options(game, to['game_options'], names)
            if gopts.get('names_differ'): return refuse('the game options name other players than the roster seats (protocol.md §2.2.1)')
            rules = Mascarade(game, gopts, n)
            K = 13 if game == 'mascarade' else 17
            deck = gopts['set']
            opening = False
        elif game == 'grimm':
            import grimm
            gopts = grimm.parse_options(to['game_options'], names)
            if gopts.get('names_differ'): return refuse('the game options name other players than the roster seats (protocol.md §2.2.1)')
            try:
                rules = grimm.Grimm(gopts, n, gid, note)
            except grimm.Unimplemented as u:
                rules = None; unimplemented = str(u)
            K = 25; deck = grimm.deck(gopts); opening = True
        else:
            raise ValueError('unknown game')
    except (ValueError, Damaged, struct.error, UnicodeDecodeError) as e:
        return refuse('game options: %s' % e)
    if to['fixed'] is not None:
        # protocol.md §2.2: a permutation of the deck (grimm: the canonical deck itself), else no table
        if sorted(to['fixed']) != sorted(deck): return refuse('the fixed deal is not a permutation of the deck')
        if opening and to['fixed'] != deck: return refuse('a grimm fixed deal must be the canonical deck')
        res['deal_source'] = 'fixed'
    elif game == 'grimm' and gopts['fixed']: res['deal_source'] = 'fixed'      # §6: fixed rounds
    elif opening: res['deal_source'] = 'shuffle'
    else: res['deal_source'] = 'coins'
    res['fixed_deal'] = res['deal_source'] == 'fixed'
    kinds_pts = [sigma.M(k) for k in range(K)]

    # ---------------------------------------------------------------- table state
    T = dict(slots={}, queue=[], views={}, keys=[], phase=None, commits=[], reveals=[])
    slots = T['slots']; queue = T['queue']; views = T['views']
    if opening:
        T['phase'] = 'play'
        for i, k in enumerate(deck): slots[i] = sigma.faceup(k)
    elif to['fixed'] is not None:
        T['phase'] = 'play'
        for i, k in enumerate(to['fixed']): slots[i] = sigma.faceup(k)
    else:
        T['phase'] = 'commit'

    def push_effects(effs):
        """queue the requests among a list of effects (swaps/statements handled by the caller)"""
        for e in effs:
            kind = e[0]
            if kind in ('swap', 'prove'): continue
            rq = dict(kind=kind)
            if kind == 'reveal': rq.update(slots=e[1], owed=list(range(n)), shares=[])
            elif kind == 'peek': rq.update(slots=e[1], viewer=e[2], owed=[j for j in range(n) if j != e[2]], shares={})
            elif kind == 'others': rq.update(slots=e[1], exc=e[2], owed=list(range(n)), shares={})
            elif kind == 'shuffle':
                rq.update(slots=e[1], owed=list(e[2]) if e[2] else list(range(n)))
            elif kind == 'coin': rq.update(owed=list(range(n)), D=[], a=None)
            elif kind == 'set': rq.update(slots=e[1], cards=e[2])
            else: raise Fault('invalid', 'unknown effect %r' % (e,))
            queue.append(rq)
        settle()
    def settle():
        # sets at the head take effect; share requests snapshot when nothing reorders ahead of them
        while queue and queue[0]['kind'] == 'set':
            rq = queue.pop(0)
            for s, k in zip(rq['slots'], rq['cards']): slots[s] = sigma.faceup(k)
            more = rules.set_done(rq) if hasattr(rules, 'set_done') else []
            if more: push_effects(more); return
        blocked = False
        for rq in queue:
            if rq['kind'] in ('shuffle', 'set'): blocked = True; continue
            if rq['kind'] in ('reveal', 'peek', 'others') and 'snap' not in rq and not blocked:
                rq['snap'] = [slots[s] for s in rq['slots']]
    def complete_head(pos):
        rq = queue.pop(0); more = []
        k = rq['kind']
        if k == 'reveal':
            kinds = []
            for j, card in enumerate(rq['snap']):
                P = card[1][0][1]
                for D in rq['shares']: P = r255.psub(P, D[j][0])
                kk = next((c for c in range(K) if r255.r_eq(P, kinds_pts[c])), None)
                if kk is None: raise Fault('invalid', 'revealed point is no card')
                kinds.append(kk)
            more = rules.revealed(rq['slots'], kinds)
        elif k == 'peek':
            v = rq['viewer']
            for j, s in enumerate(rq['slots']):
                views[(s, v)] = (rq['snap'][j][0], [rq['shares'][a][j] for a in range(n) if a != v])
            more = rules.peek_done(rq) if hasattr(rules, 'peek_done') else []
        elif k == 'others':
            o = rq['exc']
            for j, s in enumerate(rq['slots']):
                for v in range(n):
                    if v == o: continue
                    views[(s, v)] = (rq['snap'][j][0], [rq['shares'][a][(j, v)] for a in range(n) if a != v])
            more = rules.others_done(rq) if hasattr(rules, 'others_done') else []
        elif k == 'shuffle':
            more = rules.shuffle_done(rq) if hasattr(rules, 'shuffle_done') else []
        elif k == 'coin':
            more = rules.coin(sigma.coin_value(gid, rq['a'], rq['D']), rq['a'])
        if not queue and hasattr(rules, 'peeks_done'): rules.peeks_done()
        push_effects(more or [])

    def due():
        """(seat, body kind) or None"""
        ph = T['phase']
        if ph == 'commit': return (len(T['commits']), 1)
        if ph == 'reveal': return (len(T['reveals']), 2)
        if queue:
            rq = queue[0]
            return (rq['owed'][0], {'reveal': 4, 'peek': 4, 'others': 4, 'shuffle': 6, 'coin': 7}[rq['kind']])
        if ph == 'play':
            if not rules.over():
                d = rules.due()
                if d is None: raise Fault('invalid', 'nothing due while the game goes on')
                return (d, 3)
            T['phase'] = ph = 'keys' if to['publish_keys'] else 'done'
        if ph == 'keys':
            if len(T['keys']) < n: return (len(T['keys']), 5)
            T['phase'] = 'done'
        return None

    def views_for(seat, slot):
        return views.get((slot, seat))

    def check_statement(pos, seat, i, eff, stmt):
        _, slot, tag, S, prover = eff
        if prover != seat: raise Fault('invalid', 'statement prover is not the mover')
        v = views_for(seat, slot)
        if v is None: raise Fault('not-viewed', 'slot %d' % slot)
        if slots[slot][0] != v[0]: raise Fault('stale-view', 'slot %d' % slot)
        ptag, k, proof = stmt
        if ptag != tag or k != len(S): raise Fault('bad-statement', 'tag/k')
        cpos = (pos << 8) | 0x80 | i
        card = slots[slot]
        sh_pts = []; sh_raw = []
        for es in v[1]:
            w = es[0]
            e1 = [es[1 + 64 * c:33 + 64 * c] for c in range(w)]; e2 = [es[33 + 64 * c:65 + 64 * c] for c in range(w)]
            sh_raw.append((e1, e2)); sh_pts.append(([r_decode(x) for x in e1], [r_decode(x) for x in e2]))
        if tag == 1:
            ok = sigma.verify_viewed_holding(gid, cpos, seat, card, 0, sh_pts, S, Xs[seat], Ys[seat], proof)
        else:
            ok = all(sigma.verify_not_held(gid, cpos, seat, Xb[seat], Yb[seat], card, 0, sh_raw, m, proof[224 * j:224 * j + 224])
                     for j, m in enumerate(S))
        if not ok: raise Fault('bad-statement')

    Unimpl = ()
    if game == 'grimm':
        import grimm
        Unimpl = (grimm.Unimplemented,)

    def undetermined(idx, why):
        # the rules could not be replayed further from the documents: check what needs no rules
        res['exit'] = 4; res['verdict'] = 'undetermined'
        res['detail'] = 'rules not replayed from entry %d: %s' % (idx, why)
        unchecked = {}
        run_a = None; D = []
        while idx > 0 and entries[idx - 1]['body'][:1] == b'\x07' and entries[idx]['body'][:1] == b'\x07': idx -= 1
        for j in range(idx, len(entries)):
            ej = entries[j]; sj = ej['seat']
            msg = (b"masque/v1/entry-sig" + gid + struct.pack('>QB', ej['pos'], sj) + ej['prev'] +
                   struct.pack('>I', len(ej['body'])) + ej['body'])
            if sj >= n or not r255.ed_verify(seats[sj]['sign'], msg, ej['sig']) or ej['pos'] != j:
                res['detail'] += '; entry %d fails its signature or position' % j; return res
            if j > 0 and ej['prev'] != H(b"masque/v1/entry" + entries[j - 1]['raw']):
                res['detail'] += '; entry %d breaks the chain' % j; return res
            try: bj = decode_body(ej['body'])
            except (EncodingError, Damaged, struct.error) as ex:
                res['detail'] += '; entry %d malformed: %s' % (j, ex); return res
            if bj['kind'] == 7:
                if run_a is None or len(D) == n: run_a = j; D = []
                ok, Dj = sigma.verify_coin_share(gid, j, sj, Xb[sj], sigma.coin_point(gid, run_a), bj['cs'])
                if not ok: res['detail'] += '; coin share at %d does not verify' % j; return res
                D.append(Dj)
            else:
                run_a = None
                if bj['kind'] == 5:
                    x = scalar_decode(bj['raw'])
                    if not r255.r_eq(r255.pmul(x, r255.G), Xs[sj]): res['detail'] += '; key at %d mismatches' % j; return res
                else:
                    unchecked[bj['kind']] = unchecked.get(bj['kind'], 0) + 1
        res['unchecked_after'] = {'body kind %d' % k: c for k, c in sorted(unchecked.items())}
        note('from entry %d: signatures, positions, chain, strict decoding, coin shares and keys checked; '
             'nothing else (no due seat, no rules, no share/shuffle/swap/statement proof)' % idx)
        return res

    if unimplemented is not None:
        return undetermined(0, unimplemented)
    if hasattr(rules, 'start'):
        try:
            push_effects(rules.start())
        except Unimpl as u:
            return undetermined(0, str(u))

    # ---------------------------------------------------------------- replay
    prev = gid
    for idx, e in enumerate(entries):
        pos, seat = e['pos'], e['seat']
        def fault(reason, blame=seat, exit=1, detail=''):
            res['fault'] = dict(position=pos, seat=blame, reason=reason)
            res['exit'] = exit; res['detail'] = detail; res['name'] = names[blame] if blame < n else None
            return res
        if seat >= n: return fault('unknown-seat', exit=3)
        msg = (b"masque/v1/entry-sig" + gid + struct.pack('>QB', pos, seat) + e['prev'] +
               struct.pack('>I', len(e['body'])) + e['body'])
        if not r255.ed_verify(seats[seat]['sign'], msg, e['sig']):
            for j, s in enumerate(seats):
                if j != seat and r255.ed_verify(s['sign'], msg, e['sig']):
                    return fault('signed-by-another-seat', blame=j)
            return fault('bad-signature', exit=3)
        if pos != idx: return fault('wrong-position')
        if e['prev'] != prev: return fault('wrong-previous-hash')
        try:
            d = due()
        except (Fault, RuleFault) as f:
            return fault(f.reason, detail=f.detail)
        except Unimpl as u:
            return undetermined(idx, str(u))
        if d is None: return fault('log-closed')
        if seat != d[0]: return fault('not-your-turn', detail='seat %d is due' % d[0])
        try:
            body = decode_body(e['body'])
        except (EncodingError, Damaged, struct.error) as ex:
            return fault('malformed-body', detail=str(ex))
        k = body['kind']
        try:
            if k != d[1]: raise Fault('wrong-body-kind', 'kind %d where %d is due' % (k, d[1]))
            if k == 1:
                T['commits'].append(body['v'])
                if len(T['commits']) == n: T['phase'] = 'reveal'
            elif k == 2:
                if sigma.coin_commit(gid, seat, b"masque/deal/v1", body['v']) != T['commits'][seat]:
                    raise Fault('coin-mismatch')
                T['reveals'].append(body['v'])
                if len(T['reveals']) == n:
                    seed = sigma.coin_seed(gid, b"masque/deal/v1", T['reveals'])
                    perm = sigma.coin_permutation(seed, b"masque/deal/v1", len(deck))
                    res['deal'] = [deck[p] for p in perm]
                    for i, p in enumerate(perm): slots[i] = sigma.faceup(deck[p])
                    T['phase'] = 'play'
            elif k == 5:
                try:
                    x = scalar_decode(body['raw'])
                except EncodingError:
                    raise Fault('key-mismatch', 'not a canonical scalar')
                if x == 0 or not r255.r_eq(r255.pmul(x, r255.G), Xs[seat]): raise Fault('key-mismatch')
                T['keys'].append(x)
            elif k == 4:
                rq = queue[0]; kind = rq['kind']
                if kind == 'reveal':
                    if body['enc'] or len(body['pub']) != len(rq['slots']): raise Fault('share-count')
                    Ds = []
                    for j, sh in enumerate(body['pub']):
                        ok, D = sigma.verify_share(gid, pos, seat, Xb[seat], rq['snap'][j], sh)
                        if not ok: raise Fault('bad-share', 'slot %d' % rq['slots'][j])
                        Ds.append(D)
                    rq['shares'].append(Ds)
                else:
                    if kind == 'peek': recips = [rq['viewer']]
                    else: recips = [v for v in range(n) if v != rq['exc'] and v != seat]
                    if body['pub'] or len(body['enc']) != len(rq['slots']) * len(recips): raise Fault('share-count')
                    got = {}
                    for j in range(len(rq['slots'])):
                        for ri, v in enumerate(recips):
                            es = body['enc'][j * len(recips) + ri]
                            ok, _ = sigma.verify_enc_share(gid, pos, seat, Xb[seat], Yb[v], rq['snap'][j], es)
                            if not ok: raise Fault('bad-share', 'slot %d recipient %d' % (rq['slots'][j], v))
                            got[(j, v)] = es
                    if kind == 'peek':
                        rq['shares'][seat] = [got[(j, rq['viewer'])] for j in range(len(rq['slots']))]
                    else:
                        rq['shares'][seat] = got
                rq['owed'].pop(0)
                if not rq['owed']: complete_head(pos)
            elif k == 6:
                rq = queue[0]
                incards = [slots[s] for s in rq['slots']]
                if len(body['cards']) != len(incards): raise Fault('bad-shuffle', 'deck size')
                if not sigma.verify_shuffle(gid, pos, seat, Hb, Hj, incards, body['cards'], body['proof']):
                    raise Fault('bad-shuffle')
                for s, c in zip(rq['slots'], body['cards']): slots[s] = c
                rq['owed'].pop(0)
                if not rq['owed']:
                    complete_head(pos)
                settle()
            elif k == 7:
                rq = queue[0]
                if rq['a'] is None: rq['a'] = pos
                Q = sigma.coin_point(gid, rq['a'])
                ok, D = sigma.verify_coin_share(gid, pos, seat, Xb[seat], Q, body['cs'])
                if not ok: raise Fault('bad-share', 'coin share')
                rq['D'].append(D); rq['owed'].pop(0)
                if not rq['owed']: complete_head(pos)
            elif k == 3:
                effs = rules.move(seat, body['mk'], body['args'])
                # protocol.md §4.1: effects in order (a missing proof or payload when its turn comes),
                # then extra swap payloads, then extra statement proofs
                stmts = body['stmts'] or []
                si = wi = 0
                for x in effs:
                    if x[0] == 'swap':
                        if wi >= len(body['swaps']): raise Fault('swap-count', 'swap %d lacks its payload' % wi)
                        a, b = x[1], x[2]
                        o0, o1, pr = body['swaps'][wi]
                        if not sigma.verify_swap(gid, (pos << 8) | wi, seat, Hb, Hj, slots[a], slots[b], o0, o1, pr):
                            raise Fault('bad-swap-proof', 'swap %d of slots %d,%d' % (wi, a, b))
                        slots[a] = o0; slots[b] = o1; wi += 1
                    elif x[0] == 'prove':
                        if si >= len(stmts): raise Fault('statement-count', 'statement %d lacks its proof' % si)
                        check_statement(pos, seat, si, x, stmts[si]); si += 1
                if wi != len(body['swaps']): raise Fault('swap-count', '%d payloads for %d swaps' % (len(body['swaps']), wi))
                if si != len(stmts): raise Fault('statement-count', '%d proofs for %d statements' % (len(stmts), si))
                push_effects(effs)
        except RuleFault as f:
            return fault(f.reason, detail=f.detail)
        except Fault as f:
            return fault(f.reason, detail=f.detail)
        except Unimpl as u:
            return undetermined(idx, str(u))
        prev = H(b"masque/v1/entry" + e['raw'])
    try:
        due()
    except Unimpl as u:
        note('after the last entry the rules cannot be followed: %s' % u)
    except (Fault, RuleFault) as f:
        note('after the last entry: %s %s' % (f.reason, f.detail))
    res['valid'] = True; res['exit'] = 0
    res['complete'] = T['phase'] == 'done'
    res['keys_published'] = len(T['keys']) == n
    if hasattr(rules, 'final'): res['final'] = rules.final(names)
    if hasattr(rules, 'notes'):
        for s in rules.notes: note(s)
    return res

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    res = verify(open(args[0], 'rb').read())
    print(json.dumps(res, indent=1, default=str))
    sys.exit(res['exit'])

if __name__ == '__main__':
    main()
