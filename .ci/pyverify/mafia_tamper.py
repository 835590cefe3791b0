#!/usr/bin/env python3
"""Damaged copies of a whole Mafia game, each refused with the right fault (protocol.md §3, §5, §6).
Usage: mafia_tamper.py GAME.masque [CHECKS_GAME.masque]
A tampered entry cannot be re-signed here (no signing keys), so for body tampers the signature check is
bypassed for that one entry, which is the last of the file (every earlier entry is honest and verified
as usual), as in the conformance vectors; without the bypass the verdict is bad-signature (exit 3),
checked first."""
import sys, os, struct, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify, r255
from fmt import parse_file, parse_entry, MAGIC, R

def frame(roster, sigs, entries):
    out = MAGIC + struct.pack('>I', len(roster)) + roster + bytes([len(sigs)]) + b''.join(sigs)
    out += struct.pack('>I', len(entries)) + b''.join(struct.pack('>I', len(e)) + e for e in entries)
    return out
def rebuild(e, body=None, seat=None, pos=None):
    p = parse_entry(e)
    body = p['body'] if body is None else body
    return (struct.pack('>QB', p['pos'] if pos is None else pos, p['seat'] if seat is None else seat) + p['prev'] +
            struct.pack('>I', len(body)) + body + p['sig'])
def body_of(e): return parse_entry(e)['body']
def actions_body(parts): return b'\x08' + bytes([len(parts)]) + b''.join(struct.pack('>I', len(x)) + x for x in parts)
def actions_parts(b):
    r = R(b[1:]); return [r.bu32() for _ in range(r.u8())]
def flip(b, i): return b[:i] + bytes([b[i] ^ 1]) + b[i + 1:]

def drop_share(b):
    r = R(b[1:]); p = r.u8(); pub = [r.bu16() for _ in range(p)]; q = r.u8(); enc = [r.bu16() for _ in range(q)]
    enc = enc[:-1]
    return (b'\x04' + bytes([p]) + b''.join(struct.pack('>H', len(x)) + x for x in pub) + bytes([len(enc)]) +
            b''.join(struct.pack('>H', len(x)) + x for x in enc))

def find(entries, pred, start=0):
    for i in range(start, len(entries)):
        if pred(i, body_of(entries[i])): return i
    raise LookupError

def run(data, bypass_last):
    real = r255.ed_verify
    if bypass_last is not None:
        def ed(pk, msg, sig, _real=real):
            if sig == bypass_last: return True
            return _real(pk, msg, sig)
        r255.ed_verify = ed
    try: return verify.verify(data)
    finally: r255.ed_verify = real

def cases(entries):
    n_ent = len(entries)
    out = []
    act = find(entries, lambda i, b: b[0] == 8 and len(b) > 100)             # the first ballot
    out.append(('ballot byte flipped', act, lambda b: actions_body([flip(actions_parts(b)[0], 100)] + actions_parts(b)[1:]), 'bad-ballot'))
    out.append(('ballot entry count wrong', act, lambda b: actions_body([bytes([actions_parts(b)[0][0] - 1]) + actions_parts(b)[0][1:]] + actions_parts(b)[1:]), 'bad-ballot'))
    out.append(('an extra part', act, lambda b: actions_body(actions_parts(b) + [b'\0' * 32]), 'action-count'))
    tag = find(entries, lambda i, b: b[0] == 8 and len(b) < 100)
    out.append(('a 31-byte tag', tag, lambda b: actions_body([actions_parts(b)[0][:31]]), 'bad-tag'))
    out.append(('a tag part dropped', tag, lambda b: b'\x08\x00', 'malformed-body'))
    mv = find(entries, lambda i, b: b[0] == 3 and b[1] == 2)                  # a vote
    out.append(('a vote for oneself', mv, None, 'rule:bad-target'))
    out.append(('a vote with two arguments', mv, lambda b: b'\x03\x02\x02' + struct.pack('>ii', -1, -1) + b'\x00', 'rule:bad-args'))
    out.append(('a hold where a vote is due', mv, lambda b: b'\x03\x01\x01' + struct.pack('>i', 1) + b'\x00', 'rule:wrong-move'))
    out.append(('an actions body where a move is due', mv, lambda b: actions_body([b'\0' * 32]), 'wrong-body-kind'))
    card = find(entries, lambda i, b: b[0] == 3 and b[1] == 4)
    out.append(('a card statement flipped', card, lambda b: flip(b, len(b) - 40), 'bad-statement'))
    out.append(('a card move without its statement', card, lambda b: b[:-163], 'statement-count'))
    out.append(('a card from a slot not in hand', card, None, 'rule:not-in-hand'))
    out.append(('a day card at night' , card, None, 'rule:wrong-card'))
    sh = find(entries, lambda i, b: b[0] == 6)
    out.append(('a shuffle proof flipped', sh, lambda b: flip(b, len(b) - 40), 'bad-shuffle'))
    view = find(entries, lambda i, b: b[0] == 4 and b[1] == 0)
    out.append(('a view share flipped', view, lambda b: flip(b, len(b) - 40), 'bad-share'))
    out.append(('a view share dropped', view, lambda b: drop_share(b), 'share-count'))
    tal = find(entries, lambda i, b: b[0] == 4 and b[1] > 0)
    out.append(('a tally/reveal share flipped', tal, lambda b: flip(b, len(b) - 20), 'bad-share'))
    key = find(entries, lambda i, b: b[0] == 5 and i < n_ent - 8)
    out.append(('a retirement with another key', key, lambda b: b'\x05' + (2).to_bytes(32, 'little'), 'key-mismatch'))
    try:
        coin = find(entries, lambda i, b: b[0] == 7)
        out.append(('a coin share flipped', coin, lambda b: flip(b, len(b) - 20), 'bad-share'))
    except LookupError: pass
    try:
        chk = find(entries, lambda i, b: b[0] == 8 and len(actions_parts(b)) >= 2 and len(actions_parts(b)[-1]) != len(actions_parts(b)[0]))
        out.append(('a check byte flipped', chk, lambda b: actions_body(actions_parts(b)[:-1] + [flip(actions_parts(b)[-1], 70)]), 'bad-check'))
        out.append(('a check in the kill ballot\'s place', chk, lambda b: actions_body([actions_parts(b)[-1]] + actions_parts(b)[1:]), 'bad-ballot'))
        out.append(('two parts swapped', chk, lambda b: actions_body(actions_parts(b)[1:2] + actions_parts(b)[0:1] + actions_parts(b)[2:]), 'bad-ballot'))
        cv = chk + 1
        while body_of(entries[cv])[0] != 4: cv += 1
        out.append(('a check-view share flipped', cv, lambda b: flip(b, len(b) - 40), 'bad-share'))
    except LookupError: pass
    return out

def special(name, b):
    if name == 'a vote for oneself': return None
    if name == 'a card from a slot not in hand':
        c, sl, cl = struct.unpack('>3i', b[3:15])
        return b[:3] + struct.pack('>3i', c, 0, cl) + b[15:]
    if name == 'a day card at night' or name == 'a night card by day':
        c, sl, cl = struct.unpack('>3i', b[3:15])
        c2 = 10 if c in (7, 8, 9) else 7
        return b[:3] + struct.pack('>3i', c2, sl, cl) + b[15:]

def main():
    ok = bad = 0
    for path in sys.argv[1:]:
        roster, sigs, entries = parse_file(open(path, 'rb').read())
        # an untouched copy truncated, a dropped entry, and a flipped body with its real signature
        t = time.time()
        for name, idx, fn, want in cases(entries):
            e = entries[idx]; p = parse_entry(e); b = p['body']
            if name == 'a vote for oneself':
                nb = b[:3] + struct.pack('>i', p['seat']) + b[7:]
            elif fn is None:
                nb = special(name, b)
            else:
                nb = fn(b)
            data = frame(roster, sigs, entries[:idx] + [rebuild(e, body=nb)])
            r = run(data, p['sig'])
            got = (r.get('fault') or {}).get('reason'); pos = (r.get('fault') or {}).get('position'); seat = (r.get('fault') or {}).get('seat')
            good = got == want and pos == idx and seat == p['seat']
            ok += good; bad += not good
            print('%-5s %-40s at %4d seat %d: want %-16s got %s %s' % ('OK' if good else 'FAIL', name, idx, p['seat'], want, got,
                  '' if good else '(%s) %s' % (r.get('detail'), (pos, seat))), flush=True)
        # real signatures: a flipped body is bad-signature (exit 3); a dropped entry wrong-position
        idx = find(entries, lambda i, b: b[0] == 8 and len(b) > 100)
        e = entries[idx]; p = parse_entry(e)
        r = run(frame(roster, sigs, entries[:idx] + [rebuild(e, body=flip(p['body'], 50))]), None)
        good = (r.get('fault') or {}).get('reason') == 'bad-signature' and r['exit'] == 3
        ok += good; bad += not good
        print('%-5s %-40s at %4d: got %s exit %s' % ('OK' if good else 'FAIL', 'a flipped ballot, real signature', idx, r.get('fault'), r['exit']))
        r = run(frame(roster, sigs, entries[:idx] + entries[idx + 1:idx + 2]), None)
        good = (r.get('fault') or {}).get('reason') == 'wrong-position' and r['fault']['position'] == idx + 1
        ok += good; bad += not good
        print('%-5s %-40s at %4d: got %s exit %s' % ('OK' if good else 'FAIL', 'an entry dropped', idx, r.get('fault'), r['exit']))
        r = run(frame(roster, sigs, entries[:idx] + [entries[idx + 1], entries[idx]]), None)
        good = (r.get('fault') or {}).get('reason') == 'wrong-position'
        ok += good; bad += not good
        print('%-5s %-40s at %4d: got %s exit %s' % ('OK' if good else 'FAIL', 'two entries swapped', idx, r.get('fault'), r['exit']))
        # another seat's entry where a seat is due; an entry after the end
        e = entries[idx]; p = parse_entry(e); other = (p['seat'] + 1) % len(sigs)
        r = run(frame(roster, sigs, entries[:idx] + [rebuild(e, seat=other)]), p['sig'])
        good = (r.get('fault') or {}).get('reason') == 'not-your-turn' and r['fault']['seat'] == other and r['fault']['position'] == idx
        ok += good; bad += not good
        print('%-5s %-40s at %4d: got %s exit %s' % ('OK' if good else 'FAIL', "another seat's entry", idx, r.get('fault'), r['exit']))
        from fmt import H
        last = parse_entry(entries[-1])
        extra = (struct.pack('>QB', len(entries), last['seat']) + H(b"masque/v1/entry" + entries[-1]) +
                 struct.pack('>I', len(last['body'])) + last['body'] + last['sig'])
        r = run(frame(roster, sigs, entries + [extra]), last['sig'])
        good = (r.get('fault') or {}).get('reason') == 'log-closed' and r['fault']['position'] == len(entries)
        ok += good; bad += not good
        print('%-5s %-40s at %4d: got %s exit %s' % ('OK' if good else 'FAIL', 'an entry after the end', len(entries), r.get('fault'), r['exit']))
        # a whole game cut short is valid but not complete
        r = run(frame(roster, sigs, entries[:idx + 1]), None)
        good = r['exit'] == 0 and r['valid'] and not r['complete']
        ok += good; bad += not good
        print('%-5s %-40s at %4d: valid %s complete %s' % ('OK' if good else 'FAIL', 'stopped mid-game', idx, r['valid'], r['complete']))
        print('%s: %.1fs' % (path, time.time() - t))
    print('%d ok, %d failed' % (ok, bad))
    sys.exit(1 if bad else 0)

if __name__ == '__main__':
    main()
