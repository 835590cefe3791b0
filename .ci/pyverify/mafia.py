# Mafia "Random Incident", from docs/protocol.md §2.2.3, §4.4, §5, §12, docs/rules-mafia.md and
# docs/mafia.md, mental/SPEC.md §9.  Written by an outside auditor without the Go source.
from fmt import go_lower
import hashlib, struct
import r255, sigma
from fmt import R
from mascarade import RuleFault

class Unimplemented(Exception): pass

K = 16                   # card kinds 0..15 (rules-mafia.md "Protocol-level choices")
CIV, COMM, NURSE, BUTTERFLY, MAFIOSO, DON, MADMAN = range(7)
MISFIRE, RIC_L, RIC_R, ALIBI, EVI_L, EVI_R = range(7, 13)
NOT_MAFIA, MAFIA, NEUTRAL = 13, 14, 15
KILL, MADKILL, SAVE, DATE, CHECK = 1, 2, 3, 4, 5
HOLD, VOTE, PASS, CARD, LEAVE = 1, 2, 3, 4, 5
ROLE_NAMES = ['Civilian', 'Commissar', 'Nurse', 'Night Butterfly', 'Mafioso', 'Don', 'Madman']
INCIDENTS = [7] * 4 + [8] * 3 + [9] * 3 + [10] * 4 + [11] * 3 + [12] * 3       # protocol.md §2.2.3

def counts(n):
    """(civilian specials C, mafia specials D, mafiosi M, civilians at most V) for n players (protocol.md §2.2.3)"""
    if 4 <= n <= 5: return 0, 0, 1, 4
    if 6 <= n <= 8: return 1, 0, 2, 5
    if 9 <= n <= 11: return 2, 1, 2, 6
    if 12 <= n <= 14: return 3, 2, 2, 7
    if 15 <= n <= 18: return 3, 2, 3, 10
    raise ValueError('players')

def role_deck(n, specials):
    C, D, M, V = counts(n)
    if n - len(specials) - M > V: raise ValueError('too few specials')
    deck = list(specials) + [MAFIOSO] * M
    deck += [CIV] * (n - len(deck))
    return sorted(deck)

def parse_options(b, roster_names):
    r = R(b); o = {}
    if r.u8() != 1: raise ValueError('version')
    n = r.u8()
    if not 4 <= n <= 18: raise ValueError('players')
    o['names'] = [r.bu8().decode('utf-8') for _ in range(n)]
    for nm in o['names']:
        if not 1 <= len(nm.encode()) <= 32 or any(ch in nm for ch in ' \t\r\n,=#:'): raise ValueError('player name')
    if len({go_lower(nm) for nm in o['names']}) != n: raise ValueError('a name twice')
    f = r.u8()
    if f & ~0x07: raise ValueError('flags')
    o['no_incidents'], o['tie_draw'], o['fixed'] = bool(f & 1), bool(f & 2), bool(f & 4)
    m = r.u8(); sp = list(r.take(m))
    if sp != sorted(set(sp)) or any(s not in (COMM, NURSE, BUTTERFLY, DON, MADMAN) for s in sp):
        raise ValueError('specials')
    C, D, M, V = counts(n)
    if sum(1 for s in sp if s in (COMM, NURSE, BUTTERFLY)) > C or sum(1 for s in sp if s in (DON, MADMAN)) > D:
        raise ValueError('too many specials')
    o['specials'] = sp
    o['roles'] = role_deck(n, sp)
    o['fixed_roles'] = o['fixed_incidents'] = None
    if o['fixed']:
        o['fixed_roles'] = list(r.take(n))
        if sorted(o['fixed_roles']) != o['roles']: raise ValueError('fixed roles')
        if not o['no_incidents']:
            o['fixed_incidents'] = list(r.take(20))
            if sorted(o['fixed_incidents']) != INCIDENTS: raise ValueError('fixed incidents')
    if not r.done(): raise ValueError('trailing bytes')
    if o['names'] != roster_names: o['names_differ'] = True
    return o

def deck(o, n):
    """the deck laid face up before the opening (protocol.md §2.2.3)"""
    return list(o['roles']) + ([] if o['no_incidents'] else list(INCIDENTS))

def is_mafia(k): return k in (MAFIOSO, DON, MADMAN)

class Mafia:
    """The rules of protocol.md §12, request by request."""
    def __init__(self, o, n, gid, note):
        self.o, self.n, self.gid, self.note = o, n, gid, note
        self.notes = []
        self.inc = not o['no_incidents']
        self.roles = o['roles']
        self.role_kinds = sorted(set(self.roles))          # RoleKinds (§12)
        self.alive = list(range(n))
        self.known = {}                      # seat -> revealed role kind
        self.hands = {p: [] for p in range(n)}
        self.pile = []                       # incident slots, top first (§12.2)
        self.stale = False
        self.joined = False
        self.join_due = False
        self.draw_rounds = 0
        self.phase = 'wait'
        self.waiting = None; self.onevote = False; self.vtest = 0
        self.day = 1
        self.result = None
        self.asked = set()                   # the powers asked tonight
        self.answerers = []                  # the seats that answered an attack with a card tonight (§12.5)
        self.date_at = None                  # the seats the date tally opens at
        self.untested = set()                # parts of §12 no transcript we had exercised
        if MADMAN in self.roles: self.untested.add('the Madman')
        if BUTTERFLY in self.roles: self.untested.add('the Night Butterfly')
        if o['tie_draw']: self.untested.add('a tied vote as a draw (option)')
        if o['fixed']: self.untested.add("the options' fixed deal")
        if o['no_incidents']: self.untested.add('a table without incident cards')

    # ---------------------------------------------------------------- cards (§12.1)
    def tuple_card(self, k):
        gs = (r255.pneg(sigma.group_secret_point(self.gid)), r255.IDENT)
        fu = lambda c: (r255.IDENT, sigma.M(c))
        t1 = MAFIA if k in (MAFIOSO, DON) else NOT_MAFIA
        t2 = MAFIA if k in (MAFIOSO, DON, MADMAN) else NOT_MAFIA
        c3 = gs if k in (MAFIOSO, DON) else fu(NEUTRAL)
        c4 = gs if k in (MAFIOSO, DON, MADMAN) else fu(NEUTRAL)
        return sigma.card_from_points([fu(k), fu(t1), fu(t2), c3, c4])
    def incident_card(self, k):
        return sigma.card_from_points([(r255.IDENT, sigma.M(k))] * 5)
    def initial_cards(self):
        # §2.2.3 / §12.3: the deck face up, then the sets (which lay the same cards, or the fixed deal's)
        roles = self.o['fixed_roles'] or self.roles
        out = {p: self.tuple_card(k) for p, k in enumerate(roles)}
        if self.inc:
            inc = self.o['fixed_incidents'] or INCIDENTS
            for i, k in enumerate(inc): out[self.n + i] = self.incident_card(k)
        return out

    # ---------------------------------------------------------------- helpers
    def mafia_alive(self):
        return sum(1 for k in self.roles if is_mafia(k)) - sum(1 for k in self.known.values() if is_mafia(k))
    def in_play(self, k):
        return self.roles.count(k) > sum(1 for s, r in self.known.items() if r == k and s not in self.alive)
    def next_living(self, s, d):
        for i in range(1, self.n):
            t = (s + d * i) % self.n
            if t in self.alive: return t
        return None
    def rule(self, rid, d=''): raise RuleFault('rule:' + rid, d)

    # ---------------------------------------------------------------- the opening (§12.3)
    def start(self):
        n = self.n; eff = []
        if not self.o['fixed']:
            eff.append(('shuffle', list(range(n)), None))
            if self.inc: eff.append(('shuffle', list(range(n, n + 20)), None))
        eff += [('peek', [p], p, [0, 1, 3]) for p in range(n)]
        if self.inc:
            self.pile = list(range(n, n + 20))
            for p in range(n): self.hands[p].append(self.pile.pop(0))
            eff += [('peek', [self.hands[p][0]], p, [0]) for p in range(n)]
        eff.append(('actions', list(self.alive), [('tag', dict(round=1))]))
        self.waiting = 'tags1'
        return eff

    def actions_done(self, rq):
        if self.waiting == 'tags1':
            self.waiting = None
            self.phase = 'question'; self.votes = {}
        return []

    # ---------------------------------------------------------------- whose move
    def over(self): return self.phase == 'over'
    def due(self):
        if self.phase in ('question', 'vote'):
            left = [s for s in self.alive if s not in self.votes]
            return left[0] if left else None
        if self.phase in ('day_answer', 'night_answer', 'date_answer'): return self.answerer
        return None

    def move(self, seat, mk, args):
        if mk == LEAVE:
            if args: self.rule('bad-args')
            return self.leave(seat)
        ph = self.phase
        if ph == 'question':
            if mk != HOLD: self.rule('wrong-move')
            if len(args) != 1 or args[0] not in (0, 1): self.rule('bad-args')
            self.votes[seat] = args[0]
            return self.question_step()
        if ph == 'vote':
            if mk != VOTE: self.rule('wrong-move')
            if len(args) != 1: self.rule('bad-args')
            t = args[0]
            if t != -1 and (t == seat or t not in self.alive): self.rule('bad-target')
            self.votes[seat] = t
            return self.vote_step()
        if ph in ('day_answer', 'night_answer', 'date_answer'):
            if mk not in (PASS, CARD): self.rule('wrong-move')
            if mk == PASS:
                if args: self.rule('bad-args')
                if ph == 'day_answer': return self.eliminate([seat], 'day')
                if ph == 'date_answer': return self.eliminate([seat], 'date')
                self.aqueue.pop(0); self.dying.append(seat)
                return self.run_answers()
            if ph in ('day_answer', 'date_answer'):
                if len(args) != 3: self.rule('bad-args')
                c, sl, cl = args
                if (ph == 'day_answer' and c not in (ALIBI, EVI_L, EVI_R)) or (ph == 'date_answer' and c != MISFIRE):
                    self.rule('wrong-card')
                if sl not in self.hands[seat]: self.rule('not-in-hand')
                if cl != 0: self.rule('bad-args')
                eff = [('prove', sl, 1, [c], seat, 0)]
                self.play(seat, sl)
                if ph == 'date_answer':
                    self.note('night %d: the date, seat %d, plays a Misfire' % (self.day, seat))
                    return eff + self.finish('night')
                if c == ALIBI:
                    self.note('day %d: seat %d plays an Alibi' % (self.day, seat))
                    return eff + self.start_night()
                u = self.next_living(seat, 1 if c == EVI_L else -1)
                self.note('day %d: seat %d plays Evidence onto %s' % (self.day, seat, u))
                if u is None: return eff + self.start_night()
                return eff + self.condemn(u)
            # a night answer (protocol.md §4.4: the third argument is 0, no claim)
            if len(args) != 3: self.rule('bad-args')
            c, sl, cl = args
            if c not in (MISFIRE, RIC_L, RIC_R): self.rule('wrong-card')
            if sl not in self.hands[seat]: self.rule('not-in-hand')
            if cl != 0: self.rule('bad-args')
            eff = [('prove', sl, 1, [c], seat, 0)]
            # protocol.md §12.5: with item 4 asked tonight, the seat joins the night's answerers
            if DATE in self.asked and seat not in self.answerers: self.answerers.append(seat)
            self.play(seat, sl)
            self.aqueue.pop(0)
            if c == MISFIRE:
                self.note('night %d: seat %d plays a Misfire' % (self.day, seat))
                return eff + self.run_answers()
            u = self.next_living(seat, 1 if c == RIC_L else -1)
            self.note('night %d: seat %d plays a Ricochet onto %s' % (self.day, seat, u))
            if u is None or u in self.dying or u in self.aqueue:
                return eff + self.run_answers()
            if u in self.attacked:
                if u not in self.saved and u not in self.dated: self.aqueue.insert(0, u)
                return eff + self.run_answers()
            self.attacked.append(u); self.aqueue.insert(0, u)
            return eff + self.protect([u])
        self.rule('wrong-move')

    def play(self, seat, sl):
        self.hands[seat].remove(sl)
        self.pile.append(sl); self.stale = True

    # ---------------------------------------------------------------- days (§12.4)
    def question_step(self):
        if any(s not in self.votes for s in self.alive): return []
        yes = sum(self.votes[s] for s in self.alive)
        self.note('day 1: %d of %d say vote' % (yes, len(self.alive)))
        if 2 * yes > len(self.alive): return self.start_vote()
        return self.start_night()
    def start_vote(self):
        self.phase = 'vote'; self.votes = {}
        return []
    def vote_step(self):
        if any(s not in self.votes for s in self.alive): return []
        tally = {}
        for s in self.alive:
            t = self.votes[s]
            if t != -1 and t in self.alive: tally[t] = tally.get(t, 0) + 1
        top = max(tally.values()) if tally else 0
        if top == 0:
            self.note('day %d: nobody voted' % self.day)
            return self.start_night()
        best = [s for s in sorted(tally) if tally[s] == top]
        if len(best) > 1:
            self.note('day %d: a tie %s' % (self.day, best))
            if self.o['tie_draw']: return self.end('draw')
            return self.start_night()
        return self.condemn(best[0])
    def condemn(self, c):
        self.note('day %d: seat %d condemned' % (self.day, c))
        if self.inc and self.hands[c]:
            self.phase = 'day_answer'; self.answerer = c
            return []
        return self.eliminate([c], 'day')

    # ---------------------------------------------------------------- nights (§12.5)
    def kill_holders(self):
        if self.in_play(DON): return [DON]
        if self.joined and self.in_play(MADMAN): return [MAFIOSO, MADMAN]
        return [MAFIOSO]
    def start_night(self):
        self.day += 1
        T = list(self.alive); self.T = T
        parts = []; self.asked = set()
        def ballot(power, holders):
            self.asked.add(power)
            parts.append(('ballot', dict(power=power, roles=self.role_kinds, holders=holders, targets=T,
                                         self_allowed=False, slot=lambda s: s)))
        ballot(KILL, self.kill_holders())
        if self.in_play(MADMAN) and not self.joined: ballot(MADKILL, [MADMAN])
        if self.in_play(NURSE): ballot(SAVE, [NURSE])
        if self.in_play(BUTTERFLY): ballot(DATE, [BUTTERFLY])
        if self.in_play(COMM):
            self.asked.add(CHECK)
            if self.joined: self.untested.add('a check after the join (TargetComp 2)')
            pd = dict(holders=[COMM], mandatory=True, roles=self.role_kinds, targets=T,
                      tslot=lambda s: s, tcomp=2 if self.joined else 1, neutral=NOT_MAFIA, slot=lambda s: s)
            if self.joined and MADMAN not in self.roles:
                # protocol.md §12.6 read literally: "he joins now" even with no Madman in the role deck, so the
                # check re-masks component 2.  If the check verifies only with component 1 the documents and the
                # transcript disagree on an unclear point: undetermined, not a fault (README, finding 3).
                pd['alt_tcomp'] = 1
                pd['alt_why'] = ('a check after the first mafia elimination in a game without the Madman re-masks '
                                 'team component 1, while protocol.md §12.6 read literally ("he joins now") makes '
                                 'it component 2: the documents are unclear here')
            parts.append(('check', pd))
        self.phase = 'wait'; self.waiting = 'kill'; self.onevote = False
        if self.kill_one_vote():
            # protocol.md §12.5 item 6: two kill holders, no Don: a one-vote mix by every target in order,
            # then the test of card 0
            self.onevote = True; self.vtest = 0
            return [('actions', T, parts), ('vmix', KILL, list(T)), ('test', KILL, 0)]
        if self.kill_plurality():
            # protocol.md §12.5 item 6: a plurality kill of the kill with m votes by every target in order, adding
            # the Madman's ballots if asked; its only facts are the pick's
            self.waiting = 'pick'
            return [('actions', T, parts), ('plural', KILL, list(T), self.kill_count(), (MADKILL,) if MADKILL in self.asked else ())]
        if self.attacks_added():
            # protocol.md §12.5 item 6: one tally of the kill adding the Madman's (who attacked whom stays hidden)
            tal = [(KILL, None, (MADKILL,))]
        else:
            tal = [(KILL, None)] + ([(MADKILL, None)] if MADKILL in self.asked else [])
        return [('actions', T, parts), ('tally', tal)]

    def kill_count(self):
        """protocol.md §12.5 item 6: m, the cards of the kill's holders' roles in play"""
        live = lambda k: self.roles.count(k) - sum(1 for s, r in self.known.items() if r == k and s not in self.alive)
        return sum(live(k) for k in self.kill_holders())

    def kill_one_vote(self):
        """protocol.md §12.5 item 6: no Don in play and m = 2"""
        return not self.in_play(DON) and self.kill_count() == 2

    def kill_plurality(self):
        """protocol.md §12.5 item 6: no Don in play and m > 2"""
        return not self.in_play(DON) and self.kill_count() > 2

    def tested(self, vote):
        """protocol.md §12.5 "the attacks, one vote": a test's answer"""
        if self.waiting != 'kill' or not self.onevote: raise RuleFault('invalid', 'an unexpected test')
        if vote:
            self.note('night %d: the first vote is card %d of the shuffled code sums' % (self.day, self.vtest))
            return self.pick(self.vtest)
        self.vtest += 1
        if self.vtest >= len(self.T): raise RuleFault('rule:bad-facts', 'no code sum is a vote')
        return [('test', KILL, self.vtest)]

    def pick(self, k):
        """protocol.md §12.5: the pick of pair k, adding the Madman's ballots if asked"""
        self.waiting = 'pick'
        return [('pick', KILL, k, (MADKILL,) if MADKILL in self.asked else ())]

    def attacks_added(self):
        """protocol.md §12.5 item 6: the Madman's ballot was asked and the kill is neither a one-vote kill nor a plurality kill"""
        return MADKILL in self.asked and not self.kill_plurality() and not self.kill_one_vote()

    def tallied(self, facts):
        w = self.waiting
        if w == 'pick':
            cs = [c for _, c in facts]
            if sum(cs) != (2 if MADKILL in self.asked else 1): raise RuleFault('invalid', 'the pick names the wrong number of attacks')
            vs = [self.T[i] for i, c in enumerate(cs) if c > 0]
            self.madvictim = None
            self.note('night %d: attacked %s' % (self.day, vs))
            self.attacked = list(vs); self.aqueue = list(vs); self.dying = []
            self.saved = set(); self.dated = set(); self.butterfly_hit = False; self.answerers = []
            return self.protect(vs)
        if w == 'kill' and self.attacks_added():
            cs = [c for _, c in facts]
            if len(cs) != len(self.T) or sum(cs) != 2: raise RuleFault('invalid', 'the attacks\' tally is not two votes')
            self.madvictim = None
            vs = [self.T[i] for i, c in enumerate(cs) if c > 0]
            self.note('night %d: attacked %s' % (self.day, vs))
            self.attacked = list(vs); self.aqueue = list(vs); self.dying = []
            self.saved = set(); self.dated = set(); self.butterfly_hit = False; self.answerers = []
            return self.protect(vs)
        if w == 'kill':
            nT = len(self.T)
            kc = [c for _, c in facts[:nT]]
            top = max(kc)
            if top < 1: raise RuleFault('invalid', 'a kill tally with no vote')
            if self.in_play(DON) and sum(kc) != 1: raise RuleFault('invalid', 'the Don cast not exactly one vote')
            self.madvictim = None
            if MADKILL in self.asked:
                mc = [c for _, c in facts[nT:]]
                if sorted(mc) != [0] * (nT - 1) + [1]: raise RuleFault('invalid', 'the Madman cast not exactly one vote')
                self.madvictim = self.T[mc.index(1)]
            tied = [self.T[i] for i, c in enumerate(kc) if c == top]
            if len(tied) > 1:
                self.tied = tied; self.waiting = 'killcoin'
                return [('coin',)]
            return self.victims(tied[0])
        if w == 'protect':
            A = self.protecting; i = 0
            if SAVE in self.asked:
                for s in A:
                    if facts[i][1] == 1: self.saved.add(s)
                    i += 1
            if DATE in self.asked:
                for s in A:
                    if facts[i][1] == 1: self.dated.add(s)
                    i += 1
            for s in A:
                self.note('night %d: seat %d%s%s' % (self.day, s, ' saved' if s in self.saved else '',
                                                     ' dated' if s in self.dated else ''))
            self.waiting = None
            return self.run_answers()
        if w == 'date':
            dc = [c for _, c in facts]
            at = self.T if self.date_at is None else self.date_at
            if self.date_at is not None and not any(dc):
                self.note('night %d: no answerer was the Butterfly' % self.day)
                return self.finish('night')
            if sorted(dc) != [0] * (len(dc) - 1) + [1]: raise RuleFault('invalid', 'the date tally is not one vote')
            d = at[dc.index(1)]
            self.note('night %d: the Butterfly was hit; her date is seat %d' % (self.day, d))
            if d not in self.alive: return self.finish('night')
            if self.inc and self.hands[d]:
                self.phase = 'date_answer'; self.answerer = d; self.waiting = None
                return []
            return self.eliminate([d], 'date')
        raise RuleFault('invalid', 'an unexpected tally')

    def coin(self, value, a):
        if self.waiting != 'killcoin': raise RuleFault('invalid', 'an unexpected coin')
        n = len(self.tied)
        # Rejection sampling over the coin's bytes (protocol.md §12.5).
        v = next((self.tied[b % n] for b in value if b < 256 - 256 % n), self.tied[0])
        self.note('night %d: a coin picks seat %d among %s' % (self.day, v, self.tied))
        return self.victims(v)

    def victims(self, v):
        vs = sorted({v} | ({self.madvictim} if self.madvictim is not None else set()))
        self.note('night %d: attacked %s' % (self.day, vs))
        self.attacked = list(vs); self.aqueue = list(vs); self.dying = []
        self.saved = set(); self.dated = set(); self.butterfly_hit = False; self.answerers = []
        return self.protect(vs)

    def protect(self, A):
        parts = []
        if SAVE in self.asked: parts.append((SAVE, list(A)))
        if DATE in self.asked: parts.append((DATE, list(A)))
        if not parts: return self.run_answers()
        self.phase = 'wait'; self.waiting = 'protect'; self.protecting = list(A)
        return [('tally', parts)]

    def run_answers(self):
        while self.aqueue:
            t = self.aqueue[0]
            if t in self.saved or t in self.dated or t in self.dying or t not in self.alive:
                self.aqueue.pop(0); continue
            if self.inc and self.hands[t]:
                self.phase = 'night_answer'; self.answerer = t
                return []
            self.aqueue.pop(0); self.dying.append(t)
        self.phase = 'wait'
        if self.dying: return self.eliminate(sorted(self.dying), 'night')
        return self.butterfly_date()

    def butterfly_date(self):
        """protocol.md §12.5, the Butterfly's date: her whole date tally when she was hit, else the answerers' tally"""
        if DATE not in self.asked: return self.finish('night')
        if self.butterfly_hit:
            self.phase = 'wait'; self.waiting = 'date'; self.date_at = None
            return [('tally', [(DATE, None)])]
        if self.answerers:
            self.phase = 'wait'; self.waiting = 'date'
            self.date_at = [s for s in self.T if s in self.alive]
            return [('tally', [(DATE, list(self.date_at), (), tuple(sorted(self.answerers)))])]
        return self.finish('night')

    # ---------------------------------------------------------------- eliminations (§12.6)
    def eliminate(self, E, why):
        self.phase = 'wait'; self.waiting = 'elim'; self.elim = (list(E), why)
        return [('reveal', list(E), [0])]

    def revealed(self, slots, kinds):
        if self.waiting == 'end':
            for s, k in zip(slots, kinds):
                if k > MADMAN: raise RuleFault('invalid', 'a revealed role is no role')
                self.known[s] = k
            self.phase = 'over'; self.waiting = None
            return []
        if self.waiting != 'elim': raise RuleFault('invalid', 'an unexpected reveal')
        E, why = self.elim
        for s, k in zip(slots, kinds):
            if k > MADMAN: raise RuleFault('invalid', 'a revealed role is no role')
            self.known[s] = k
        for k in set(kinds):
            if sum(1 for r in self.known.values() if r == k) > self.roles.count(k):
                raise RuleFault('invalid', 'more roles %d than the deck holds' % k)
        eff = []
        for p in E:
            self.note('seat %d eliminated: %s' % (p, ROLE_NAMES[self.known[p]]))
            self.alive.remove(p)
            eff.append(('retire', p))
            if self.hands[p]:
                self.pile += self.hands[p]; self.hands[p] = []; self.stale = True
            if self.known[p] in (COMM, DON): self.draw_rounds += 1
            if self.known[p] in (MAFIOSO, DON) and not self.joined:
                self.joined = True; self.join_due = True
            if why == 'night' and self.known[p] == BUTTERFLY and p in self.attacked \
                    and p not in self.saved and p not in self.dated:
                self.butterfly_hit = True
        self.waiting = None
        if why == 'night': return eff + self.butterfly_date()
        if why == 'date': return eff + self.finish('night')
        return eff + self.finish(why)

    def finish(self, after):
        eff = []
        if self.draw_rounds > 1: self.untested.add('two draw rounds in one finish')
        for _ in range(self.draw_rounds):
            if self.inc and self.pile:
                if self.stale and not self.o['fixed']:
                    eff.append(('shuffle', list(self.pile), list(self.alive))); self.stale = False
                for p in self.alive:
                    if len(self.hands[p]) < 3 and self.pile:
                        s = self.pile.pop(0); self.hands[p].append(s)
                        eff.append(('peek', [s], p, [0]))
        self.draw_rounds = 0
        if self.join_due:
            self.join_due = False
            # protocol.md §12.6 item 2: no join views when this finish ends the game.
            if self.in_play(MADMAN) and self.mafia_alive() > 0 and len(self.alive) - self.mafia_alive() > 1:
                self.note('the Madman joins the mafia')
                eff += [('peek', [p], p, [4]) for p in self.alive]
                eff.append(('actions', list(self.alive), [('tag', dict(round=2))]))
        if self.mafia_alive() == 0: return eff + self.end('civilians')
        if len(self.alive) - self.mafia_alive() <= 1: return eff + self.end('mafia')
        if after == 'night': return eff + self.start_vote()
        if after == 'day': return eff + self.start_night()
        if after == 'leave': return eff + self.resume()
        raise RuleFault('invalid', 'finish after %r' % after)

    def end(self, who):
        self.result = who
        self.note('the game ends: %s' % who)
        self.phase = 'wait'; self.waiting = 'end'
        return [('reveal', list(self.alive), [0])]

    # ---------------------------------------------------------------- leaving (§12.8)
    def leave(self, seat):
        self.note('seat %d leaves' % seat); self.untested.add('leaving')
        self.interrupted = self.phase
        return self.eliminate([seat], 'leave')
    def resume(self):
        ph = self.interrupted
        if ph == 'question':
            self.phase = 'question'; return self.question_step()
        if ph == 'vote':
            self.phase = 'vote'; return self.vote_step()
        if ph == 'day_answer': return self.start_night()
        if ph == 'night_answer':
            self.aqueue = [s for s in self.aqueue if s in self.alive]
            self.dying = [s for s in self.dying if s in self.alive]
            return self.run_answers()
        if ph == 'date_answer': return self.finish('night')
        raise RuleFault('invalid', 'a leave in phase %r' % ph)

    def final(self, names):
        if self.untested:
            self.notes.append('this game uses parts of protocol.md §12 that no transcript available to this '
                              'verifier exercised (replayed from the documents as written): ' + ', '.join(sorted(self.untested)))
        roles = {names[s]: ROLE_NAMES[k] for s, k in sorted(self.known.items())}
        win = []
        if self.result == 'mafia': win = [names[s] for s in sorted(self.known) if is_mafia(self.known[s])]
        elif self.result == 'civilians': win = [names[s] for s in sorted(self.known) if not is_mafia(self.known[s])]
        return dict(over=self.phase == 'over', result=self.result, roles=roles, winners=win,
                    eliminated=[names[s] for s in range(self.n) if s not in self.alive])
