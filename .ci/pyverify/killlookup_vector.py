#!/usr/bin/env python3
"""Check mental/testdata/vectors_killlookup.txt (SPEC §9.9) from the SPEC alone: every
count lookup verifies (and fails under another seat or tally), the vote cards and the kill
table's rows are recomputed byte for byte, the count vectors and the true row match."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sigma
from r255 import r_decode, r_encode, IDENT, G, pmul, psub, padd

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'mental', 'testdata', 'vectors_killlookup.txt')
v = {}
for line in open(path):
    if line.startswith('#') or not line.strip(): continue
    k, val = line.rstrip('\n').split(' = ', 1)
    v[k] = val[1:-1] if val.startswith('"') else bytes.fromhex(val)
Hb = v['joint_key']; Hj = r_decode(Hb)
def cts(raw, n):  # n entries of A ‖ B
    return [(r_decode(raw[64 * i:64 * i + 32]), r_decode(raw[64 * i + 32:64 * i + 64])) for i in range(n)]
seats = sorted({int(k[len('ballot['):k.index(']')]) for k in v if k.startswith('ballot[') and k.endswith(']')})
n = v['ballot[0]'][0]
ballots = [cts(v['ballot[%d]' % s][1:], n) for s in seats]
tally = [(r_decode(v['tally[%d]' % i][:32]), r_decode(v['tally[%d]' % i][32:])) for i in range(n)]
for i in range(n):  # the tally is the sum of the ballots
    A, B = IDENT, IDENT
    for b in ballots: A, B = padd(A, b[i][0]), padd(B, b[i][1])
    assert r_encode(A) + r_encode(B) == v['tally[%d]' % i], 'tally %d' % i
bad = 0
votes = []
for s in seats:
    gid, pos, seat = v['lookup[%d].ctx.table' % s], int(v['lookup[%d].ctx.pos' % s]), int(v['lookup[%d].ctx.seat' % s])
    W = sigma.verify_count_lookup(gid, pos, seat, Hb, Hj, ballots[s], tally, v['lookup[%d]' % s])
    if W is None: print('lookup %d does not verify' % s); bad += 1; continue
    if sigma.verify_count_lookup(gid, pos, (seat + 1) % len(seats), Hb, Hj, ballots[s], tally, v['lookup[%d]' % s]) is not None:
        print('lookup %d verifies as another seat\'s' % s); bad += 1
    other = ballots[(s + 1) % len(seats)]
    if sigma.verify_count_lookup(gid, pos, seat, Hb, Hj, other, tally, v['lookup[%d]' % s]) is not None:
        print('lookup %d verifies over another ballot' % s); bad += 1
    V = sigma.code_sum(ballots[s])
    card = bytes([2]) + r_encode(V[0]) + r_encode(V[1]) + r_encode(W[0]) + r_encode(W[1])
    if card != v['vote_card[%d]' % s]: print('vote card %d differs' % s); bad += 1
    if s < 3: votes.append((V, W))
for k in range(2, 6):
    want = '[' + ' '.join('[' + ' '.join(map(str, c)) + ']' for c in sigma.kill_count_vectors(k)) + ']'
    if want != v['count_vectors(k=%d)' % k]: print('count vectors k=%d differ' % k); bad += 1
if len(votes) != 3:
    print('killlookup vector: %d MISMATCHES (no kill table without three verified lookups)' % bad); sys.exit(1)
rows = sigma.kill_rows(votes)
for r, (key, pay) in enumerate(rows):
    raw = bytes([2]) + r_encode(key[0]) + r_encode(key[1]) + r_encode(pay[0]) + r_encode(pay[1])
    if raw != v['row[%d]' % r]: print('row %d differs' % r); bad += 1
if int(v['true_row']) != sigma.kill_count_vectors(3).index((2, 2, 1)): print('true row differs'); bad += 1
print('killlookup vector: %s' % ('OK' if not bad else '%d MISMATCHES' % bad))
sys.exit(1 if bad else 0)
