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

SUPPORTED_GAMES = ('mascarade', 'mascarade2', 'grimm', 'mafia')

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
        # protocol.md §2: C0, DEL, C1 and U+202A..U+202E, U+2066..U+2069; nothing else (not the marks U+200E, U+200F, U+061C)
        if cat == 'Cc' or 0x202a <= ord(ch) <= 0x202e or 0x2066 <= ord(ch) <= 0x2069:
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
def code_point(i):
    """protocol.md §5: the code of target i, 3^i·G"""
    P = r255.G
    for _ in range(i): P = r255.padd(r255.padd(P, P), P)
    return P

def decode_codes(P, nt, k):
    """protocol.md §5: (c_0..c_(nt-1)) with P = Σ c_i·3^i·G, Σ c_i = k (1 or 2), or None"""
    pts = [code_point(i) for i in range(nt)]
    for i in range(nt):
        if k == 1:
            if r255.r_eq(P, pts[i]): return [1 if j == i else 0 for j in range(nt)]
            continue
        for j in range(i, nt):
            if r255.r_eq(P, r255.padd(pts[i], pts[j])):
                return [(j2 == i) + (j2 == j) for j2 in range(nt)]
    return None

def dcard(r, width=None, wmax=3):
    w = r.u8()
    if not 1 <= w <= wmax or (width is not None and w != width): raise EncodingError('card width')
    raw = bytes([w]) + r.take(64 * w)
    return sigma.card_from_raw(raw)

def check_points(b, n_el, n_sc, off=0):
    for i in range(n_el): r_decode(b[off + 32 * i:off + 32 * i + 32])
    for i in range(n_sc): scalar_decode(b[off + 32 * (n_el + i):off + 32 * (n_el + i) + 32])

def decode_body(b, W=1, SW=5):
    """W: the table's card width (1; Mafia 5); SW: the widest share (5 for every game, protocol.md §4)"""
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
            o0 = dcard(r, W, W); o1 = dcard(r, W, W); pr = r.take(224)
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
            if not 1 <= w <= SW or len(sb) != 1 + 32 * w + 32 * (w + 2): raise EncodingError('share')
            check_points(sb, w + w + 1, 1, 1)
            pub.append(sb)
        q = r.u8(); encs = []
        for _ in range(q):
            sb = r.bu16(); w = sb[0] if sb else 0
            if not 1 <= w <= SW or len(sb) != 1 + 64 * w + 32 * (2 + 3 * w): raise EncodingError('enc share')
            check_points(sb, 2 * w + 1 + 2 * w, 1 + w, 1)
            encs.append(sb)
        if p + q > 256: raise EncodingError('too many shares')
        out['pub'] = pub; out['enc'] = encs
    elif kind in (6, 9):
        # 9: a mix (protocol.md §4), a shuffle of a plurality kill's cards or rows (width 2) or of a one-vote
        # kill's code sums (width 1), whatever the table's: card 0's width byte, every card's the same
        n = r.u8()
        if not 1 <= n <= 64: raise EncodingError('shuffle size')
        w = W
        if kind == 9:
            w = r.b[r.i] if r.i < len(r.b) else 0
            if w not in (1, 2): raise EncodingError('mix width')
        out['cards'] = [dcard(r, w, max(w, W)) for _ in range(n)]
        pr = r.take(32 * (5 * n + 6 + 3 * w))
        check_points(pr, 3 * n + 3 + 2 * w, 2 * n + 3 + w)
        out['proof'] = pr
    elif kind == 7:
        cs = r.take(128); check_points(cs, 3, 1); out['cs'] = cs
    elif kind == 10:
        # protocol.md §4: m blind steps (m = 1..64, the body's length over 224), each A' ‖ B' ‖ R×3 ‖ s×2
        # (SPEC §9.8)
        m = (len(r.b) - r.i) // 224
        if not 1 <= m <= 64 or (len(r.b) - r.i) % 224: raise EncodingError('blind steps')
        out['blinds'] = []
        for _ in range(m):
            bs = r.take(224); check_points(bs, 5, 2); out['blinds'].append(bs)
    elif kind == 11:
        # protocol.md §4: a count lookup over n targets, n u8 (1..64) ‖ W_A ‖ W_B ‖ R×(2n+2) ‖ s×(2n+1)
        ln = r.u8()
        if not 1 <= ln <= 64: raise EncodingError('lookup targets')
        lb = r.take(64 + 32 * (4 * ln + 3)); check_points(lb, 2 + 2 * ln + 2, 2 * ln + 1)
        out['lookup'] = (ln, lb)
    elif kind == 8:
        # protocol.md §4: actions (games with a night's secret actions only: Mafia)
        p = r.u8()
        if not 1 <= p <= 16: raise EncodingError('part count')
        parts = []
        for _ in range(p):
            ln = r.u32()
            if not 1 <= ln <= 65536: raise EncodingError('part length')
            parts.append(r.take(ln))
        out['parts'] = parts
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
    # protocol.md §2.4: a game other than the four is refused without a fault, before the keys
    if ro['game'] not in SUPPORTED_GAMES: return refuse('the roster names the game %r, none of the protocol\'s four (protocol.md §2.4)' % ro['game'])
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
    W = 1
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
        elif game == 'mafia':
            import mafia
            gopts = mafia.parse_options(to['game_options'], names)
            if gopts.get('names_differ'): return refuse('the game options name other players than the roster seats (protocol.md §2.2.1)')
            try:
                rules = mafia.Mafia(gopts, n, gid, note)
            except mafia.Unimplemented as u:
                rules = None; unimplemented = str(u)
            K = mafia.K; deck = mafia.deck(gopts, n); opening = True; W = 5
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
    elif game == 'mafia' and gopts['fixed']: res['deal_source'] = 'fixed'      # §2.2.3: the options' fixed deal
    elif opening: res['deal_source'] = 'shuffle'
    else: res['deal_source'] = 'coins'
    res['fixed_deal'] = res['deal_source'] == 'fixed'
    kinds_pts = [sigma.M(k) for k in range(K)]
    SW = 5                       # protocol.md §4: share widths 1..5 (mental.MaxWidth), every game
    mafia_table = game == 'mafia'

    # ---------------------------------------------------------------- table state
    T = dict(slots={}, queue=[], views={}, keys=[], phase=None, commits=[], reveals=[], retired={}, tallies={}, mixes={})
    slots = T['slots']; queue = T['queue']; views = T['views']; retired = T['retired']
    if opening:
        T['phase'] = 'play'
        if hasattr(rules, 'initial_cards'):
            for i, c in rules.initial_cards().items(): slots[i] = c
        else:
            for i, k in enumerate(deck): slots[i] = sigma.faceup(k)
    elif to['fixed'] is not None:
        T['phase'] = 'play'
        for i, k in enumerate(to['fixed']): slots[i] = sigma.faceup(k)
    else:
        T['phase'] = 'commit'

    def living(seats=None):
        return [s for s in (range(n) if seats is None else seats) if s not in retired]

    def share_rec(es):
        """an encrypted share's bytes -> (E1 raw list, E2 raw list, E1 points, E2 points)"""
        w = es[0]
        e1 = [es[1 + 64 * c:33 + 64 * c] for c in range(w)]; e2 = [es[33 + 64 * c:65 + 64 * c] for c in range(w)]
        return (e1, e2, [r_decode(x) for x in e1], [r_decode(x) for x in e2])

    def retired_rec(seat, card):
        """protocol.md §5 retirement: (identity, x_r·A) per component, no proof"""
        x = retired[seat]
        e2p = [r255.pmul(x, A) for A, B in card[1]]
        e1p = [r255.IDENT for _ in card[1]]
        return ([r255.r_encode(P) for P in e1p], [r255.r_encode(P) for P in e2p], e1p, e2p)

    def sel(card, comps):
        return card if comps is None else sigma.sub_card(card, comps)

    def push_effects(effs):
        """queue the requests among a list of effects (swaps/statements handled by the caller)"""
        for e in effs:
            kind = e[0]
            if kind in ('swap', 'prove'): continue
            last = queue[-1] if queue else None
            rq = dict(kind=kind)
            if kind == 'reveal':
                rq.update(slots=list(e[1]), comps=(e[2] if len(e) > 2 else None), authors=list(range(n)), shares={})
            elif kind == 'peek':
                comps = e[3] if len(e) > 3 else None
                if (mafia_table and last is not None and last['kind'] == 'peek' and 'snap' not in last
                        and not last['shares'] and last['comps'] == comps
                        and not set(e[1]) & set(last['slots'])):
                    # protocol.md §5: a batch of views
                    last['slots'] += list(e[1]); last['viewers'] += [e[2]] * len(e[1]); continue
                rq.update(slots=list(e[1]), viewers=[e[2]] * len(e[1]), comps=comps, shares={})
            elif kind == 'others': rq.update(slots=e[1], exc=e[2], authors=list(range(n)), shares={})
            elif kind == 'shuffle':
                rq.update(slots=e[1], authors=list(e[2]) if e[2] else list(range(n)), done=set())
            elif kind == 'coin': rq.update(authors=list(range(n)), D={}, a=None)
            elif kind == 'set': rq.update(slots=e[1], cards=e[2])
            elif kind == 'retire': rq.update(seat=e[1], authors=[e[1]])
            elif kind == 'actions':
                # protocol.md §5: tags only with tags, ballots and checks only with ballots and checks
                istag = lambda ps: all(p[0] == 'tag' for p in ps)
                if (last is not None and last['kind'] == 'actions' and not last['bodies'] and last['seats'] == list(e[1])
                        and len(last['parts']) + len(e[2]) <= 16 and istag(last['parts']) == istag(e[2])
                        and (istag(e[2]) or not any(p[0] == 'tag' for p in e[2]))):
                    last['parts'] += list(e[2]); continue
                rq.update(seats=list(e[1]), parts=list(e[2]), bodies={})
            elif kind == 'tally':
                if last is not None and last['kind'] == 'tally' and 'snap' not in last and len(last['parts']) + len(e[1]) <= 16 \
                        and not any(isinstance(p[0], str) for p in last['parts'] + list(e[1])):
                    last['parts'] += list(e[1]); continue
                rq.update(parts=list(e[1]), authors=list(range(n)), shares={})
            elif kind == 'vmix':
                # protocol.md §5: a one-vote mix of power e[1] by seats e[2]: the voters' code sums, nothing opened
                rq = dict(kind='mix', power=e[1], authors=list(e[2]), done=set(), votes=True)
            elif kind == 'test':
                # protocol.md §5: a blinded identity test of card e[2] of power e[1]'s one-vote mix,
                # every seat of the roster in seat order (a retired seat's step computed in its place)
                rq = dict(kind='test', power=e[1], k=e[2], next=0)
            elif kind == 'plural':
                # protocol.md §5: a plurality kill of power e[1] with e[3] votes by seats e[2], adding powers e[4]:
                # the lookups, the vote mix, the vote tests, the kill table's mix, the row tests, the pick of card 0
                p, seats, kv, added = e[1], list(e[2]), e[3], tuple(e[4])
                queue.append(dict(kind='lookup', power=p, authors=seats, got={}))
                queue.append(dict(kind='mix', power=p, authors=seats, done=set(), plural=True))
                queue.append(dict(kind='ptest', power=p, k=kv, rows=False, next=0))
                queue.append(dict(kind='mix', power=p, authors=seats, done=set(), plural=True))
                queue.append(dict(kind='ptest', power=p, k=kv, rows=True, next=0))
                rq = dict(kind='tally', parts=[('pick', p, 0, added)], authors=list(range(n)), shares={})
            elif kind == 'pick':
                # protocol.md §5: the pick of card e[2] of power e[1]'s one-vote mix, adding powers e[3]
                rq = dict(kind='tally', parts=[('pick', e[1], e[2], tuple(e[3]))], authors=list(range(n)), shares={})
            else: raise Fault('invalid', 'unknown effect %r' % (e,))
            queue.append(rq)
        settle()

    def pending(rq):
        """the seats still owing an entry to the request at the head, in order"""
        k = rq['kind']
        if k == 'peek':
            vs = set(rq['viewers'])
            auth = [a for a in range(n) if not (len(vs) == 1 and a in vs)]
            return [a for a in living(auth) if a not in rq['shares']]
        if k in ('reveal', 'others', 'tally', 'checkview'):
            return [a for a in living(rq['authors']) if a not in rq['shares']]
        if k == 'coin': return [a for a in living(rq['authors']) if a not in rq['D']]
        if k in ('shuffle', 'mix'): return [a for a in living(rq['authors']) if a not in rq['done']]
        if k in ('test', 'ptest'): return list(range(rq['next'], n))
        if k == 'lookup': return [a for a in living(rq['authors']) if a not in rq['got']]
        if k == 'retire': return [] if rq['seat'] in retired else [rq['seat']]
        if k == 'actions': return [a for a in living(rq['seats']) if a not in rq['bodies']]
        return []

    def settle(pos=None):
        while True:
            # sets at the head take effect; share requests snapshot when nothing reorders ahead of them
            while queue and queue[0]['kind'] == 'set':
                rq = queue.pop(0)
                for s, c in zip(rq['slots'], rq['cards']): slots[s] = c if isinstance(c, tuple) else sigma.faceup(c)
                more = rules.set_done(rq) if hasattr(rules, 'set_done') else []
                if more: push_effects(more); return
            blocked = False
            for rq in queue:
                if rq['kind'] in ('shuffle', 'set'): blocked = True; continue
                if rq['kind'] in ('reveal', 'peek', 'others') and 'snap' not in rq and not blocked:
                    rq['snap'] = [slots[s] for s in rq['slots']]
            if queue and queue[0]['kind'] == 'mix' and 'cards' not in queue[0]:
                rq = queue[0]; tl = T['tallies'].get(rq['power'])
                if tl is None: raise Fault('invalid', 'a mix of power %d without ballots' % rq['power'])
                rq['targets'] = list(tl[0])
                if rq.get('plural'):
                    # protocol.md §5 plurality kill: the vote cards (V, W), or the kill table's rows
                    rq['cards'] = list(T['pcards'][rq['power']])
                else:
                    # protocol.md §5 one-vote mix: one width-1 card per voter, in the voters' order: its own
                    # ballot's code sum
                    each = T.get('ballots', {}).get(rq['power'], {})
                    cards = []
                    for v in tl[0]:
                        if v not in each: raise Fault('invalid', 'a one-vote mix without seat %d\'s ballot' % v)
                        cA, cB = r255.IDENT, r255.IDENT
                        for E in reversed(each[v]):      # Horner: acc = 3·acc + e_i
                            cA = r255.padd(r255.padd(r255.padd(cA, cA), cA), E[0])
                            cB = r255.padd(r255.padd(r255.padd(cB, cB), cB), E[1])
                        cards.append(sigma.card_from_points([(cA, cB)]))
                    rq['cards'] = cards
            if queue and queue[0]['kind'] == 'test':
                rq = queue[0]
                if 'cur' not in rq:
                    mx = T['mixes'].get(rq['power'])
                    if mx is None or not 0 <= rq['k'] < len(mx[1]) or len(mx[1][rq['k']][1]) != 1:
                        raise Fault('invalid', 'a test of card %d of power %d without a one-vote mix' % (rq['k'], rq['power']))
                    rq['cur'] = mx[1][rq['k']]
                while rq['next'] < n and rq['next'] in retired:
                    # protocol.md §5: a retired seat's step, (A, B − x_r·A)
                    A, B = rq['cur'][1][0]
                    rq['cur'] = sigma.card_from_points([(A, r255.psub(B, r255.pmul(retired[rq['next']], A)))])
                    rq['next'] += 1
            if queue and queue[0]['kind'] == 'ptest':
                rq = queue[0]
                if 'cur' not in rq:
                    # protocol.md §5 plurality kill: component 0 of every mixed card, or of every row
                    mx = T['mixes'].get(rq['power'])
                    if mx is None: raise Fault('invalid', 'a plurality kill\'s tests without a mix')
                    rq['cur'] = [sigma.card_from_points([c[1][0]]) for c in mx[1]]
                while rq['next'] < n and rq['next'] in retired:
                    x = retired[rq['next']]
                    rq['cur'] = [sigma.card_from_points([(A, r255.psub(B, r255.pmul(x, A)))]) for A, B in (c[1][0] for c in rq['cur'])]
                    rq['next'] += 1
            if queue and queue[0]['kind'] == 'tally' and 'snap' not in queue[0]:
                rq = queue[0]; snap = []
                for part in rq['parts']:
                    if part[0] == 'pick':
                        _, power, k, added = part
                        targets, pairs = T['mixes'][power]
                        A, B = pairs[k][1][0]
                        for ap in added:
                            more_tl = T['tallies'].get(ap)
                            if more_tl is None or more_tl[0] != targets:
                                raise Fault('invalid', 'a pick of power %d adds power %d, not over its targets' % (power, ap))
                            cA, cB = r255.IDENT, r255.IDENT
                            for E in reversed(more_tl[1]):      # Horner: acc = 3·acc + e_i
                                cA = r255.padd(r255.padd(r255.padd(cA, cA), cA), E[0])
                                cB = r255.padd(r255.padd(r255.padd(cB, cB), cB), E[1])
                            A, B = r255.padd(A, cA), r255.padd(B, cB)
                        snap.append((('pick', targets, 1 + len(added)), (A, B)))
                        continue
                    # (power, seats) or (power, seats, added powers): protocol.md §5, a part may add powers
                    power, seats = part[0], part[1]
                    tl = T['tallies'].get(power)
                    if tl is None: raise Fault('invalid', 'a tally of power %d without ballots' % power)
                    targets, sums = tl
                    if len(part) > 3 and part[3]:
                        # protocol.md §5: a part naming voters sums those voters' ballots alone (SPEC §9.7)
                        each = T.get('ballots', {}).get(power, {})
                        sums = [(r255.IDENT, r255.IDENT) for _ in targets]
                        for v in part[3]:
                            if v not in each: raise Fault('invalid', 'a tally of power %d by seat %d, no voter' % (power, v))
                            sums = [(r255.padd(S[0], E[0]), r255.padd(S[1], E[1])) for S, E in zip(sums, each[v])]
                    for ap in (part[2] if len(part) > 2 else ()):
                        more_tl = T['tallies'].get(ap)
                        if more_tl is None or more_tl[0] != targets:
                            raise Fault('invalid', 'a tally of power %d adds power %d, not over its targets' % (power, ap))
                        sums = [(r255.padd(S[0], E[0]), r255.padd(S[1], E[1])) for S, E in zip(sums, more_tl[1])]
                    for s in (targets if seats is None else seats):
                        if s not in targets: raise Fault('invalid', 'tally of seat %d not a target' % s)
                        snap.append((s, sums[targets.index(s)]))
                rq['snap'] = snap
            # a request whose every author has retired completes with no entry
            if queue and queue[0]['kind'] not in ('set',) and not pending(queue[0]):
                complete_head(pos); continue
            return

    def open_point(P):
        for c in range(K):
            if r255.r_eq(P, kinds_pts[c]): return c
        return None

    def complete_head(pos):
        rq = queue.pop(0); more = []
        k = rq['kind']
        if k == 'reveal':
            kinds = []
            for j, card in enumerate(rq['snap']):
                sc = sel(card, rq['comps'])
                P = sc[1][0][1]
                for a in range(n):
                    if a in rq['shares']: D = rq['shares'][a][j][0]
                    elif a in retired: D = r255.pmul(retired[a], sc[1][0][0])
                    else: raise Fault('invalid', 'reveal lacks seat %d' % a)
                    P = r255.psub(P, D)
                kk = open_point(P)
                if kk is None: raise Fault('invalid', 'revealed point is no card')
                kinds.append(kk)
            more = rules.revealed(rq['slots'], kinds)
        elif k == 'peek':
            for j, s in enumerate(rq['slots']):
                v = rq['viewers'][j]; card = rq['snap'][j]; sc = sel(card, rq['comps'])
                recs = []
                for a in range(n):
                    if a == v: continue
                    if a in rq['shares']: recs.append(rq['shares'][a][j])
                    elif a in retired: recs.append(retired_rec(a, sc))
                    else: raise Fault('invalid', 'view lacks seat %d' % a)
                comps = tuple(rq['comps']) if rq['comps'] is not None else tuple(range(len(card[1])))
                lst = [x for x in views.get((s, v), []) if x['ct'] == card[0]]
                lst.append(dict(ct=card[0], comps=comps, shares=recs))
                views[(s, v)] = lst
            more = rules.peek_done(rq) if hasattr(rules, 'peek_done') else []
        elif k == 'others':
            o = rq['exc']
            for j, s in enumerate(rq['slots']):
                card = rq['snap'][j]
                for v in range(n):
                    if v == o: continue
                    recs = [rq['shares'][a][(j, v)] for a in range(n) if a != v]
                    lst = [x for x in views.get((s, v), []) if x['ct'] == card[0]]
                    lst.append(dict(ct=card[0], comps=tuple(range(len(card[1]))), shares=recs))
                    views[(s, v)] = lst
            more = rules.others_done(rq) if hasattr(rules, 'others_done') else []
        elif k == 'shuffle':
            more = rules.shuffle_done(rq) if hasattr(rules, 'shuffle_done') else []
        elif k == 'mix':
            T['mixes'][rq['power']] = (rq['targets'], rq['cards'])
        elif k == 'lookup':
            # protocol.md §5 plurality kill: the vote cards, in the voters' order
            T.setdefault('pcards', {})[rq['power']] = [rq['got'][a] for a in rq['authors'] if a in rq['got']]
        elif k == 'ptest':
            targets, mixed = T['mixes'][rq['power']]
            ident = [r255.is_ident(c[1][0][1]) for c in rq['cur']]
            if not rq['rows']:
                votes = [mixed[i] for i, z in enumerate(ident) if not z]
                if len(votes) != rq['k']: raise Fault('invalid', '%d votes among the code sums, want %d' % (len(votes), rq['k']))
                rows = sigma.kill_rows([(v[1][0], v[1][1]) for v in votes])
                T.setdefault('pcards', {})[rq['power']] = [sigma.card_from_points([key, pay]) for key, pay in rows]
            else:
                true = [i for i, z in enumerate(ident) if z]
                if len(true) != 1: raise Fault('invalid', '%d kill-table rows hold the identity' % len(true))
                T['mixes'][rq['power']] = (targets, [sigma.card_from_points([mixed[true[0]][1][1]])])
        elif k == 'test':
            # protocol.md §5: the card holds a vote exactly when the last step's B is not the identity
            more = rules.tested(not r255.is_ident(rq['cur'][1][0][1]))
        elif k == 'coin':
            Q = sigma.coin_point(gid, rq['a'])
            Ds = []
            for a in range(n):
                if a in rq['D']: Ds.append(rq['D'][a])
                elif a in retired: Ds.append(r255.pmul(retired[a], Q))
            more = rules.coin(sigma.coin_value(gid, rq['a'], Ds), rq['a'])
        elif k == 'retire':
            more = rules.retire_done(rq['seat']) if hasattr(rules, 'retire_done') else []
        elif k == 'actions':
            heads = []
            for j, (pk, pd) in enumerate(rq['parts']):
                if pk == 'ballot':
                    tg = pd['targets']; sums = [(r255.IDENT, r255.IDENT) for _ in tg]; each = {}
                    for a in rq['seats']:
                        if a not in rq['bodies']: continue      # retired before posting
                        ents = rq['bodies'][a][j]; each[a] = ents
                        sums = [(r255.padd(S[0], E[0]), r255.padd(S[1], E[1])) for S, E in zip(sums, ents)]
                    T['tallies'][pd['power']] = (list(tg), sums)
                    T.setdefault('ballots', {})[pd['power']] = each     # protocol.md §5: a tally by voters
                elif pk == 'check':
                    checkers = [a for a in rq['seats'] if a in rq['bodies']]
                    Qs = {a: rq['bodies'][a][j] for a in checkers}
                    heads.append(dict(kind='checkview', checkers=checkers, Q=Qs, authors=list(range(n)), shares={}))
                elif pk == 'tag':
                    T.setdefault('tags', []).append({a: rq['bodies'][a][j] for a in rq['bodies']})
            queue[0:0] = heads
            more = rules.actions_done(rq) if hasattr(rules, 'actions_done') else []
        elif k == 'checkview':
            more = []
        elif k == 'tally':
            facts = []
            for j, (s, (A, B)) in enumerate(rq['snap']):
                P = B
                for a in range(n):
                    if a in rq['shares']: D = rq['shares'][a][j][0]
                    elif a in retired: D = r255.pmul(retired[a], A)
                    else: raise Fault('invalid', 'tally lacks seat %d' % a)
                    P = r255.psub(P, D)
                if isinstance(s, tuple) and s[0] == 'pick':
                    # protocol.md §5: M = Σ c_i·3^i·G with Σ c_i = the codes added
                    _, targets, kc = s
                    cs = decode_codes(P, len(targets), kc)
                    if cs is None: raise Fault('invalid', 'a pick opens to no targets')
                    facts += list(zip(targets, cs))
                    continue
                c = None; acc = r255.IDENT
                for cc in range(65):
                    if r255.r_eq(P, acc): c = cc; break
                    acc = r255.padd(acc, r255.G)
                if c is None: raise Fault('invalid', 'a tally component is no count 0..64')
                facts.append((s, c))
            more = rules.tallied(facts)
        if not queue and hasattr(rules, 'peeks_done'): rules.peeks_done()
        push_effects(more or [])

    BODY = {'reveal': 4, 'peek': 4, 'others': 4, 'checkview': 4, 'tally': 4, 'shuffle': 6, 'coin': 7, 'retire': 5, 'actions': 8, 'mix': 9,
            'test': 10, 'ptest': 10, 'lookup': 11}
    def due():
        """(seat, body kind) or None"""
        ph = T['phase']
        if ph == 'commit': return (len(T['commits']), 1)
        if ph == 'reveal': return (len(T['reveals']), 2)
        if queue:
            rq = queue[0]
            return (pending(rq)[0], BODY[rq['kind']])
        if ph == 'play':
            if not rules.over():
                d = rules.due()
                if d is None: raise Fault('invalid', 'nothing due while the game goes on')
                return (d, 3)
            T['phase'] = ph = 'keys' if to['publish_keys'] else 'done'
        if ph == 'keys':
            left = [a for a in range(n) if a not in retired and a not in T['keyseats']]
            if left: return (left[0], 5)
            T['phase'] = 'done'
        return None
    T['keyseats'] = []

    def view_of(seat, slot, comp=0):
        """the latest view by seat of slot that opened component comp (protocol.md §5)"""
        for v in reversed(views.get((slot, seat), [])):
            if comp in v['comps']: return v
        return None

    def check_statement(pos, seat, i, eff, stmt):
        _, slot, tag, S, prover = eff[:5]
        comp = eff[5] if len(eff) > 5 else 0
        if prover != seat: raise Fault('invalid', 'statement prover is not the mover')
        v = view_of(seat, slot, comp)
        if v is None: raise Fault('not-viewed', 'slot %d' % slot)
        if slots[slot][0] != v['ct']: raise Fault('stale-view', 'slot %d' % slot)
        ptag, k, proof = stmt
        if ptag != tag or k != len(S): raise Fault('bad-statement', 'tag/k')
        cpos = (pos << 8) | 0x80 | i
        card = sel(slots[slot], v['comps']); ci = v['comps'].index(comp)
        sh_pts = [(r[2], r[3]) for r in v['shares']]; sh_raw = [(r[0], r[1]) for r in v['shares']]
        if tag == 1:
            ok = sigma.verify_viewed_holding(gid, cpos, seat, card, ci, sh_pts, S, Xs[seat], Ys[seat], proof)
        else:
            ok = all(sigma.verify_not_held(gid, cpos, seat, Xb[seat], Yb[seat], card, ci, sh_raw, m, proof[224 * j:224 * j + 224])
                     for j, m in enumerate(S))
        if not ok: raise Fault('bad-statement')

    def check_actions(pos, seat, rq, parts):
        """protocol.md §5: one actions body of the request at the head"""
        if len(parts) != len(rq['parts']): raise Fault('action-count', '%d parts for %d' % (len(parts), len(rq['parts'])))
        out = []
        for j, ((pk, pd), part) in enumerate(zip(rq['parts'], parts)):
            cpos = (pos << 8) | j
            if pk == 'tag':
                if len(part) != 32: raise Fault('bad-tag')
                out.append(part); continue
            slot = pd['slot'](seat)
            v = view_of(seat, slot, 0)
            if v is None: raise Fault('not-viewed', 'slot %d' % slot)
            if slots[slot][0] != v['ct']: raise Fault('stale-view', 'slot %d' % slot)
            card = sel(slots[slot], v['comps']); ci = v['comps'].index(0)
            sh_pts = [(r[2], r[3]) for r in v['shares']]; sh_raw = [(r[0], r[1]) for r in v['shares']]
            if pk == 'ballot':
                ents = sigma.verify_power_ballot(gid, cpos, seat, Hb, Hj, pd['power'], pd['roles'], pd['holders'],
                                                 pd['targets'], pd['self_allowed'], Xb[seat], Yb[seat], Xs[seat], Ys[seat],
                                                 card, ci, sh_raw, sh_pts, part)
                if ents is None: raise Fault('bad-ballot', 'part %d' % j)
                out.append(ents)
            elif pk == 'check':
                tcards = [slots[pd['tslot'](t)] for t in pd['targets']]
                Q = sigma.verify_check(gid, cpos, seat, Hb, Hj, pd['holders'], pd['mandatory'], pd['roles'],
                                       Xb[seat], Yb[seat], Xs[seat], Ys[seat], card, ci, sh_raw, sh_pts,
                                       pd['targets'], tcards, pd['tcomp'], pd['neutral'], part)
                if Q is None and pd.get('alt_tcomp') is not None and sigma.verify_check(
                        gid, cpos, seat, Hb, Hj, pd['holders'], pd['mandatory'], pd['roles'],
                        Xb[seat], Yb[seat], Xs[seat], Ys[seat], card, ci, sh_raw, sh_pts,
                        pd['targets'], tcards, pd['alt_tcomp'], pd['neutral'], part) is not None:
                    raise mafia.Unimplemented(pd['alt_why'])
                if Q is None: raise Fault('bad-check', 'part %d' % j)
                out.append(sigma.card_from_points([Q]))
            else: raise Fault('invalid', 'unknown part %r' % pk)
        return out

    Unimpl = ()
    if game == 'grimm':
        import grimm
        Unimpl = (grimm.Unimplemented,)
    elif game == 'mafia':
        Unimpl = (mafia.Unimplemented,)

    def undetermined(idx, why):
        # the rules could not be replayed further from the documents: check what needs no rules
        res['exit'] = 4; res['verdict'] = 'undetermined'
        res['detail'] = 'rules not replayed from entry %d: %s' % (idx, why)
        unchecked = {}
        run_a = None; D = []; prev_seat = -1
        while idx > 0 and entries[idx - 1]['body'][:1] == b'\x07' and entries[idx]['body'][:1] == b'\x07': idx -= 1
        for j in range(idx, len(entries)):
            ej = entries[j]; sj = ej['seat']
            msg = (b"masque/v1/entry-sig" + gid + struct.pack('>QB', ej['pos'], sj) + ej['prev'] +
                   struct.pack('>I', len(ej['body'])) + ej['body'])
            if sj >= n or not r255.ed_verify(seats[sj]['sign'], msg, ej['sig']) or ej['pos'] != j:
                res['detail'] += '; entry %d fails its signature or position' % j; return res
            if j > 0 and ej['prev'] != H(b"masque/v1/entry" + entries[j - 1]['raw']):
                res['detail'] += '; entry %d breaks the chain' % j; return res
            try: bj = decode_body(ej['body'], W, SW)
            except (EncodingError, Damaged, struct.error) as ex:
                res['detail'] += '; entry %d malformed: %s' % (j, ex); return res
            if bj['kind'] == 7:
                if run_a is None or sj <= prev_seat: run_a = j; D = []
                prev_seat = sj
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
            body = decode_body(e['body'], W, SW)
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
                if queue:       # a retirement (protocol.md §5)
                    retired[seat] = x
                    res.setdefault('retired', []).append(seat)
                    complete_head(pos)
                    settle(pos)
                else:
                    T['keys'].append(x); T['keyseats'].append(seat)
            elif k == 4:
                rq = queue[0]; kind = rq['kind']
                if kind == 'reveal':
                    if body['enc'] or len(body['pub']) != len(rq['slots']): raise Fault('share-count')
                    Ds = []
                    for j, sh in enumerate(body['pub']):
                        ok, D = sigma.verify_share(gid, pos, seat, Xb[seat], sel(rq['snap'][j], rq['comps']), sh)
                        if not ok: raise Fault('bad-share', 'slot %d' % rq['slots'][j])
                        Ds.append(D)
                    rq['shares'][seat] = Ds
                elif kind == 'tally':
                    if body['enc'] or len(body['pub']) != len(rq['snap']): raise Fault('share-count')
                    Ds = []
                    for j, sh in enumerate(body['pub']):
                        ok, D = sigma.verify_share(gid, pos, seat, Xb[seat], sigma.card_from_points([rq['snap'][j][1]]), sh)
                        if not ok: raise Fault('bad-share', 'tally component %d' % j)
                        Ds.append(D)
                    rq['shares'][seat] = Ds
                else:
                    if kind == 'peek':
                        want = [(j, v) for j, v in enumerate(rq['viewers']) if v != seat]
                        cards = [sel(c, rq['comps']) for c in rq['snap']]
                        ykey = lambda j, v: Yb[v]
                    elif kind == 'checkview':
                        want = [(j, v) for j, v in enumerate(rq['checkers']) if v != seat]
                        cards = [rq['Q'][v] for v in rq['checkers']]
                    else:
                        want = [(j, v) for j in range(len(rq['slots'])) for v in range(n) if v != rq['exc'] and v != seat]
                        cards = rq['snap']
                    if body['pub'] or len(body['enc']) != len(want): raise Fault('share-count')
                    got = {}
                    for es, (j, v) in zip(body['enc'], want):
                        ok, _ = sigma.verify_enc_share(gid, pos, seat, Xb[seat], Yb[v], cards[j], es)
                        if not ok:
                            raise Fault('bad-share', 'part %d recipient %d' % (j, v))
                        got[(j, v)] = share_rec(es)
                    if kind == 'peek':
                        rq['shares'][seat] = {j: got[(j, v)] for (j, v) in want}
                    else:
                        rq['shares'][seat] = got
                rq['started'] = True
                if not pending(rq): complete_head(pos)
                settle(pos)
            elif k == 10:
                rq = queue[0]
                if rq['kind'] == 'ptest':
                    # protocol.md §5 plurality kill: one step per tested card, in order, under the entry's context
                    if len(body['blinds']) != len(rq['cur']): raise Fault('bad-blind', 'step count')
                    outs = []
                    for i, (c, st) in enumerate(zip(rq['cur'], body['blinds'])):
                        out = sigma.verify_blind_step(gid, pos, seat, Xb[seat], c, st)
                        if out is None: raise Fault('bad-blind', 'step %d' % i)
                        outs.append(out)
                    rq['cur'] = outs; rq['next'] = seat + 1
                    settle(pos)
                else:
                    if len(body['blinds']) != 1: raise Fault('bad-blind', 'step count')
                    out = sigma.verify_blind_step(gid, pos, seat, Xb[seat], rq['cur'], body['blinds'][0])
                    if out is None: raise Fault('bad-blind', 'test of card %d' % rq['k'])
                    rq['cur'] = out; rq['next'] = seat + 1
                    settle(pos)
            elif k == 11:
                rq = queue[0]
                ln, lb = body['lookup']
                p = rq['power']
                ents = T.get('ballots', {}).get(p, {}).get(seat)
                if ents is None or ln != len(ents): raise Fault('bad-lookup', 'target count')
                Wl = sigma.verify_count_lookup(gid, pos, seat, Hb, Hj, ents, T['tallies'][p][1], lb)
                if Wl is None: raise Fault('bad-lookup')
                rq['got'][seat] = sigma.card_from_points([sigma.code_sum(ents), Wl])
                if not pending(rq): complete_head(pos)
                settle(pos)
            elif k == 9:
                rq = queue[0]
                incards = rq['cards']
                if len(body['cards']) != len(incards): raise Fault('bad-shuffle', 'pair count')
                if not sigma.verify_shuffle(gid, pos, seat, Hb, Hj, incards, body['cards'], body['proof']):
                    raise Fault('bad-shuffle')
                rq['cards'] = list(body['cards'])
                rq['done'].add(seat)
                if not pending(rq):
                    complete_head(pos)
                settle(pos)
            elif k == 6:
                rq = queue[0]
                incards = [slots[s] for s in rq['slots']]
                if len(body['cards']) != len(incards): raise Fault('bad-shuffle', 'deck size')
                if not sigma.verify_shuffle(gid, pos, seat, Hb, Hj, incards, body['cards'], body['proof']):
                    raise Fault('bad-shuffle')
                for s, c in zip(rq['slots'], body['cards']): slots[s] = c
                rq['done'].add(seat)
                if not pending(rq):
                    complete_head(pos)
                settle(pos)
            elif k == 7:
                rq = queue[0]
                if rq['a'] is None: rq['a'] = pos
                Q = sigma.coin_point(gid, rq['a'])
                ok, D = sigma.verify_coin_share(gid, pos, seat, Xb[seat], Q, body['cs'])
                if not ok: raise Fault('bad-share', 'coin share')
                rq['D'][seat] = D
                if not pending(rq): complete_head(pos)
                settle(pos)
            elif k == 8:
                rq = queue[0]
                rq['bodies'][seat] = check_actions(pos, seat, rq, body['parts'])
                if not pending(rq): complete_head(pos)
                settle(pos)
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
    res['keys_published'] = len(T['keys']) + len(retired) == n
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
