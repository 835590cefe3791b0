#!/usr/bin/env python3
"""A smoke test of mafia.py alone (no cryptography): random games of every option and special role, the facts
made up from a random deal, leaves included; it must end every game without an exception. Not run by CI."""
import sys; import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mafia, random
from mascarade import RuleFault
def sim(seed, n=12, specials=(1,2,3,5,6), flags=0):
    rnd = random.Random(seed)
    names=['P%d'%i for i in range(n)]
    ob = bytes([1,n]) + b''.join(bytes([len(x)])+x.encode() for x in names) + bytes([flags, len(specials)]) + bytes(specials)
    o = mafia.parse_options(ob, names)
    notes=[]
    m = mafia.Mafia(o, n, b'\0'*32, notes.append)
    roles = list(o['roles']); rnd.shuffle(roles)
    inc = list(mafia.INCIDENTS); rnd.shuffle(inc)
    slotcard = {n+i: inc[i] for i in range(20)}
    q = list(m.start()); steps=0
    tallies = {}; mixes = {}; voted = {}
    while not m.over() and steps < 3000:
        steps += 1
        if q:
            e = q.pop(0); k = e[0]; more=[]
            if k == 'actions':
                for pk, pd in e[2]:
                    if pk == 'ballot':
                        T = pd['targets']; counts=[0]*len(T); by = {}
                        for s in T:
                            if roles[s] in pd['holders']:
                                c = rnd.choice([t for t in T if t != s]); counts[T.index(c)] += 1; by[s] = c
                        tallies[pd['power']] = (T, counts); voted[pd['power']] = by
                more = m.actions_done(dict(parts=e[2]))
            elif k == 'tally':
                facts=[]
                for part in e[1]:
                    p, seats = part[0], part[1]
                    T, counts = tallies[p]
                    if len(part) > 3 and part[3]:      # a tally by voters (the answerers' date ballots)
                        counts = [sum(1 for v in part[3] if voted[p].get(v) == t) for t in T]
                    for ap in (part[2] if len(part) > 2 else ()):
                        counts = [x + y for x, y in zip(counts, tallies[ap][1])]
                    for s in (T if seats is None else seats): facts.append((s, counts[T.index(s)]))
                more = m.tallied(facts)
            elif k == 'vmix':
                # a one-vote mix: each voter's vote (a target's index) or None, shuffled
                T, _ = tallies[e[1]]
                order = [T.index(voted[e[1]][v]) if v in voted[e[1]] else None for v in T]
                rnd.shuffle(order); mixes[e[1]] = order
            elif k == 'test':
                more = m.tested(mixes[e[1]][e[2]] is not None)
            elif k == 'pick':
                T, _ = tallies[e[1]]; won = mixes[e[1]][e[2]]
                cs = [int(i == won) for i in range(len(T))]
                for ap in e[3]: cs = [x + y for x, y in zip(cs, tallies[ap][1])]
                more = m.tallied(list(zip(T, cs)))
            elif k == 'plural':
                # a plurality kill (e[1] power, e[2] voters, e[3] votes, e[4] added powers): the first vote,
                # in a random order of the votes, whose target was named most; only the pick opens
                T, counts = tallies[e[1]]
                votes = [T.index(voted[e[1]][v]) for v in T if v in voted[e[1]]]
                if len(votes) != e[3]: raise Exception('a plurality kill of %d votes, %d cast' % (e[3], len(votes)))
                rnd.shuffle(votes); top = max(counts[i] for i in votes)
                won = next(i for i in votes if counts[i] == top)
                cs = [int(i == won) for i in range(len(T))]
                for ap in e[4]: cs = [x + y for x, y in zip(cs, tallies[ap][1])]
                more = m.tallied(list(zip(T, cs)))
            elif k == 'coin': more = m.coin(bytes(rnd.getrandbits(8) for _ in range(32)), 0)
            elif k == 'reveal': more = m.revealed(e[1], [roles[s] for s in e[1]])
            q = more + q if False else q + (more or [])
            continue
        d = m.due(); ph = m.phase
        if d is None: raise Exception('stuck in %s %s' % (ph, m.waiting))
        r = rnd.random()
        if r < 0.03: mv = (5, [])
        elif ph == 'question': mv = (1, [rnd.randint(0,1)])
        elif ph == 'vote': mv = (2, [rnd.choice([-1]+[s for s in m.alive if s != d])])
        else:
            hand = m.hands[d]
            ok = {'day_answer': (10,11,12), 'night_answer': (7,8,9), 'date_answer': (7,)}[ph]
            cards = [s for s in hand if slotcard[s] in ok]
            if cards and rnd.random() < 0.8:
                s = cards[0]
                mv = (4, [slotcard[s], s, 0])
            else: mv = (3, [])
        q += m.move(d, *mv) or []
    return m, notes
import collections
res = collections.Counter(); feats = collections.Counter()
for seed in range(300):
    for n, sp, fl in ((12,(1,2,3,5,6),0),(15,(1,2,3,5,6),2),(8,(3,),0),(5,(),1),(10,(2,6),0)):
        try:
            m, notes = sim(seed, n, sp, fl)
        except RuleFault as f:
            print('RuleFault', seed, n, f.reason, f.detail); continue
        res[m.result] += 1
        for u in m.untested: feats[u] += 1
print(res); print(feats)
