# masque transcript file framing (docs/protocol.md §1-§4)
import hashlib, struct
def H(b): return hashlib.new('sha512_256', b).digest()

class Damaged(Exception): pass

def go_lower(s):
    # protocol.md §7.1: every code point by its simple lowercase mapping (Go's strings.ToLower):
    # lowered one by one (no final-sigma context), U+0130 to U+0069 alone
    return ''.join('i' if c == '\u0130' else c.lower() for c in s)

class R:
    def __init__(self, b): self.b = b; self.i = 0
    def take(self, n):
        if self.i + n > len(self.b): raise Damaged("short read")
        r = self.b[self.i:self.i + n]; self.i += n; return r
    def u8(self): return self.take(1)[0]
    def u16(self): return struct.unpack('>H', self.take(2))[0]
    def u32(self): return struct.unpack('>I', self.take(4))[0]
    def u64(self): return struct.unpack('>Q', self.take(8))[0]
    def bu8(self): return self.take(self.u8())
    def bu16(self): return self.take(self.u16())
    def bu32(self): return self.take(self.u32())
    def done(self): return self.i == len(self.b)

MAGIC = b"masque transcript v1\n"

def parse_file(data):
    r = R(data)
    if r.take(21) != MAGIC: raise Damaged("magic")
    n = r.u32()
    if n > 65536: raise Damaged("roster too long")
    roster = r.take(n)
    sc = r.u8()
    sigs = [r.take(64) for _ in range(sc)]
    ec = r.u32()
    if ec > 1 << 20: raise Damaged("too many entries")
    entries = []
    for _ in range(ec):
        m = r.u32()
        if m > (1 << 20) + 256: raise Damaged("entry too long")
        entries.append(r.take(m))
    if not r.done(): raise Damaged("trailing bytes")
    return roster, sigs, entries

def parse_roster(roster):
    r = R(roster)
    ro = {}
    ro['table_id'] = r.take(16)
    ro['game'] = r.bu8().decode()
    opts = r.bu16()
    ns = r.u8()
    seats = []
    for _ in range(ns):
        s = {}
        s['name'] = r.bu8().decode()
        s['peer'] = r.bu8()
        s['sign'] = r.take(32)
        keys = r.bu16()
        if len(keys) != 192: raise ValueError("keys length")
        s['card_key'] = keys[:96]; s['view_key'] = keys[96:]
        seats.append(s)
    if not r.done(): raise ValueError("roster trailing")
    ro['seats'] = seats
    o = R(opts)
    ro['game_options'] = o.bu16()
    flags = o.u8()
    ro['flags'] = flags
    ro['publish_keys'] = bool(flags & 1)
    ro['fixed'] = None
    if flags & 2:
        n = o.u8(); ro['fixed'] = list(o.take(n))
    if flags & 8:
        ro['move_time'] = o.u16()
    if not o.done(): raise ValueError("options trailing")
    return ro

def parse_entry(e):
    r = R(e)
    pos = r.u64(); seat = r.u8(); prev = r.take(32)
    body = r.bu32(); sig = r.take(64)
    if not r.done(): raise Damaged("entry trailing")
    return dict(pos=pos, seat=seat, prev=prev, body=body, sig=sig, raw=e)
