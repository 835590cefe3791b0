#!/usr/bin/env python3
"""Compare this verifier with `masque verify --json` on every transcript in a
directory (not run by CI; for transcripts no vector covers, such as those of
`masque demo --transcript FILE`).  Usage: compare.py MASQUE_BINARY DIR"""
import sys, json, subprocess, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify
masque, d = sys.argv[1], sys.argv[2]
bad = 0
for f in sorted(os.listdir(d)):
    path = os.path.join(d, f)
    out = subprocess.run([masque, 'verify', '--json', path], capture_output=True, text=True)
    g = json.loads(out.stdout)
    r = verify.verify(open(path, 'rb').read())
    gf = g.get('fault'); gf = gf and dict(position=gf['position'], seat=gf['seat'], reason=gf['reason'])
    fin = lambda d: tuple(json.dumps((d.get('final') or {}).get(k), sort_keys=True) for k in ('coins', 'roses', 'winners'))
    mine = (r['exit'], r.get('valid'), r.get('complete'), fin(r), r.get('fault'))
    want = (out.returncode, g.get('valid'), g.get('complete'), fin(g), gf)
    if mine != want: bad += 1
    print(f, 'OK' if mine == want else 'DIFF mine %s want %s (%s)' % (mine, want, r.get('detail', '')))
sys.exit(1 if bad else 0)
