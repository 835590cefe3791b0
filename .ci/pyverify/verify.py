#!/usr/bin/env python3
"""Independent verifier for masque transcripts (docs/protocol.md, mental/SPEC.md).
Pure Python 3, standard library only.  Usage: verify.py FILE [--json]
"""
import sys, json, struct, hashlib
sys.path.insert(0, __import__('os').path.dirname(__file__))
import r255, ts, sigma, coins
from rules import Rules, RuleFault
from fmt import H, R as Rd, Damaged, parse_file, parse_roster, parse_entry

# ---------------------------------------------------------------- helpers
def h2e(label, i):
    if isinstance(label, str): label = label.encode()
    return r255.from_uniform(hashlib.sha512(b"masque/mental/v1/hash-to-group" +
        struct.pack('>I', len(label)) + label + struct.pack('>Q', i)).digest())
_card_cache = {}
def M(k):
    if k not in _card_cache: _card_cache[k] = h2e("card", k)
    return _card_cache[k]

class Fault(Exception):
    def __init__(self, reason, detail=""):
        self.reason = reason; self.detail = detail

def u32s(vals): return b''.join(struct.pack('>I', v) for v in vals)

# ---------------------------------------------------------------- key proofs (SPEC §2.4, §3.4)
def schnorr_key_ok(label, table32, seat, identity, key96):
    X = r255.r_decode(key96[:32])
    t, f = sigma.key_statement(label, table32, seat, identity, key96[:32], X)
    return sigma.verify(t, f, key96[32:]), X

# ---------------------------------------------------------------- body decoding (protocol.md §4)
def dpoint(r): return r255.r_decode(r.take(32))
def dscalar(r): return r255.scalar_decode(r.take(32))
def dcard(r):
    w = r.u8()
    if not 1 <= w <= 3: raise r255.EncodingError("width")
    comps = []
    raw = bytearray([w])
    for _ in range(w):
        a = r.take(32); b = r.take(32); raw += a + b
        comps.append((r255.r_decode(a), r255.r_decode(b)))
    return dict(w=w, comps=comps, raw=bytes(raw))

def decode_body(b):
    if not b: raise r255.EncodingError("empty")
    r = Rd(b); kind = r.u8(); out = dict(kind=kind)
    if kind in (1, 2):
        out['v'] = r.take(32)
    elif kind == 5:
        out['raw'] = r.take(32)   # any 32 bytes decode; protocol.md §4, §5.5
    elif kind == 3:
        out['mk'] = r.u8(); n = r.u8()
        if n > 16: raise r255.EncodingError("args")
        out['args'] = list(struct.unpack('>%di' % n, r.take(4 * n)))
        ns = r.u8()
        if ns > 4: raise r255.EncodingError("swaps")
        sw = []
        for _ in range(ns):
            o0 = dcard(r); o1 = dcard(r)
            if o0['w'] != 1 or o1['w'] != 1: raise r255.EncodingError("card width, want 1")
            pr = r.take(224); pr_r = Rd(pr)
            proof = dict(c0=dscalar(pr_r), R=[dpoint(pr_r) for _ in range(4)], s=[dscalar(pr_r) for _ in range(2)], raw=pr)
            sw.append((o0, o1, proof))
        out['swaps'] = sw
    elif kind == 4:
        p = r.u8(); pub = []
        for _ in range(p):
            sb = r.bu16(); sr = Rd(sb); w = sr.u8()
            if not 1 <= w <= 3: raise r255.EncodingError("width")
            Ds = [sr.take(32) for _ in range(w)]; Dp = [r255.r_decode(x) for x in Ds]
            Rs = [dpoint(sr) for _ in range(w + 1)]; s = dscalar(sr)
            if not sr.done(): raise r255.EncodingError("share trailing")
            pub.append(dict(w=w, D=Dp, Draw=Ds, R=Rs, s=s, raw=sb, proof=sb[1 + 32 * w:]))
        q = r.u8(); enc = []
        for _ in range(q):
            sb = r.bu16(); sr = Rd(sb); w = sr.u8()
            if not 1 <= w <= 3: raise r255.EncodingError("width")
            Eraw = [(sr.take(32), sr.take(32)) for _ in range(w)]
            E = [(r255.r_decode(a), r255.r_decode(b)) for a, b in Eraw]
            Rs = [dpoint(sr) for _ in range(1 + 2 * w)]; s = [dscalar(sr) for _ in range(1 + w)]
            if not sr.done(): raise r255.EncodingError("enc share trailing")
            enc.append(dict(w=w, E=E, E1raw=[a for a, _ in Eraw], E2raw=[b for _, b in Eraw], R=Rs, s=s, raw=sb,
                            proof=sb[1 + 64 * w:]))
        if p + q > 256: raise r255.EncodingError("too many shares")
        out['pub'] = pub; out['enc'] = enc
    elif kind == 6:
        n = r.u8()
        if not 1 <= n <= 64: raise r255.EncodingError("n")
        cards = [dcard(r) for _ in range(n)]
        if any(c['w'] != 1 for c in cards): raise r255.EncodingError("card width, want 1")
        w = 1
        pr = r.take(32 * (5 * n + 6 + 3 * w))
        out['cards'] = cards; out['proof'] = pr
    elif kind == 7:
        out['D'] = dpoint(r); out['R'] = [dpoint(r) for _ in range(2)]; out['s'] = dscalar(r)
    else:
        raise r255.EncodingError("unknown kind")
    if not r.done(): raise r255.EncodingError("trailing bytes")
    return out

# ---------------------------------------------------------------- games (rules as far as implemented)
def parse_game_options(game, b):
    if game not in SUPPORTED_GAMES: raise ValueError("unsupported game %r" % game)
    r = Rd(b); o = {}
    o['version'] = r.u8(); n = r.u8()
    o['names'] = [r.bu8().decode() for _ in range(n)]
    o['coins'] = r.u8()
    if game == 'mascarade': o['center'] = r.u8()
    k = r.u8(); o['set'] = list(r.take(k))
    if not r.done(): raise ValueError("game options trailing")
    if game == 'mascarade2': o['center'] = k - n
    return o

# ---------------------------------------------------------------- the verifier
class Verdict(Exception):
    def __init__(self, exit, fault=None): self.exit = exit; self.fault = fault

def verify(data, trial=None):
    UNCHECKED.clear()
    res = dict(valid=False, game=None, entries=0, complete=False, keys_published=False, fault=None)
    notes = []
    try:
        roster, rsigs, entries = parse_file(data)
        ro = parse_roster(roster)
    except Exception as e:
        res['exit'] = 3; res['detail'] = 'does not decode: %r' % e; return res
    res['game'] = ro['game']; res['entries'] = len(entries)
    res['deal_source'] = 'fixed' if ro['fixed'] is not None else 'coins'
    n = len(ro['seats'])
    gid = H(b"masque/v1/roster" + roster)
    if len(rsigs) != n:
        res['exit'] = 3; res['detail'] = 'signature count'; res['entries'] = 0; return res
    for i, s in enumerate(ro['seats']):
        if not r255.ed_verify(s['sign'], b"masque/v1/roster-sig" + gid, rsigs[i]):
            res['exit'] = 3; res['detail'] = 'roster signature %d' % i; res['entries'] = 0; return res
    # roster checks (exit 1 without a fault)
    def refuse(why, seat=None):
        # protocol.md §6 (as of commit a51884a): a roster every seat signed whose keys fail for one
        # seat is a fault bad-seat-keys, position 0, roster: true, blaming that seat.
        res['exit'] = 1; res['detail'] = 'roster refused: ' + why
        if seat is not None:
            res['fault'] = dict(position=0, seat=seat, reason='bad-seat-keys', roster=True)
        return res
    table32 = ro['table_id'] + b'\0' * 16
    Xs, Ys = [], []
    # protocol.md §2.3, step 1: each seat's keys decode and prove
    for i, s in enumerate(ro['seats']):
        try:
            if len(s['keys']) != 192: return refuse('keys of seat %d are not 192 bytes' % i, i)
            ok, X = schnorr_key_ok(b"masque/key-pok/v1", table32, i, s['peer'], s['card_key'])
            if not ok: return refuse('card key proof of seat %d' % i, i)
            ok, Y = schnorr_key_ok(b"masque/view-key-pok/v1", table32, i, s['peer'], s['view_key'])
            if not ok: return refuse('view key proof of seat %d' % i, i)
        except r255.EncodingError as e:
            return refuse('key encoding %s' % e, i)
        if r255.is_ident(X) or r255.is_ident(Y): return refuse('identity key', i)
        if r255.r_eq(X, Y): return refuse('viewing key is the card key', i)
        Xs.append(X); Ys.append(Y)
    xenc = [s['card_key'][:32] for s in ro['seats']]; yenc = [s['view_key'][:32] for s in ro['seats']]
    # step 2: viewing key clashes, blaming seat i
    for i in range(n):
        if yenc[i] in xenc or yenc[i] in yenc[:i]: return refuse('viewing key clash', i)
    # step 3: no single seat to blame
    if len(set(xenc)) != n: return refuse('two seats share a card key')
    Hj = r255.IDENT
    for X in Xs: Hj = r255.padd(Hj, X)
    if r255.is_ident(Hj): return refuse('joint key identity')
    Hjb = r255.r_encode(Hj)
    try:
        gopts = parse_game_options(ro['game'], ro['game_options'])
    except Exception as e:
        return refuse('game options %r' % e)
    rules = Rules(ro['game'], gopts, n)
    RULES_ED2[0] = rules.ed2

    # phases
    st = dict(phase='commit' if ro['fixed'] is None else 'play', i=0, commits=[], reveals=[])
    if ro['fixed'] is not None:
        slots = {i: [(r255.IDENT, M(k))] for i, k in enumerate(ro['fixed'])}
        slot_known = {i: k for i, k in enumerate(ro['fixed'])}
    else:
        slots = None; slot_known = {}
    requests = []    # pending: dict(kind, slots, who, owed=[seats], cards)
    keys_done = []
    prev = gid
    res['fault'] = None

    def due_seat():
        if st['phase'] in ('commit', 'reveal'): return st['i']
        if requests: return requests[0]['owed'][0]
        if st['phase'] == 'play':
            if rules.state == 'over': st['phase'] = 'keys' if ro['publish_keys'] else 'done'
            else: return rules.due()
        if st['phase'] == 'keys':
            if len(keys_done) == n: st['phase'] = 'done'
            else: return len(keys_done)
        return None

    for idx, eb in enumerate(entries):
        try:
            e = parse_entry(eb)
        except Damaged as ex:
            res['exit'] = 3; res['detail'] = 'entry %d: %s' % (idx, ex); return res
        pos, seat = e['pos'], e['seat']
        def fault(reason, blame=seat, exit=1, detail=''):
            res['fault'] = dict(position=pos, seat=blame, reason=reason)
            res['exit'] = exit; res['detail'] = detail
            return res
        if seat >= n or seat >= 16: return fault('unknown-seat', exit=3)
        msg = (b"masque/v1/entry-sig" + gid + struct.pack('>QB', pos, seat) + e['prev'] +
               struct.pack('>I', len(e['body'])) + e['body'])
        if not r255.ed_verify(ro['seats'][seat]['sign'], msg, e['sig']):
            for j, s in enumerate(ro['seats']):
                if j != seat and r255.ed_verify(s['sign'], msg, e['sig']):
                    return fault('signed-by-another-seat', blame=j)
            return fault('bad-signature', exit=3)
        if pos != idx: return fault('wrong-position')
        if e['prev'] != prev: return fault('wrong-previous-hash')
        d = due_seat()
        if d is None: return fault('log-closed')
        if seat != d: return fault('not-your-turn', detail='seat %d is due' % d)
        try:
            body = decode_body(e['body'])
        except (r255.EncodingError, Damaged, struct.error) as ex:
            return fault('malformed-body', detail=str(ex))
        k = body['kind']
        try:
            if st['phase'] == 'commit':
                if k != 1: raise Fault('wrong-body-kind')
                st['commits'].append(body['v']); st['i'] += 1
                if st['i'] == n: st['phase'] = 'reveal'; st['i'] = 0
            elif st['phase'] == 'reveal':
                if k != 2: raise Fault('wrong-body-kind')
                if coins.commitment(gid, seat, b"masque/deal/v1", body['v']) != st['commits'][seat]:
                    raise Fault('coin-mismatch')
                st['reveals'].append(body['v']); st['i'] += 1
                if st['i'] == n:
                    st['phase'] = 'play'
                    # protocol.md §5.1: slot i gets deck[perm[i]], the deck being the options' set
                    seed = coins.seed(gid, b"masque/deal/v1", st['reveals'])
                    perm = coins.permutation(seed, "masque/deal/v1", len(gopts['set']))
                    deal = [gopts['set'][j] for j in perm]
                    res['deal'] = deal
                    slots = {i: [(r255.IDENT, M(k))] for i, k in enumerate(deal)}
                    slot_known = {i: k for i, k in enumerate(deal)}
            elif requests:
                if k != 4: raise Fault('wrong-body-kind')
                check_shares(requests[0], seat, pos, body, ro, Xs, Ys, gid, slots, notes, trial)
                rq = requests[0]; rq['owed'].pop(0)
                if not rq['owed']:
                    requests.pop(0)
                    if rq['kind'] == 'reveal':
                        kinds = open_reveal(rq, slot_known, notes)
                        rules.learn(kinds)
            elif st['phase'] == 'play':
                if k != 3: raise Fault('wrong-body-kind')
                swaps, reqs = rules.move(seat, body['mk'], body['args'])
                if len(swaps) != len(body['swaps']): raise Fault('swap-count')
                for i, ((a, b), (o0, o1, proof)) in enumerate(zip(swaps, body['swaps'])):
                    check_swap(slots, a, b, o0, o1, proof, Hj, Hjb, gid, (pos << 8) | i, seat, notes, trial)
                    if slots is not None:
                        slots[a] = o0; slots[b] = o1
                    slot_known.pop(a, None); slot_known.pop(b, None)
                for kind_, sl, who in reqs:
                    if kind_ == 'reveal': owed = list(range(n))
                    elif kind_ == 'peek': owed = [j for j in range(n) if j != who]
                    else: owed = list(range(n))   # see report: the owner posts too
                    cards = [slots[s] if slots is not None and s in slots else None for s in sl]
                    requests.append(dict(kind=kind_, slots=sl, who=who, owed=owed, cards=cards, shares=[]))
            elif st['phase'] == 'keys':
                if k != 5: raise Fault('wrong-body-kind')
                x = int.from_bytes(body['raw'], 'little')
                if x == 0 or x >= r255.L or not r255.r_eq(r255.pmul(x, r255.G), Xs[seat]):
                    raise Fault('key-mismatch')
                keys_done.append(x)
        except (Fault, RuleFault) as f:
            return fault(f.reason, detail=f.detail)
        prev = H(b"masque/v1/entry" + eb)
    due_seat()
    res['valid'] = True; res['exit'] = 0
    res['complete'] = st['phase'] == 'done'
    res['keys_published'] = len(keys_done) == n
    res['notes'] = sorted(set(notes) | UNCHECKED); UNCHECKED.clear()
    if st['phase'] not in ('commit', 'reveal'):   # no rules before the deal
      res['final'] = dict(coins={ro['seats'][i]['name']: rules.coins[i] for i in range(n)},
                        winners=[ro['seats'][i]['name'] for i in (rules.winners or [])], over=rules.state == 'over')
    return res

def open_reveal(rq, slot_known, notes):
    """B - sum D for each slot (public reveal), mapped back to a card kind"""
    kinds = []
    for j, (s, card) in enumerate(zip(rq['slots'], rq['cards'])):
        if card is None:
            kinds.append(slot_known.get(s)); continue
        A, B = card['comps'][0] if isinstance(card, dict) else card[0]
        P = B
        for sh in rq['shares']:
            P = r255.psub(P, sh[j]['D'][0])
        k = None
        for cand in range(0, 17 if RULES_ED2[0] else 13):
            if r255.r_eq(P, M(cand)): k = cand; break
        if k is None: raise Fault('invalid', 'revealed point is no card')
        kinds.append(k)
    return kinds

def card_comps(card):
    return card['comps'] if isinstance(card, dict) else card
def card_raw(card):
    if isinstance(card, dict): return card['raw']
    out = bytes([len(card)])
    for A, B in card: out += r255.r_encode(A) + r255.r_encode(B)
    return out

def check_shares(rq, seat, pos, body, ro, Xs, Ys, gid, slots, notes, trial):
    n = len(Xs)
    if rq['kind'] == 'reveal':
        if body['enc'] or len(body['pub']) != len(rq['slots']): raise Fault('share-count')
        rq['shares'].append(body['pub'])
        for j, sh in enumerate(body['pub']):
            card = rq['cards'][j]
            if card is None: notes.append('share proofs over unknown (coin-dealt, untouched) slots not checked'); continue
            if not share_ok(sh, card, Xs[seat], ro['seats'][seat]['card_key'][:32], gid, pos, seat, trial):
                raise Fault('bad-share')
    else:
        if rq['kind'] == 'peek': recips = [rq['who']]
        else: recips = [r for r in range(n) if r != rq['who'] and r != seat]
        if body['pub'] or len(body['enc']) != len(rq['slots']) * len(recips): raise Fault('share-count')
        i = 0
        for j in range(len(rq['slots'])):
            for rcp in recips:
                es = body['enc'][i]; i += 1
                card = rq['cards'][j]
                if card is None: notes.append('encrypted shares over unknown slots not checked'); continue
                if not enc_share_ok(es, card, seat, rcp, ro, Xs, Ys, gid, pos, trial):
                    raise Fault('bad-share')

UNCHECKED = set()
RULES_ED2 = [False]
# games whose rules this verifier implements (protocol.md §4.2, the rules docs)
SUPPORTED_GAMES = ('mascarade', 'mascarade2')

def share_ok(sh, card, X, Xb, gid, pos, seat, trial):
    comps = card_comps(card)
    if len(sh['D']) != len(comps): return False
    t, f = sigma.share_statement((gid, pos, seat), Xb, X, card_raw(card), comps, sh['Draw'], sh['D'])
    return sigma.verify(t, f, sh['proof'])

def enc_share_ok(es, card, seat, rcp, ro, Xs, Ys, gid, pos, trial):
    comps = card_comps(card)
    if es['w'] != len(comps): return False
    t, f = sigma.enc_share_statement((gid, pos, seat), ro['seats'][seat]['card_key'][:32], Xs[seat],
                                     ro['seats'][rcp]['view_key'][:32], Ys[rcp], card_raw(card), comps,
                                     es['E1raw'], es['E2raw'], [e[0] for e in es['E']], [e[1] for e in es['E']])
    return sigma.verify(t, f, es['proof'])

def check_swap(slots, a, b, o0, o1, proof, Hj, Hjb, gid, cpos, seat, notes, trial):
    c0, c1 = slots[a], slots[b]
    cards = [(card_raw(c), card_comps(c)) for c in (c0, c1, o0, o1)]
    if len({len(c[1]) for c in cards}) != 1: raise Fault('bad-swap-proof', 'widths')
    t, f = sigma.swap_statement((gid, cpos, seat), Hjb, Hj, *cards)
    if not sigma.verify(t, f, proof['raw']):
        raise Fault('bad-swap-proof')

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    data = open(args[0], 'rb').read()
    res = verify(data)
    print(json.dumps(res, indent=1))
    sys.exit(res['exit'])

if __name__ == '__main__':
    main()
