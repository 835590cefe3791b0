# the Fiat-Shamir transcript of SPEC §2 (configurable framing, found by trial)
import hashlib, struct, r255
CFG = dict(u32='>I', u64='>Q')
class T:
    def __init__(self, label=None):
        self.buf = bytearray()
        if label is not None:
            self.add(b"dom-sep", b"masque/mental/v1")
            self.add(b"protocol", label)
    def add(self, label, data):
        if isinstance(label, str): label = label.encode()
        if isinstance(data, str): data = data.encode()
        f = CFG['u32']
        self.buf += struct.pack(f, len(label)) + label + struct.pack(f, len(data)) + data
        return self
    def u64(self, label, v): return self.add(label, struct.pack(CFG['u64'], v))
    def ctx(self, table, pos, seat):
        self.add("table", table); self.u64("pos", pos); self.u64("seat", seat); return self
    def clone(self):
        t = T(); t.buf = bytearray(self.buf); return t
    def challenge(self, name=b"challenge"):
        self.add(b"challenge", name)
        return int.from_bytes(hashlib.sha512(bytes(self.buf)).digest(), 'little') % r255.L
