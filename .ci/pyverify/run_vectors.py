#!/usr/bin/env python3
import json, sys, os, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify
VD = '/work/main/cmd/masque/testdata/vectors/'
man = json.load(open(VD + 'manifest.json'))
only = sys.argv[1:]
rows = []
for v in man['vectors']:
    if only and not any(o in v['file'] for o in only): continue
    t = time.time()
    r = verify.verify(open(VD + v['file'], 'rb').read())
    fields = ['exit', 'valid', 'entries', 'complete', 'keys_published']
    diff = [f for f in fields if r.get(f) != v[f]]
    if r.get('deal_source') != v.get('deal_source') and v['entries']: diff.append('deal_source')
    if (r.get('fault') or None) != v['fault']: diff.append('fault')
    rows.append((v['file'], 'OK' if not diff else 'DIFF ' + ','.join(diff), r.get('fault'), v['fault'], r.get('exit'), v['exit'], r.get('detail', ''), r.get('notes', [])))
    print('%-48s %-22s mine=%s/%s want=%s/%s %s %.1fs' % (v['file'], rows[-1][1], r.get('exit'), r.get('fault'), v['exit'], v['fault'], r.get('detail', ''), time.time() - t), flush=True)
    if diff: print('     mine:', {f: r.get(f) for f in fields + ['deal_source']}, ' want:', {f: v.get(f) for f in fields + ['deal_source']})
