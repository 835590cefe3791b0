# ristretto255 (RFC 9496) and Ed25519 (RFC 8032) in pure Python.
import hashlib
p = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
d = (-121665 * pow(121666, p - 2, p)) % p
SQRT_M1 = pow(2, (p - 1) // 4, p)
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952

def inv(x): return pow(x, p - 2, p)
def is_neg(x): return x % p & 1
def cabs(x): x %= p; return p - x if x & 1 else x

def sqrt_ratio_m1(u, v):
    u %= p; v %= p
    v3 = v * v % p * v % p
    v7 = v3 * v3 % p * v % p
    r = u * v3 % p * pow(u * v7 % p, (p - 5) // 8, p) % p
    check = v * r % p * r % p
    correct = check == u
    flipped = check == (-u) % p
    flipped_i = check == (-u * SQRT_M1) % p
    r_prime = SQRT_M1 * r % p
    if flipped or flipped_i:
        r = r_prime
    r = cabs(r)
    return (correct or flipped), r

# extended coordinates (X, Y, Z, T)
IDENT = (0, 1, 1, 0)
def padd(P, Q):
    X1, Y1, Z1, T1 = P; X2, Y2, Z2, T2 = Q
    A = (Y1 - X1) * (Y2 - X2) % p
    B = (Y1 + X1) * (Y2 + X2) % p
    C = T1 * 2 * d % p * T2 % p
    D = Z1 * 2 * Z2 % p
    E = B - A; F = D - C; G_ = D + C; H = B + A
    return (E * F % p, G_ * H % p, F * G_ % p, E * H % p)
def pdbl(P):
    X1, Y1, Z1, _ = P
    A = X1 * X1 % p; B = Y1 * Y1 % p; C = 2 * Z1 * Z1 % p
    H = A + B; E = H - (X1 + Y1) ** 2 % p; G_ = A - B; F = C + G_
    return (E * F % p, G_ * H % p, F * G_ % p, E * H % p)
def pneg(P):
    X, Y, Z, T = P
    return ((-X) % p, Y, Z, (-T) % p)
def psub(P, Q): return padd(P, pneg(Q))
def pmul(k, P):
    k %= L
    if k.bit_length() <= 8:
        R = IDENT; Q = P
        while k:
            if k & 1: R = padd(R, Q)
            Q = pdbl(Q); k >>= 1
        return R
    return msm([(k, P)])
def pmul_raw(k, P):  # no reduction mod L (for cofactor checks)
    R = IDENT; Q = P
    while k:
        if k & 1: R = padd(R, Q)
        Q = pdbl(Q); k >>= 1
    return R

def msm(pairs):
    """sum of k*P: Straus with 4-bit windows (shared doublings)"""
    pairs = [(k % L, P) for k, P in pairs]
    pairs = [(k, P) for k, P in pairs if k]
    if not pairs: return IDENT
    tabs = []
    for k, P in pairs:
        t = [IDENT, P]
        for _ in range(14): t.append(padd(t[-1], P))
        tabs.append(t)
    nb = max(k.bit_length() for k, _ in pairs)
    nw = (nb + 3) // 4
    R = IDENT
    for i in range(nw - 1, -1, -1):
        if i != nw - 1:
            R = pdbl(pdbl(pdbl(pdbl(R))))
        sh = 4 * i
        for (k, _), t in zip(pairs, tabs):
            dgt = (k >> sh) & 15
            if dgt: R = padd(R, t[dgt])
    return R

# ---- ristretto255 ----
class EncodingError(Exception): pass

def r_decode(b):
    if len(b) != 32: raise EncodingError("length")
    s = int.from_bytes(b, 'little')
    if s >= p or is_neg(s): raise EncodingError("non-canonical s")
    ss = s * s % p
    u1 = (1 - ss) % p
    u2 = (1 + ss) % p
    u2_sqr = u2 * u2 % p
    v = (-(d * u1 % p * u1) - u2_sqr) % p
    was_square, invsqrt = sqrt_ratio_m1(1, v * u2_sqr % p)
    den_x = invsqrt * u2 % p
    den_y = invsqrt * den_x % p * v % p
    x = cabs(2 * s * den_x)
    y = u1 * den_y % p
    t = x * y % p
    if (not was_square) or is_neg(t) or y == 0: raise EncodingError("invalid point")
    return (x, y, 1, t)

def r_encode(P):
    x0, y0, z0, t0 = P
    u1 = (z0 + y0) * (z0 - y0) % p
    u2 = x0 * y0 % p
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 % p * u2 % p)
    den1 = invsqrt * u1 % p
    den2 = invsqrt * u2 % p
    z_inv = den1 * den2 % p * t0 % p
    ix0 = x0 * SQRT_M1 % p
    iy0 = y0 * SQRT_M1 % p
    enchanted_denominator = den1 * INVSQRT_A_MINUS_D % p
    rotate = is_neg(t0 * z_inv)
    if rotate:
        x, y, den_inv = iy0, ix0, enchanted_denominator
    else:
        x, y, den_inv = x0, y0, den2
    if is_neg(x * z_inv): y = (-y) % p
    s = cabs(den_inv * (z0 - y))
    return s.to_bytes(32, 'little')

def r_eq(P, Q):
    X1, Y1, _, _ = P; X2, Y2, _, _ = Q
    return (X1 * Y2 - Y1 * X2) % p == 0 or (Y1 * Y2 - X1 * X2) % p == 0

def is_ident(P): return r_eq(P, IDENT)

def _map(t):
    r = SQRT_M1 * t % p * t % p
    u = (r + 1) * ONE_MINUS_D_SQ % p
    v = (-1 - r * d) * (r + d) % p
    was_square, s = sqrt_ratio_m1(u, v)
    s_prime = (-cabs(s * t)) % p
    if not was_square:
        s = s_prime; c = r
    else:
        c = p - 1
    N = c * (r - 1) % p * D_MINUS_ONE_SQ % p - v
    w0 = 2 * s * v % p
    w1 = N * SQRT_AD_MINUS_ONE % p
    w2 = (1 - s * s) % p
    w3 = (1 + s * s) % p
    return (w0 * w3 % p, w2 * w1 % p, w1 * w3 % p, w0 * w2 % p)

def from_uniform(b64):
    assert len(b64) == 64
    t1 = int.from_bytes(b64[:32], 'little') & ((1 << 255) - 1)
    t2 = int.from_bytes(b64[32:], 'little') & ((1 << 255) - 1)
    return padd(_map(t1), _map(t2))

# base point (ed25519 standard)
_by = 4 * inv(5) % p
def _recover_x(y, sign):
    x2 = (y * y - 1) * inv(d * y * y + 1) % p
    if x2 == 0:
        if sign: return None
        return 0
    x = pow(x2, (p + 3) // 8, p)
    if (x * x - x2) % p != 0: x = x * SQRT_M1 % p
    if (x * x - x2) % p != 0: return None
    if (x & 1) != sign: x = p - x
    return x
_bx = _recover_x(_by, 0)
G = (_bx, _by, 1, _bx * _by % p)

def scalar_decode(b):
    if len(b) != 32: raise EncodingError("scalar length")
    s = int.from_bytes(b, 'little')
    if s >= L: raise EncodingError("non-canonical scalar")
    return s
def scalar_encode(s): return (s % L).to_bytes(32, 'little')

# ---- Ed25519 ----
def ed_decode(b):
    if len(b) != 32: return None
    y = int.from_bytes(b, 'little')
    sign = y >> 255; y &= (1 << 255) - 1
    if y >= p: return None
    x = _recover_x(y, sign)
    if x is None: return None
    return (x, y, 1, x * y % p)
def ed_encode(P):
    X, Y, Z, _ = P
    zi = inv(Z); x = X * zi % p; y = Y * zi % p
    return (y | ((x & 1) << 255)).to_bytes(32, 'little')

def ed_key_ok(pk):
    P = ed_decode(pk)
    if P is None: return False
    if ed_encode(P) != pk: return False
    if is_ident_ed(pmul_raw(8, P)): return False
    return True
def is_ident_ed(P):
    X, Y, Z, _ = P
    return X % p == 0 and (Y - Z) % p == 0

def ed_verify(pk, msg, sig):
    if len(sig) != 64: return False
    A = ed_decode(pk)
    if A is None: return False
    Rb = sig[:32]
    R = ed_decode(Rb)
    if R is None: return False
    S = int.from_bytes(sig[32:], 'little')
    if S >= L: return False
    k = int.from_bytes(hashlib.sha512(Rb + pk + msg).digest(), 'little') % L
    # Go's crypto/ed25519: checks encode(S*B - k*A) == R bytes (cofactorless)
    lhs = padd(pmul_raw(S, G), pneg(pmul_raw(k, A)))
    return ed_encode(lhs) == Rb
