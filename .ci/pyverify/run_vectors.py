#!/usr/bin/env python3
"""Run the verifier on every conformance vector and compare with manifest.json.
Exit status: 0 when every vector matches, 1 otherwise."""
import json, sys, os, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify
VD = os.environ.get('MASQUE_VECTORS') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'cmd', 'masque', 'testdata', 'vectors')
man = json.load(open(os.path.join(VD, 'manifest.json')))
only = sys.argv[1:]
start = time.time()
ok = bad = 0
skipped = []
for v in man['vectors']:
    if only and not any(o in v['file'] for o in only): continue
    # a vector of a game the protocol does not have (protocol.md §2.4) is run: its verdict is a refusal
    if v.get('game') not in verify.SUPPORTED_GAMES and v['valid']:
        skipped.append(v['file'])     # counted as a failure below: every game of the manifest is implemented
        print('%-46s MISSING  game %r: its rules are not implemented here' % (v['file'], v.get('game')))
        continue
    t = time.time()
    r = verify.verify(open(os.path.join(VD, v['file']), 'rb').read())
    fields = ['exit', 'valid', 'entries', 'complete', 'keys_published']
    diff = [f for f in fields if r.get(f) != v[f]]
    if r.get('deal_source') != v.get('deal_source') and v['entries']: diff.append('deal_source')
    if (r.get('fault') or None) != v['fault']: diff.append('fault')
    if diff: bad += 1
    else: ok += 1
    print('%-46s %-8s exit %s fault %s %.1fs' % (v['file'], 'OK' if not diff else 'DIFF', r.get('exit'), r.get('fault'), time.time() - t), flush=True)
    if diff:
        print('    differs in %s: mine %s, want %s; detail: %s' % (','.join(diff),
              {f: r.get(f) for f in fields + ['deal_source', 'fault']},
              {f: v.get(f) for f in fields + ['deal_source', 'fault']}, r.get('detail', '')))
    if r.get('notes'): print('    notes:', r['notes'])
print('pyverify: %d of %d vectors match (%.1fs)%s' % (ok, ok + bad, time.time() - start,
      '; %d NOT CHECKED (games not implemented)' % len(skipped) if skipped else ''))
sys.exit(1 if bad or skipped or not ok else 0)
