# Mafia "Random Incident", from docs/protocol.md §2.2.3, §4.4, §5, §12, docs/rules-mafia.md and
# docs/mafia.md, mental/SPEC.md §9.  Written by an outside auditor without the Go source.
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
    """(civilian specials C, mafia specials D, mafiosi M) for n players (protocol.md §2.2.3)"""
    if 4 <= n <= 5: return 0, 0, 1
    if 6 <= n <= 8: return 1, 0, 2
    if 9 <= n <= 11: return 2, 1, 2
    if 12 <= n <= 14: return 3, 2, 2
    if 15 <= n <= 18: return 3, 2, 3
    raise ValueError('players')

def role_deck(n, specials):
    C, D, M = counts(n)
    ms = [s for s in specials if s in (DON, MADMAN)]
    deck = list(specials) + [MAFIOSO] * (D + M - len(ms))
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
    if len({nm.lower() for nm in o['names']}) != n: raise ValueError('a name twice')
    f = r.u8()
    if f & ~0x07: raise ValueError('flags')
    o['no_incidents'], o['tie_draw'], o['fixed'] = bool(f & 1), bool(f & 2), bool(f & 4)
    m = r.u8(); sp = list(r.take(m))
    if sp != sorted(set(sp)) or any(s not in (COMM, NURSE, BUTTERFLY, DON, MADMAN) for s in sp):
        raise ValueError('specials')
    C, D, M = counts(n)
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
    def __init__(self, o, n, gid, note):
        self.o, self.n, self.gid, self.note = o, n, gid, note
        self.notes = []
        self.inc = not o['no_incidents']
        self.roles = o['roles']
        self.role_kinds = sorted(set(self.roles))
        self.alive = list(range(n))
        self.known = {}                   # seat -> role kind (public)
        self.hands = {p: [] for p in range(n)}
        self.deck = []                       # incident slots, top first
        self.returned = False                # a card went back since the deck's last shuffle
        self.joined = False
        self.phase = 'opening'
        self.night = 1
        self.result = None
        self.waiting = None                  # what a completing request means to the rules
        self.later = []                      # steps after the current one

    # ---------------------------------------------------------------- cards and slots (§12)
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
        roles = self.o['fixed_roles'] or self.roles
        out = {p: self.tuple_card(k) for p, k in enumerate(roles)}
        if self.inc:
            inc = self.o['fixed_incidents'] or INCIDENTS
            for i, k in enumerate(inc): out[self.n + i] = self.incident_card(k)
        return out

    # ---------------------------------------------------------------- helpers
    def living_mafia(self):
        return sum(1 for k in self.roles if is_mafia(k)) - sum(1 for k in self.known.values() if is_mafia(k))
    def in_play(self, k):
        """a role some living seat may hold: the deck holds more of it than deaths revealed"""
        return self.roles.count(k) > sum(1 for s, r in self.known.items() if r == k and s not in self.alive)
    def next_living(self, s, d):
        for i in range(1, self.n + 1):
            t = (s + d * i) % self.n
            if t in self.alive: return t
        return None

    # ---------------------------------------------------------------- the opening
    def start(self):
        n = self.n; eff = []
        if not self.o['fixed']:
            eff.append(('shuffle', list(range(n)), None))
            if self.inc: eff.append(('shuffle', list(range(n, n + 20)), None))
        eff += [('peek', [p], p, [0, 1, 3]) for p in range(n)]
        if self.inc:
            self.deck = list(range(n, n + 20))
            for p in range(n):
                s = self.deck.pop(0); self.hands[p].append(s)
            eff += [('peek', [self.hands[p][0]], p, [0]) for p in range(n)]
        eff.append(('actions', list(self.alive), [('tag', dict(round=1))]))
        self.phase = 'wait'; self.waiting = 'tags1'
        return eff

    def actions_done(self, rq):
        if self.waiting == 'tags1':
            self.waiting = None
            self.phase = 'question'; self.answers = []; self.turn = list(self.alive)
            return []
        if self.waiting == 'night':
            return self.night_tally()
        if self.waiting == 'jointags':
            self.waiting = None
            return self.continue_after_deaths()
        return []

    # ---------------------------------------------------------------- moves
    def over(self): return self.phase == 'over'
    def due(self):
        if self.phase in ('question', 'vote'): return self.turn[len(self.answers)]
        if self.phase == 'answer': return self.answerer
        return None

    def move(self, seat, mk, args):
        if mk == LEAVE:
            if args: raise RuleFault('rule:bad-args')
            raise Unimplemented('a seat leaving (protocol.md §12.8)')
        if self.phase == 'question':
            if mk != HOLD: raise RuleFault('rule:wrong-move')
            if len(args) != 1 or args[0] not in (0, 1): raise RuleFault('rule:bad-args')
            self.answers.append(args[0])
            if len(self.answers) < len(self.turn): return []
            yes = sum(self.answers)
            if 2 * yes > len(self.turn): return self.start_vote()
            return self.start_night()
        if self.phase == 'vote':
            if mk != VOTE: raise RuleFault('rule:wrong-move')
            if len(args) != 1: raise RuleFault('rule:bad-args')
            t = args[0]
            if t != -1 and (t == seat or t not in self.alive): raise RuleFault('rule:bad-target')
            self.answers.append(t)
            if len(self.answers) < len(self.turn): return []
            return self.count_votes()
        if self.phase == 'answer':
            return self.answer(seat, mk, args)
        raise RuleFault('rule:wrong-move')

    # ---------------------------------------------------------------- days
    def start_vote(self):
        self.phase = 'vote'; self.answers = []; self.turn = list(self.alive)
        return []
    def count_votes(self):
        tally = {}
        for t in self.answers:
            if t != -1: tally[t] = tally.get(t, 0) + 1
        if not tally:
            self.note('day %d: nobody voted' % self.night)
            return self.start_night()
        top = max(tally.values()); best = [s for s in sorted(tally) if tally[s] == top]
        if len(best) > 1:
            self.note('day %d: a tie %s' % (self.night, best))
            if self.o['tie_draw']:
                return self.finish('draw')
            return self.start_night()
        return self.condemn(best[0])
    def condemn(self, s):
        self.note('day %d: seat %d condemned' % (self.night, s))
        self.kind = 'day'; self.target = s
        if self.inc and self.hands[s]:
            self.phase = 'answer'; self.answerer = s
            return []
        return self.deaths([s])

    def answer(self, seat, mk, args):
        if mk not in (PASS, CARD): raise RuleFault('rule:wrong-move')
        if mk == PASS:
            if args: raise RuleFault('rule:bad-args')
            if self.kind == 'day': return self.deaths([seat])
            return self.night_pass(seat)
        if self.kind == 'day':
            if len(args) != 3: raise RuleFault('rule:bad-args')
            c, sl, cl = args
            if c not in (ALIBI, EVI_L, EVI_R): raise RuleFault('rule:wrong-card')
            if sl not in self.hands[seat]: raise RuleFault('rule:not-in-hand')
            if cl != 0: raise RuleFault('rule:bad-args')
            eff = [('prove', sl, 1, [c], seat, 0)]
            self.play(seat, sl)
            if c == ALIBI:
                self.note('day %d: seat %d plays an Alibi' % (self.night, seat))
                return eff + self.start_night()
            t = self.next_living(seat, 1 if c == EVI_L else -1)
            self.note('day %d: seat %d plays Evidence, seat %d condemned' % (self.night, seat, t))
            return eff + self.condemn(t)
        # night answer
        cl = args[2] if len(args) == 3 else 0
        if cl not in (0, 1) or (cl == 1 and not self.claim_due()): raise RuleFault('rule:bad-args')
        if len(args) != 3: raise RuleFault('rule:bad-args')
        c, sl, cl = args
        if c not in (MISFIRE, RIC_L, RIC_R): raise RuleFault('rule:wrong-card')
        if sl not in self.hands[seat]: raise RuleFault('rule:not-in-hand')
        eff = [('prove', sl, 1, [c], seat, 0)]
        if self.claim_due():
            raise Unimplemented('a night answer while the Night Butterfly lives (protocol.md §12.5)')
        self.play(seat, sl)
        return eff + self.night_card(seat, c)

    def play(self, seat, sl):
        self.hands[seat].remove(sl)
        self.deck.append(sl); self.returned = True

    # ---------------------------------------------------------------- nights
    def claim_due(self):
        return self.in_play(BUTTERFLY)

    def start_night(self):
        self.night += 1
        alive = list(self.alive)
        parts = []
        self.powers = []
        def ballot(power, holders):
            self.powers.append(power)
            parts.append(('ballot', dict(power=power, roles=self.role_kinds, holders=holders, targets=alive,
                                         self_allowed=False, slot=lambda s: s)))
        if self.in_play(DON): ballot(KILL, [DON])
        else: ballot(KILL, [k for k in (MAFIOSO, DON, MADMAN) if k in self.role_kinds and (k != MADMAN or self.joined)])
        if self.in_play(MADMAN) and not self.joined: ballot(MADKILL, [MADMAN])
        if self.in_play(NURSE): ballot(SAVE, [NURSE])
        if self.in_play(BUTTERFLY): ballot(DATE, [BUTTERFLY])
        if self.in_play(COMM):
            parts.append(('check', dict(holders=[COMM], mandatory=True, roles=self.role_kinds, targets=alive,
                                        tslot=lambda s: s, tcomp=2 if self.joined else 1, neutral=NOT_MAFIA,
                                        slot=lambda s: s)))
        if BUTTERFLY in self.role_kinds or MADMAN in self.role_kinds:
            raise Unimplemented('a night with the Night Butterfly or the Madman in the role deck')
        self.phase = 'wait'; self.waiting = 'night'
        return [('actions', alive, parts)]

    def night_tally(self):
        self.waiting = 'kill'
        parts = [(KILL, None)]
        return [('tally', parts)]

    def tallied(self, facts):
        if self.waiting == 'kill':
            votes = {s: c for s, c in facts}
            top = max(votes.values())
            best = [s for s in sorted(votes) if votes[s] == top]
            if top == 0: raise RuleFault('invalid', 'a kill tally with no vote')
            if len(best) > 1:
                self.tied = best; self.waiting = 'killcoin'
                return [('coin',)]
            return self.attacked([best[0]])
        if self.waiting == 'saves':
            for (s, c) in facts:
                if c: self.saved.add(s)
            return self.next_answer()
        raise RuleFault('invalid', 'an unexpected tally')

    def coin(self, value, a):
        if self.waiting != 'killcoin': raise RuleFault('invalid', 'an unexpected coin')
        st = sigma.Stream(value, b'mafia/kill-tie')
        raise Unimplemented('how a joint coin breaks a tie of the kill among %s (protocol.md §12)' % self.tied)

    def attacked(self, seats):
        self.note('night %d: attacked %s' % (self.night, seats))
        self.attacks = list(seats); self.saved = set(); self.standing = []
        self.kind = 'night'; self.answered = set()
        self.queue = sorted(seats)
        if self.in_play(NURSE):
            self.waiting = 'saves'
            return [('tally', [(SAVE, [s]) for s in sorted(seats)])]
        return self.next_answer()

    def next_answer(self):
        while self.queue:
            s = self.queue[0]
            if s in self.saved: self.queue.pop(0); continue
            if self.inc and self.hands[s]:
                self.phase = 'answer'; self.answerer = s
                return []
            self.queue.pop(0); self.standing.append(s)
        deaths = sorted(set(self.standing))
        return self.deaths(deaths)

    def night_pass(self, seat):
        self.queue.pop(0); self.standing.append(seat)
        return self.next_answer()

    def night_card(self, seat, c):
        self.queue.pop(0)
        if c == MISFIRE:
            self.note('night %d: seat %d plays a Misfire' % (self.night, seat))
            return self.next_answer()
        t = self.next_living(seat, 1 if c == RIC_L else -1)
        self.note('night %d: seat %d plays a Ricochet onto seat %d' % (self.night, seat, t))
        if t in self.standing or t in self.queue:
            return self.next_answer()          # merges with the attack on t
        self.queue.insert(0, t)
        if t not in self.attacks and self.in_play(NURSE) and t not in self.saved:
            self.attacks.append(t)
            self.waiting = 'saves'; self.phase = 'wait'
            return [('tally', [(SAVE, [t])])]
        return self.next_answer()

    # ---------------------------------------------------------------- deaths
    def deaths(self, seats):
        self.phase = 'wait'
        if not seats:
            return self.after_deaths([])
        self.dying = list(seats)
        self.waiting = 'deathreveal'
        return [('reveal', list(seats), [0])]

    def revealed_kinds(self, slots, kinds):
        pass

    def revealed(self, slots, kinds):
        if self.waiting == 'deathreveal':
            for s, k in zip(slots, kinds): self.known[s] = k
            for s in slots:
                self.note('seat %d dies: %s' % (s, ROLE_NAMES[self.known[s]] if self.known[s] < 7 else self.known[s]))
            self.waiting = 'retire'; self.retiring = list(slots)
            return [('retire', s) for s in slots]
        if self.waiting == 'endreveal':
            for s, k in zip(slots, kinds): self.known[s] = k
            self.phase = 'over'; self.waiting = None
            return []
        raise RuleFault('invalid', 'an unexpected reveal')

    def retire_done(self, seat):
        self.retiring.remove(seat)
        self.alive.remove(seat)
        for sl in self.hands[seat]:
            self.deck.append(sl); self.returned = True
        self.hands[seat] = []
        if self.retiring: return []
        return self.after_deaths(self.dying)

    def after_deaths(self, dead):
        eff = []
        draws = any(self.known.get(s) in (COMM, DON) for s in dead)
        if draws and self.inc:
            if self.returned and not self.o['fixed']:
                eff.append(('shuffle', list(self.deck), None)); self.returned = False
            for p in self.alive:
                if len(self.hands[p]) < 3 and self.deck:
                    s = self.deck.pop(0); self.hands[p].append(s)
                    eff.append(('peek', [s], p, [0]))
        if any(is_mafia(self.known.get(s)) and self.known.get(s) != MADMAN for s in dead) and not self.joined \
                and MADMAN in self.roles:
            raise Unimplemented('the Madman joining')
        self.after_kind = self.kind
        return eff + self.continue_after_deaths()

    def continue_after_deaths(self):
        civ = len(self.alive) - self.living_mafia()
        if self.living_mafia() == 0: return self.finish('civilians')
        if civ <= 1: return self.finish('mafia')
        if self.after_kind == 'night': return self.start_vote()
        return self.start_night()

    def finish(self, who):
        self.result = who
        self.note('the game ends: %s' % who)
        self.phase = 'wait'; self.waiting = 'endreveal'
        living = [s for s in self.alive]
        if not living: self.phase = 'over'; return []
        return [('reveal', living, [0])]

    def final(self, names):
        roles = {names[s]: ROLE_NAMES[k] if k < 7 else k for s, k in sorted(self.known.items())}
        win = None
        if self.result == 'mafia': win = [names[s] for s in range(self.n) if is_mafia(self.known.get(s))]
        elif self.result == 'civilians': win = [names[s] for s in range(self.n) if s in self.known and not is_mafia(self.known[s])]
        return dict(over=self.phase == 'over', result=self.result, roles=roles, winners=win)
