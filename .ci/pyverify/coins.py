# Joint coins (SPEC §3.10): commitments, the seed, and draws from its stream.
import hashlib, struct
import ts

def commitment(game_id, seat, label, reveal):
    """The deal-coin commitment of seat (protocol.md §5.1: context (game id, seat, seat))."""
    t = ts.T(b"masque/coin-commit/v1").ctx(game_id, seat, seat)
    t.add('label', label).add('reveal', reveal).add('challenge', 'commitment')
    return hashlib.sha512(bytes(t.buf)).digest()[:32]

def seed(game_id, label, reveals):
    t = ts.T(b"masque/coin-seed/v1")
    t.add('table', game_id).add('label', label).u64('seats', len(reveals))
    for r in reveals: t.add('reveal', r)
    t.add('challenge', 'seed')
    return hashlib.sha512(bytes(t.buf)).digest()[:32]

class Stream:
    def __init__(self, seed, purpose):
        if isinstance(purpose, str): purpose = purpose.encode()
        lab = b"masque/coin-stream/v1"
        self.prefix = struct.pack('>I', len(lab)) + lab + seed + struct.pack('>I', len(purpose)) + purpose
        self.ctr = 0; self.buf = b''
    def u64(self):
        if not self.buf:
            self.buf = hashlib.sha512(self.prefix + struct.pack('>Q', self.ctr)).digest(); self.ctr += 1
        v = struct.unpack('>Q', self.buf[:8])[0]; self.buf = self.buf[8:]
        return v
    def intn(self, n):
        thresh = (1 << 64) % n
        while True:
            v = self.u64()
            if v >= thresh: return v % n
    def perm(self, n):
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.intn(i + 1)
            p[i], p[j] = p[j], p[i]
        return p

def permutation(seed, purpose, n): return Stream(seed, purpose).perm(n)
def intn(seed, purpose, n): return Stream(seed, purpose).intn(n)
