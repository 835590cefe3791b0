# The sigma-protocol engine of SPEC §4 and the statements of SPEC §2.4:
# formulas, their `formula-shape` bytes, proof layouts and verification.
# Written from mental/SPEC.md only.
import struct
import r255, ts

G = r255.G

# A formula is ('leaf', nwit, eqs) | ('and', [children]) | ('or', [children]);
# an equation is (secret, public): secret = [(witness index, base point)],
# public = [(coefficient or None, point)]  (SPEC §4.1: Σ w·B = Σ c·Q).
def leaf(nwit, eqs): return ('leaf', nwit, eqs)
def OR(*ch): return ('or', list(ch))
def AND(*ch): return ('and', list(ch))

OP = {'leaf': 1, 'and': 2, 'or': 3}

def shape_bytes(f):
    """SPEC §2.2 step 4: the formula-shape item's data."""
    out = bytearray([OP[f[0]]])
    if f[0] == 'leaf':
        _, nwit, eqs = f
        out += struct.pack('>II', nwit, len(eqs))
        for sec, pub in eqs:
            out += struct.pack('>I', len(sec))
            for w, _ in sec: out += struct.pack('>I', w)
            out += struct.pack('>I', len(pub))
    else:
        out += struct.pack('>I', len(f[1]))
        for c in f[1]: out += shape_bytes(c)
    return bytes(out)

def counts(f):
    """(OR challenges, commitments, responses) of a proof for f (SPEC §4.2)."""
    if f[0] == 'leaf': return 0, len(f[2]), f[1]
    ch = len(f[1]) - 1 if f[0] == 'or' else 0
    cm = rs = 0
    for c in f[1]:
        a, b, d = counts(c); ch += a; cm += b; rs += d
    return ch, cm, rs

def parse_proof(f, b):
    """Split b into (challenges, commitment encodings, responses); raises EncodingError."""
    nc, nm, nr = counts(f)
    if len(b) != 32 * (nc + nm + nr): raise r255.EncodingError("proof length")
    words = [b[32 * i:32 * i + 32] for i in range(nc + nm + nr)]
    chals = [r255.scalar_decode(w) for w in words[:nc]]
    Renc = words[nc:nc + nm]
    Rs = [r255.r_decode(w) for w in Renc]
    resp = [r255.scalar_decode(w) for w in words[nc + nm:]]
    return chals, Renc, Rs, resp

def verify(t, f, proof_bytes):
    """t: the transcript holding steps 1-3 (and 4's formula-points if any).
    Returns True if the proof verifies.  Decoding errors raise EncodingError."""
    chals, Renc, Rs, resp = parse_proof(f, proof_bytes)
    t.add('formula-shape', shape_bytes(f))
    t.u64('commitments/n', len(Renc))
    t.add('commitments', b''.join(Renc))
    c = t.challenge('challenge')
    st = dict(ci=0, mi=0, ri=0)
    def walk(g, c):
        if g[0] == 'leaf':
            _, nwit, eqs = g
            s = resp[st['ri']:st['ri'] + nwit]; st['ri'] += nwit
            ok = True
            for sec, pub in eqs:
                R = Rs[st['mi']]; st['mi'] += 1
                lhs = r255.msm([(s[w], B) for w, B in sec])
                Y = r255.msm([(1 if k is None else k, Q) for k, Q in pub])
                if not r255.r_eq(lhs, r255.padd(R, r255.pmul(c, Y))): ok = False
            return ok
        if g[0] == 'and':
            return all([walk(ch, c) for ch in g[1]])
        n = len(g[1])
        cs = chals[st['ci']:st['ci'] + n - 1]; st['ci'] += n - 1
        last = (c - sum(cs)) % r255.L
        return all([walk(ch, x) for ch, x in zip(g[1], cs + [last])])
    return walk(f, c)

# ------------------------------------------------------------------ statements (SPEC §2.4)
def card_bytes(comps):
    out = bytes([len(comps)])
    for A, B in comps: out += r255.r_encode(A) + r255.r_encode(B)
    return out

def share_statement(ctx, Xb, X, card_raw, comps, Draw, D):
    t = ts.T(b"masque/share/v1").ctx(*ctx)
    t.add('X', Xb).add('card', card_raw)
    t.u64('D/n', len(Draw))
    for d in Draw: t.add('D', d)
    eqs = [([(0, G)], [(None, X)])] + [([(0, A)], [(None, Dk)]) for (A, _), Dk in zip(comps, D)]
    return t, leaf(1, eqs)

def enc_share_statement(ctx, Xb, X, Yb, Y, card_raw, comps, E1raw, E2raw, E1, E2):
    t = ts.T(b"masque/enc-share/v1").ctx(*ctx)
    t.add('X', Xb).add('Y', Yb).add('card', card_raw)
    t.u64('E1/n', len(E1raw))
    for e in E1raw: t.add('E1', e)
    t.u64('E2/n', len(E2raw))
    for e in E2raw: t.add('E2', e)
    eqs = [([(0, G)], [(None, X)])]
    for i, (A, _) in enumerate(comps):
        eqs.append(([(1 + i, G)], [(None, E1[i])]))
        eqs.append(([(0, A), (1 + i, Y)], [(None, E2[i])]))
    return t, leaf(1 + len(comps), eqs)

def swap_statement(ctx, Hb, H, c0, c1, o0, o1):
    """c0, c1, o0, o1: (raw card bytes, [(A, B)])"""
    t = ts.T(b"masque/swap/v1").ctx(*ctx)
    t.add('H', Hb)
    for lab, c in (('in0', c0), ('in1', c1), ('out0', o0), ('out1', o1)): t.add(lab, c[0])
    w = len(c0[1])
    z = [t.challenge('swap-z') for _ in range(2 * w)]
    def branch(first, second):
        pa, pb = [], []
        for i in range(w):
            for j, (o, c) in enumerate(((o0, first), (o1, second))):
                zz = z[j * w + i]
                pa += [(zz, o[1][i][0]), ((-zz) % r255.L, c[1][i][0])]
                pb += [(zz, o[1][i][1]), ((-zz) % r255.L, c[1][i][1])]
        return leaf(1, [([(0, G)], pa), ([(0, H)], pb)])
    return t, OR(branch(c0, c1), branch(c1, c0))

def key_statement(label, table32, seat, identity, Xb, X):
    t = ts.T(label).ctx(table32, 0, seat).add('identity', identity).add('X', Xb)
    return t, leaf(1, [([(0, G)], [(None, X)])])
