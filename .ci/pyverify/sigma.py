# The sigma-protocol engine of SPEC §2.2 / §4 and every built-in proof of SPEC §2.4, §3.10-3.12, §5.
# Pure Python, written from mental/SPEC.md and docs/protocol.md only.
import hashlib, struct
import r255
from r255 import G, padd, psub, pneg, pmul, r_encode, r_decode, scalar_decode, IDENT, L
import ts

def u32(v): return struct.pack('>I', v)
def u64(v): return struct.pack('>Q', v)
def enc(P): return r_encode(P)

def h2e(label, i):
    if isinstance(label, str): label = label.encode()
    return r255.from_uniform(hashlib.sha512(b"masque/mental/v1/hash-to-group" + u32(len(label)) + label + u64(i)).digest())
_cache = {}
def M(k):
    if ('card', k) not in _cache: _cache[('card', k)] = h2e("card", k)
    return _cache[('card', k)]
def shuffle_gen(i):
    if ('sg', i) not in _cache: _cache[('sg', i)] = h2e("shuffle-generator", i)
    return _cache[('sg', i)]

class ProofError(Exception): pass

# ---- formulas: ('leaf', nwit, [ (secret [(widx, B)], public [(coef|None, Q)]) ]), ('and', [..]), ('or', [..])
def shape(f):
    if f[0] == 'leaf':
        out = b'\x01' + u32(f[1]) + u32(len(f[2]))
        for sec, pub in f[2]:
            out += u32(len(sec)) + b''.join(u32(w) for w, _ in sec) + u32(len(pub))
        return out
    op = b'\x02' if f[0] == 'and' else b'\x03'
    return op + u32(len(f[1])) + b''.join(shape(c) for c in f[1])

def formula_points(f):
    if f[0] == 'leaf':
        out = b''
        for sec, pub in f[2]:
            for _, B in sec: out += enc(B)
            for coef, Q in pub:
                out += (b'\x00' + enc(Q)) if coef is None else (b'\x01' + (coef % L).to_bytes(32, 'little') + enc(Q))
        return out
    return b''.join(formula_points(c) for c in f[1])

def counts(f):
    """(#OR challenges carried, #commitments, #responses)"""
    if f[0] == 'leaf': return (0, len(f[2]), f[1])
    a = [counts(c) for c in f[1]]
    oc = sum(x[0] for x in a) + (len(f[1]) - 1 if f[0] == 'or' else 0)
    return (oc, sum(x[1] for x in a), sum(x[2] for x in a))

def proof_size(f): return 32 * sum(counts(f))

def _split(f, raw):
    oc, nc, nr = counts(f)
    if len(raw) != 32 * (oc + nc + nr): raise ProofError("proof length")
    ch = [scalar_decode(raw[32 * i:32 * i + 32]) for i in range(oc)]
    cm_raw = raw[32 * oc:32 * (oc + nc)]
    cm = [r_decode(cm_raw[32 * i:32 * i + 32]) for i in range(nc)]
    rs = [scalar_decode(raw[32 * (oc + nc + i):32 * (oc + nc + i) + 32]) for i in range(nr)]
    return ch, cm_raw, cm, rs

def eq_holds(sec, pub, s_of, R, e):
    # sum s_w * B == R + e * sum coef*Q, checked as one multi-scalar multiplication:
    # sum s_w * B + sum (-e*coef) * Q == R
    terms = [(s_of[w], B) for w, B in sec]
    for coef, Q in pub: terms.append(((-e * (1 if coef is None else coef)) % L, Q))
    return r255.r_eq(r255.msm(terms), R)

def verify_formula(t, f, raw, composition=False):
    """t: a transcript with dom-sep, protocol, context and statement items already absorbed."""
    ch, cm_raw, cm, rs = _split(f, raw)
    if composition: t.add('formula-points', formula_points(f))
    t.add('formula-shape', shape(f))
    t.u64('commitments/n', len(cm)); t.add('commitments', cm_raw)
    c = t.challenge()
    # assign challenges: OR children's challenges in depth-first pre-order
    it_ch = iter(ch); it_cm = iter(cm); it_rs = iter(rs)
    leaves = []
    # pre-order: an OR node's challenges come before those of nested ORs: collect first
    def walk_pre(node, e):
        if node[0] == 'leaf': leaves.append((node, e)); return
        if node[0] == 'and':
            for cnode in node[1]: walk_pre(cnode, e)
            return
        es = [next(it_ch) for _ in range(len(node[1]) - 1)]
        es.append((e - sum(es)) % L)
        for cnode, ce in zip(node[1], es): walk_pre(cnode, ce)
    walk_pre(f, c)
    for node, e in leaves:
        Rs = [next(it_cm) for _ in node[2]]
        ss = [next(it_rs) for _ in range(node[1])]
        for (sec, pub), R in zip(node[2], Rs):
            if not eq_holds(sec, pub, ss, R, e): return False
    return True

# ---- card helpers: a card is (raw bytes, [(A,B), ...])
def card_from_raw(raw):
    w = raw[0]
    comps = [(r_decode(raw[1 + 64 * i:33 + 64 * i]), r_decode(raw[33 + 64 * i:65 + 64 * i])) for i in range(w)]
    return (raw, comps)
def card_from_points(comps):
    raw = bytes([len(comps)]) + b''.join(enc(A) + enc(B) for A, B in comps)
    return (raw, comps)
def faceup(k): return card_from_points([(IDENT, M(k))])

def ctx(label, table, pos, seat):
    return ts.T(label).ctx(table, pos, seat)

# ---- key proof (SPEC §2.4, §3.4)
def verify_key(label, table32, seat, identity, key96):
    X = r_decode(key96[:32])
    t = ctx(label, table32, 0, seat).add('identity', identity).add('X', key96[:32])
    f = ('leaf', 1, [([(0, G)], [(None, X)])])
    return verify_formula(t, f, key96[32:]), X

# ---- public share (SPEC §2.4, §3.6): share bytes = u8(w) ‖ D×w ‖ R×(w+1) ‖ s
def verify_share(gid, pos, seat, Xb, card, share):
    w = share[0]
    if len(share) != 1 + 32 * w + 32 * (w + 2): raise ProofError('share length')
    if w != len(card[1]): return False, None          # width mismatch: bad-share (protocol.md §4)
    Draw = [share[1 + 32 * i:33 + 32 * i] for i in range(w)]
    D = [r_decode(x) for x in Draw]
    X = r_decode(Xb)
    t = ctx(b"masque/share/v1", gid, pos, seat).add('X', Xb).add('card', card[0])
    t.u64('D/n', w)
    for x in Draw: t.add('D', x)
    f = ('leaf', 1, [([(0, G)], [(None, X)])] + [([(0, A)], [(None, Di)]) for (A, B), Di in zip(card[1], D)])
    return verify_formula(t, f, share[1 + 32 * w:]), D

# ---- encrypted share (SPEC §2.4, §3.7): u8(w) ‖ (E1‖E2)×w ‖ R×(1+2w) ‖ s×(1+w)
def verify_enc_share(gid, pos, seat, Xb, Yb, card, es):
    w = es[0]
    if len(es) != 1 + 64 * w + 32 * (2 + 3 * w): raise ProofError('enc share length')
    if w != len(card[1]): return False, None
    E1r = [es[1 + 64 * i:33 + 64 * i] for i in range(w)]
    E2r = [es[33 + 64 * i:65 + 64 * i] for i in range(w)]
    E1 = [r_decode(x) for x in E1r]; E2 = [r_decode(x) for x in E2r]
    X = r_decode(Xb); Y = r_decode(Yb)
    t = ctx(b"masque/enc-share/v1", gid, pos, seat).add('X', Xb).add('Y', Yb).add('card', card[0])
    t.u64('E1/n', w)
    for x in E1r: t.add('E1', x)
    t.u64('E2/n', w)
    for x in E2r: t.add('E2', x)
    eqs = [([(0, G)], [(None, X)])]
    for i, (A, B) in enumerate(card[1]):
        eqs.append(([(1 + i, G)], [(None, E1[i])]))
        eqs.append(([(0, A), (1 + i, Y)], [(None, E2[i])]))
    f = ('leaf', 1 + w, eqs)
    return verify_formula(t, f, es[1 + 64 * w:]), list(zip(E1, E2))

# ---- swap (SPEC §2.4, §3.5)
def swap_formula(Hj, c0, c1, o0, o1, z):
    w = len(c0[1])
    def P(f, g, comp):
        terms = []
        for i in range(w):
            terms += [(z[i], o0[1][i][comp]), ((-z[i]) % L, f[1][i][comp]),
                      (z[w + i], o1[1][i][comp]), ((-z[w + i]) % L, g[1][i][comp])]
        return terms
    def leaf(f, g): return ('leaf', 1, [([(0, G)], P(f, g, 0)), ([(0, Hj)], P(f, g, 1))])
    return ('or', [leaf(c0, c1), leaf(c1, c0)])

def verify_swap(gid, cpos, seat, Hb, Hj, c0, c1, o0, o1, proof):
    w = len(c0[1])
    if len(c1[1]) != w or len(o0[1]) != w or len(o1[1]) != w: return False
    t = ctx(b"masque/swap/v1", gid, cpos, seat).add('H', Hb)
    t.add('in0', c0[0]).add('in1', c1[0]).add('out0', o0[0]).add('out1', o1[0])
    z = [t.challenge(b"swap-z") for _ in range(2 * w)]
    return verify_formula(t, swap_formula(Hj, c0, c1, o0, o1, z), proof)

# ---- coin share (SPEC §2.4, §3.12)
def coin_point(gid, a):
    return r255.from_uniform(hashlib.sha512(b"masque/coin-point/v1" + gid + u64(a)).digest())
def verify_coin_share(gid, pos, seat, Xb, Q, body128):
    Db = body128[:32]; D = r_decode(Db); X = r_decode(Xb)
    t = ctx(b"masque/coin-share/v1", gid, pos, seat).add('X', Xb).add('Q', enc(Q)).add('D', Db)
    f = ('leaf', 1, [([(0, G)], [(None, X)]), ([(0, Q)], [(None, D)])])
    return verify_formula(t, f, body128[32:]), D
def coin_value(gid, a, Ds):
    S = IDENT
    for D in Ds: S = padd(S, D)
    return hashlib.sha512(b"masque/coin-value/v1" + gid + u64(a) + enc(S)).digest()[:32]

# ---- deal coins (SPEC §3.10)
def coin_commit(gid, seat, label, reveal):
    t = ctx(b"masque/coin-commit/v1", gid, seat, seat).add('label', label).add('reveal', reveal).add('challenge', 'commitment')
    return hashlib.sha512(bytes(t.buf)).digest()[:32]
def coin_seed(gid, label, reveals):
    t = ts.T(b"masque/coin-seed/v1").add('table', gid).add('label', label).u64('seats', len(reveals))
    for r in reveals: t.add('reveal', r)
    t.add('challenge', 'seed')
    return hashlib.sha512(bytes(t.buf)).digest()[:32]
class Stream:
    def __init__(self, seed, purpose):
        self.seed = seed; self.P = purpose; self.i = 0; self.buf = b''
    def next64(self):
        if not self.buf:
            self.buf = hashlib.sha512(u32(21) + b"masque/coin-stream/v1" + self.seed + u32(len(self.P)) + self.P + u64(self.i)).digest()
            self.i += 1
        v = int.from_bytes(self.buf[:8], 'big'); self.buf = self.buf[8:]; return v
    def intn(self, n):
        t = (1 << 64) % n
        while True:
            v = self.next64()
            if v >= t: return v % n
def coin_permutation(seed, purpose, n):
    s = Stream(seed, purpose); p = list(range(n))
    for i in range(n - 1, 0, -1):
        j = s.intn(i + 1); p[i], p[j] = p[j], p[i]
    return p

# ---- viewed holding (SPEC §2.4, §3.9) and not-held (§3.11)
def viewed_holding_formula(card, comp, shares, kinds, X, Y):
    A, B = card[1][comp]
    N = IDENT
    for E1, E2 in shares: N = padd(N, E1[comp])
    N = pneg(N)
    leaves = []
    for m in kinds:
        pub = [(None, B)] + [(L - 1, E2[comp]) for E1, E2 in shares] + [(L - 1, M(m))]
        leaves.append(('leaf', 2, [([(0, A), (1, N)], pub), ([(0, G)], [(None, X)]), ([(1, G)], [(None, Y)])]))
    return leaves[0] if len(leaves) == 1 else ('or', leaves)
def verify_viewed_holding(gid, cpos, seat, card, comp, shares, kinds, X, Y, proof):
    t = ctx(b"masque/viewed-holding/v1", gid, cpos, seat)
    f = viewed_holding_formula(card, comp, shares, kinds, X, Y)
    if len(proof) != proof_size(f): return False
    return verify_formula(t, f, proof, composition=True)

def verify_not_held(gid, cpos, seat, Xb, Yb, card, comp, shares_raw, kind, proof):
    """shares_raw: list of ([E1 bytes per comp], [E2 bytes per comp])"""
    Tb = proof[:32]; T = r_decode(Tb)
    if r255.is_ident(T): return False
    X = r_decode(Xb); Y = r_decode(Yb)
    t = ctx(b"masque/not-held/v1", gid, cpos, seat).add('X', Xb).add('Y', Yb).add('card', card[0])
    t.u64('component', comp).u64('kind', kind).u64('shares/n', len(shares_raw))
    for e1s, e2s in shares_raw:
        t.u64('E1/n', len(e1s))
        for x in e1s: t.add('E1', x)
        t.u64('E2/n', len(e2s))
        for x in e2s: t.add('E2', x)
    t.add('T', Tb)
    A, B = card[1][comp]
    C = psub(B, M(kind)); E = IDENT
    for e1s, e2s in shares_raw:
        C = psub(C, r_decode(e2s[comp])); E = padd(E, r_decode(e1s[comp]))
    f = ('leaf', 3, [([(0, C), (1, pneg(A)), (2, E)], [(None, T)]),
                     ([(1, G), (0, pneg(X))], []),
                     ([(2, G), (0, pneg(Y))], [])])
    return verify_formula(t, f, proof[32:])

# ---- blind step (SPEC §2.4, §9.8): A' ‖ B' ‖ R×3 ‖ s×2 (224 bytes)
def verify_blind_step(gid, pos, seat, Xb, incard, body224):
    """-> the output card, or None: leaf(2; w0·A = A', w0·B + w1·(−A) = B', w0·X + w1·(−G) = 0); A, A' ≠ identity"""
    if len(body224) != 224 or len(incard[1]) != 1: return None
    A, B = incard[1][0]
    Ao, Bo = r_decode(body224[:32]), r_decode(body224[32:64])
    if r255.is_ident(A) or r255.is_ident(Ao): return None
    out = (bytes([1]) + body224[:64], [(Ao, Bo)])
    X = r_decode(Xb)
    t = ctx(b"masque/blind-step/v1", gid, pos, seat).add('X', Xb).add('in', incard[0]).add('out', out[0])
    f = ('leaf', 2, [([(0, A)], [(None, Ao)]),
                     ([(0, B), (1, pneg(A))], [(None, Bo)]),
                     ([(0, X), (1, pneg(G))], [])])
    return out if verify_formula(t, f, body224[64:]) else None

# ---- shuffle (SPEC §5)
def verify_shuffle(gid, pos, seat, Hb, Hj, incards, outcards, proof):
    n = len(incards); w = len(incards[0][1])
    if len(outcards) != n or any(len(c[1]) != w for c in incards + outcards): return False
    if len(proof) != 32 * (5 * n + 6 + 3 * w): return False
    words = [proof[32 * i:32 * i + 32] for i in range(5 * n + 6 + 3 * w)]
    try:
        cj = [r_decode(x) for x in words[0:n]]
        ch = [r_decode(x) for x in words[n:2 * n]]
        t1, t2, t3 = [r_decode(x) for x in words[2 * n:2 * n + 3]]
        t4 = [r_decode(x) for x in words[2 * n + 3:2 * n + 3 + 2 * w]]
        th = [r_decode(x) for x in words[2 * n + 3 + 2 * w:3 * n + 3 + 2 * w]]
        s1, s2, s3 = [scalar_decode(x) for x in words[3 * n + 3 + 2 * w:3 * n + 6 + 2 * w]]
        s4 = [scalar_decode(x) for x in words[3 * n + 6 + 2 * w:3 * n + 6 + 3 * w]]
        sh = [scalar_decode(x) for x in words[3 * n + 6 + 3 * w:4 * n + 6 + 3 * w]]
        sp = [scalar_decode(x) for x in words[4 * n + 6 + 3 * w:5 * n + 6 + 3 * w]]
    except r255.EncodingError:
        raise
    t = ctx(b"masque/shuffle/v1", gid, pos, seat)
    t.add('generators', 'shuffle-generator').add('H', Hb).u64('n', n).u64('width', w)
    for c in incards: t.add('in', c[0][1:])
    for c in outcards: t.add('out', c[0][1:])
    t.u64('perm-commit/n', n)
    for x in words[0:n]: t.add('perm-commit', x)
    u = [t.challenge(b"u") for _ in range(n)]
    t.u64('chain-commit/n', n)
    for x in words[n:2 * n]: t.add('chain-commit', x)
    t.add('t1', words[2 * n]).add('t2', words[2 * n + 1]).add('t3', words[2 * n + 2])
    for k in range(w):
        t.add('t4a', words[2 * n + 3 + 2 * k]).add('t4b', words[2 * n + 4 + 2 * k])
    t.u64('t-hat/n', n)
    for x in words[2 * n + 3 + 2 * w:3 * n + 3 + 2 * w]: t.add('t-hat', x)
    c = t.challenge(b"c")
    h = [shuffle_gen(i) for i in range(n + 1)]
    msm = r255.msm
    eq = r255.r_eq
    # 1
    sc = IDENT
    for x in cj: sc = padd(sc, x)
    for i in range(1, n + 1): sc = psub(sc, h[i])
    if not eq(pmul(s1, G), padd(t1, pmul(c, sc))): return False
    # 2
    pu = 1
    for x in u: pu = pu * x % L
    if not eq(pmul(s2, G), padd(t2, pmul(c, psub(ch[n - 1], pmul(pu, h[0]))))): return False
    # 3
    lhs = msm([(s3, G)] + [(sp[i], h[i + 1]) for i in range(n)])
    rhs = padd(t3, pmul(c, msm([(u[j], cj[j]) for j in range(n)])))
    if not eq(lhs, rhs): return False
    # 4
    for k in range(w):
        lhsA = psub(msm([(sp[i], outcards[i][1][k][0]) for i in range(n)]), pmul(s4[k], G))
        rhsA = padd(t4[2 * k], pmul(c, msm([(u[j], incards[j][1][k][0]) for j in range(n)])))
        if not eq(lhsA, rhsA): return False
        lhsB = psub(msm([(sp[i], outcards[i][1][k][1]) for i in range(n)]), pmul(s4[k], Hj))
        rhsB = padd(t4[2 * k + 1], pmul(c, msm([(u[j], incards[j][1][k][1]) for j in range(n)])))
        if not eq(lhsB, rhsB): return False
    # 5
    prev = h[0]
    for i in range(n):
        if not eq(padd(pmul(sh[i], G), pmul(sp[i], prev)), padd(th[i], pmul(c, ch[i]))): return False
        prev = ch[i]
    return True

# ---- Mafia (SPEC §9): the group secret's point, tags, powered ballots, checks
def group_secret_point(gid):
    return r255.from_uniform(hashlib.sha512(b"masque/mafia-group-secret/v1" + gid).digest())

def sub_card(card, comps):
    """Card.Select(comps) (SPEC §3.2): card = (raw, [(A,B)...])"""
    return card_from_points([card[1][c] for c in comps])

def _val(e, v, Hj):
    A, B = e
    return ('leaf', 1, [([(0, G)], [(None, A)]), ([(0, Hj)], [(None, B if v == 0 else psub(B, G))])])

def hold_formula(view_card, comp, shares, kinds, X, Y):
    """HOLD(K) of SPEC §9: the viewed-holding leaves over the view (shares: [([E1 pts], [E2 pts])])"""
    return viewed_holding_formula(view_card, comp, shares, kinds, X, Y)

def _absorb_view(t, Xb, Yb, view_card, comp, shares_raw):
    t.add('X', Xb).add('Y', Yb).add('card', view_card[0]).u64('component', comp)
    t.u64('shares/n', len(shares_raw))
    for e1s, e2s in shares_raw:
        t.u64('E1/n', len(e1s))
        for x in e1s: t.add('E1', x)
        t.u64('E2/n', len(e2s))
        for x in e2s: t.add('E2', x)

def ballot_size(n_roles, n, sigma_set):
    return 1 + 64 * n + 32 * (6 * n_roles + 7 * n + 5 + 3 * (1 if sigma_set else 0))

def verify_power_ballot(gid, cpos, seat, Hb, Hj, power, roles, holders, targets, self_allowed,
                        Xb, Yb, X, Y, view_card, comp, shares_raw, shares_pts, part):
    """SPEC §9.2. Returns the entries [(A,B)...] or None when the part does not decode or verify."""
    n = len(targets)
    sig = targets.index(seat) if (seat in targets and not self_allowed) else None
    if sig is not None and n == 1: return None
    if len(part) != ballot_size(len(roles), n, sig is not None) or part[0] != n: return None
    try:
        ents_raw = [part[1 + 64 * i:65 + 64 * i] for i in range(n)]
        ents = [(r_decode(x[:32]), r_decode(x[32:])) for x in ents_raw]
    except r255.EncodingError:
        return None
    nonh = [k for k in roles if k not in holders]
    t = ctx(b"masque/mafia-ballot/v1", gid, cpos, seat).add('H', Hb).u64('power', power)
    t.u64('roles/n', len(roles))
    for k in roles: t.u64('roles', k)
    t.u64('holders/n', len(holders))
    for k in holders: t.u64('holders', k)
    t.u64('targets/n', n)
    for s in targets: t.u64('target', s)
    t.u64('self', sig if sig is not None else (1 << 64) - 1)
    _absorb_view(t, Xb, Yb, view_card, comp, shares_raw)
    t.u64('entries/n', n)
    for x in ents_raw: t.add('entry', x)
    z = [t.challenge(b"zero-z") for _ in range(n)]
    SA = IDENT; SB = IDENT
    for A, B in ents: SA = padd(SA, A); SB = padd(SB, B)
    first = [hold_formula(view_card, comp, shares_pts, holders, X, Y),
             ('and', [('or', [_val(e, 0, Hj), _val(e, 1, Hj)]) for e in ents]),
             _val((SA, SB), 1, Hj)]
    if sig is not None: first.append(_val(ents[sig], 0, Hj))
    zero = ('leaf', 1, [([(0, G)], [(zi, A) for zi, (A, B) in zip(z, ents)]),
                        ([(0, Hj)], [(zi, B) for zi, (A, B) in zip(z, ents)])])
    f = ('or', [('and', first), ('and', [hold_formula(view_card, comp, shares_pts, nonh, X, Y), zero])])
    try:
        ok = verify_formula(t, f, part[1 + 64 * n:])
    except (ProofError, r255.EncodingError):
        return None
    return ents if ok else None

def check_size(n_holders, n_roles, v, mandatory):
    return 64 + 32 * ((6 * n_roles + 4 * v + 1) if mandatory else (6 * n_holders + 4 * v + 2))

def verify_check(gid, cpos, seat, Hb, Hj, holders, mandatory, roles, Xb, Yb, X, Y, view_card, comp,
                 shares_raw, shares_pts, targets, target_cards, tcomp, neutral, part):
    """SPEC §9.3. Returns Q (A, B) or None."""
    valid = [i for i, s in enumerate(targets) if s != seat]
    if not valid: return None
    if len(part) != check_size(len(holders), len(roles), len(valid), mandatory): return None
    try:
        QA = r_decode(part[:32]); QB = r_decode(part[32:64])
    except r255.EncodingError:
        return None
    t = ctx(b"masque/mafia-check/v1", gid, cpos, seat).add('H', Hb)
    t.u64('holders/n', len(holders))
    for k in holders: t.u64('holders', k)
    t.u64('mandatory', 1 if mandatory else 0)
    t.u64('roles/n', len(roles) if mandatory else 0)
    if mandatory:
        for k in roles: t.u64('roles', k)
    _absorb_view(t, Xb, Yb, view_card, comp, shares_raw)
    t.u64('targets/n', len(targets))
    for s, c in zip(targets, target_cards):
        t.u64('target', s).add('target-card', c[0])
    t.u64('target-component', tcomp).u64('neutral', neutral)
    t.add('Q', b'\x01' + part[:64])
    def remask(C):
        A, B = C[1][tcomp]
        return ('leaf', 1, [([(0, G)], [(None, QA), (L - 1, A)]), ([(0, Hj)], [(None, QB), (L - 1, B)])])
    picks = [remask(target_cards[i]) for i in valid]
    pick = picks[0] if len(picks) == 1 else ('or', picks)
    nl = ('leaf', 1, [([(0, G)], [(None, QA)]), ([(0, Hj)], [(None, QB), (L - 1, M(neutral))])])
    if mandatory:
        nonh = [k for k in roles if k not in holders]
        neutral_f = ('and', [hold_formula(view_card, comp, shares_pts, nonh, X, Y), nl])
    else:
        neutral_f = nl
    f = ('or', [('and', [hold_formula(view_card, comp, shares_pts, holders, X, Y), pick]), neutral_f])
    try:
        ok = verify_formula(t, f, part[64:])
    except (ProofError, r255.EncodingError):
        return None
    return (QA, QB) if ok else None

# ---- the plurality kill (SPEC §9.9): count lookup, vote cards, kill table
def verify_count_lookup(gid, pos, seat, Hb, Hj, entries, tally, body):
    """entries, tally: lists of (A, B) of n = 1..64 each. -> W (A, B), or None.
    leaf(2n+1; w_(n+i)·G = A_i, w_i·G + w_(n+i)·H = B_i (i = 0..n-1),
    Σ w_i·TA_i + w_(2n)·G = W_A, Σ w_i·TB_i + w_(2n)·H = W_B); W_A ‖ W_B ‖ R×(2n+2) ‖ s×(2n+1)"""
    n = len(entries)
    if not (1 <= n <= 64) or len(tally) != n or len(body) != 64 + 32 * (4 * n + 3): return None
    WA, WB = r_decode(body[:32]), r_decode(body[32:64])
    t = ctx(b"masque/mafia-count-lookup/v1", gid, pos, seat).add('H', Hb).u64('entries/n', n)
    for A, B in entries: t.add('entry', enc(A) + enc(B))
    t.u64('tally/n', n)
    for A, B in tally: t.add('tally', enc(A) + enc(B))
    t.add('W', bytes([1]) + body[:64])
    eqs = []
    for i, (A, B) in enumerate(entries):
        eqs.append(([(n + i, G)], [(None, A)]))
        eqs.append(([(i, G), (n + i, Hj)], [(None, B)]))
    eqs.append(([(i, tally[i][0]) for i in range(n)] + [(2 * n, G)], [(None, WA)]))
    eqs.append(([(i, tally[i][1]) for i in range(n)] + [(2 * n, Hj)], [(None, WB)]))
    return (WA, WB) if verify_formula(t, ('leaf', 2 * n + 1, eqs), body[64:]) else None

def code_sum(entries):
    """Σ 3^i·e_i by Horner's rule from i = n-1 down (SPEC §9.6)"""
    a, b = IDENT, IDENT
    for A, B in reversed(entries):
        a = padd(padd(padd(a, a), a), A); b = padd(padd(padd(b, b), b), B)
    return (a, b)

def kill_count_vectors(k):
    """every vector of block sizes of a partition of k votes, once each, ascending (SPEC §9.9)"""
    out = set()
    def walk(blocks):
        if len(blocks) == k:
            out.add(tuple(blocks.count(b) for b in blocks)); return
        for b in range(max(blocks, default=-1) + 2): walk(blocks + [b])
    walk([])
    return sorted(out)

def kill_rows(votes):
    """votes: k (V, W) pairs, each (A, B), in the shuffled order -> the rows [(key, payload)] (SPEC §9.9)"""
    k = len(votes)
    KA, KB = IDENT, IDENT
    for V, W in reversed(votes):
        KA = padd(pmul(k + 1, KA), W[0]); KB = padd(pmul(k + 1, KB), W[1])
    rows = []
    for c in kill_count_vectors(k):
        val = sum(cj * (k + 1) ** j for j, cj in enumerate(c))
        win = c.index(max(c))
        rows.append(((KA, psub(KB, pmul(val, G))), votes[win][0]))
    return rows
