# The Grimm Masquerade's rules, from docs/protocol.md §2.2.2, §4.3 and §9 and docs/rules-grimm.md.
# Started by the second outside auditor (options, stream, opening, draft, turns, responses, hands) and
# completed from the documents once they gave every slot-level fact.  Implemented: 2-5 players, the
# basic game, jewels, bets, abilities (§9.6), fixed rounds.
from fmt import go_lower
import hashlib, struct
from fmt import R
from mascarade import RuleFault

class Unimplemented(Exception): pass

PICK, KEEP, GIVE, ACT, END, HINT, UNMASK, WIN, COMMIT, BET, DRAW, CHOOSE = range(1, 13)

def parse_options(b, roster_names):
    r = R(b); o = {}
    if r.u8() != 1: raise ValueError('version')
    n = r.u8()
    if not 2 <= n <= 5: raise ValueError('players')
    o['names'] = [r.bu8().decode('utf-8', 'surrogateescape') for _ in range(n)]
    for nm in o['names']:                        # §2.2.2
        if not 1 <= len(nm.encode()) <= 32 or any(ch in nm for ch in ' \t\r\n,=#'): raise ValueError('player name')
    if len({go_lower(nm) for nm in o['names']}) != n: raise ValueError('a name twice')
    f = r.u8()
    if f & ~0x0f: raise ValueError('flags')
    o['bets'], o['jewels'], o['abilities'], o['fixed'] = bool(f & 1), bool(f & 2), bool(f & 4), bool(f & 8)
    o['charms'] = {}
    for c in range(1, 9):
        boon, bane = r.u8(), r.u8()
        if not (9 <= boon <= 16 and 9 <= bane <= 16): raise ValueError('charm item')
        if boon == bane: raise ValueError('boon = bane')
        o['charms'][c] = (boon, bane)
    for k in range(9, 17):
        if sum(1 for c in o['charms'] if o['charms'][c][0] == k) != 1 or \
           sum(1 for c in o['charms'] if o['charms'][c][1] == k) != 1: raise ValueError('charms')
    if o['bets'] and n == 2: raise ValueError('bets with 2 players')
    adeck = action_deck(n, o['bets'])
    o['rounds'] = [None, None, None]
    if o['fixed']:
        anyfixed = False
        for i in range(3):
            m = r.u8()
            if m == 0: continue
            if m & ~0x1f or not m & 16: raise ValueError('round mask')
            anyfixed = True; fr = {}
            if m & 1:
                fr['chars'] = list(r.take(8))
                if sorted(fr['chars']) != list(range(1, 9)): raise ValueError('fixed characters')
            if m & 2:
                fr['items'] = list(r.take(48))
                if sorted(fr['items']) != sorted(k for k in range(9, 17) for _ in range(6)): raise ValueError('fixed items')
            if m & 4:
                fr['actions'] = list(r.take(2))
                if fr['actions'][0] == fr['actions'][1] or any(a not in adeck for a in fr['actions']):
                    raise ValueError('fixed actions')
            if m & 8:
                fr['first'] = r.u8()
                if fr['first'] >= n: raise ValueError('fixed first player')
            o['rounds'][i] = fr
        if not anyfixed: raise ValueError('fixed flag without a fixed round')
    if not r.done(): raise ValueError('trailing bytes')
    if o['names'] != roster_names: o['names_differ'] = True
    return o

def action_deck(n, bets):
    if n == 2: return [2, 5, 6, 7]
    return [2, 3, 4, 5, 6, 7] + ([8] if bets else [])

def deck(o):
    d = list(range(1, 9)) + [k for k in range(9, 17) for _ in range(6)]
    if o['bets']: d += list(range(17, 25))
    return d

class Stream:
    """protocol.md §9 (framing of the label and the rejection rule completed by trial, README)"""
    def __init__(self, coin, purpose):
        self.coin = coin; self.p = purpose; self.i = 0; self.buf = b''
    def n64(self):
        if not self.buf:
            self.buf = hashlib.sha512(b"masque/grimm/coin/v1" + bytes([len(self.p)]) + self.p + self.coin +
                                      struct.pack('>Q', self.i)).digest()
            self.i += 1
        v = int.from_bytes(self.buf[:8], 'big'); self.buf = self.buf[8:]; return v
    def intn(self, n):
        if n <= 1: return 0                      # §9.8: reads nothing
        t = (1 << 64) % n
        while True:
            v = self.n64()
            if v >= t: return v % n


EVIL_QUEEN, BEAST, CINDERELLA, SLEEPING_BEAUTY, RUMPELSTILTSKIN, RED_RIDING_HOOD, BIG_BAD_WOLF, HANSEL = range(1, 9)
TREATS, CAULDRON, DISGUISE, GLASS_SLIPPER, CLOCK, MIRROR, CROWN, SPINDLE = range(9, 17)
CHARS = list(range(0, 8)); ITEMS = list(range(8, 56)); BETS = list(range(56, 64))
CANON_ITEMS = [k for k in range(9, 17) for _ in range(6)]
DECK, DISCARD, ROW, DRAWN, FRONT, HAND = 'deck', 'discard', 'row', 'drawn', 'front', 'hand'

class Grimm:
    """The rules as docs/protocol.md §9 gives them, for 2-5 players, the basic game and every variant.
    State names follow the documents: the queue of forced responses, the continuation of a turn."""
    def __init__(self, o, n, gid, note):
        self.o = o; self.n = n; self.note = note; self.notes = []
        if n != len(o['names']): raise Unimplemented('options for %d players at a table of %d seats' % (len(o['names']), n))
        self.round = 0; self.roses = [0] * n; self.rewards = [0] * n; self.spent = []
        self.game_over = False; self.winners = None
        self.prev_chars = None; self.fx = []
        self.boon_owner = {bo: c for c, (bo, ba) in o['charms'].items()}
        self.bane_owner = {ba: c for c, (bo, ba) in o['charms'].items()}
    def rule(self, rid, d=''): raise RuleFault('rule:' + rid, d)
    def over(self): return self.game_over
    def tot(self, p): return self.roses[p] + self.rewards[p]
    # ---------------------------------------------------------------- §9.2 a round's effects
    def start(self): return self.new_round(first=True)
    def new_round(self, first=False):
        self.round += 1; r = self.round
        self.known = [0] * 8; self.unm = [False] * 8; self.broken = set(); self.tokens = {c: set() for c in range(1, 9)}
        self.where = {s: DECK for s in ITEMS}; self.owner = {}; self.card = {}
        self.deck = list(ITEMS)
        self.phase = 'coin'; self.why = 'round'; self.cont = None
        self.pending = []; self.drawn = []; self.wait = []; self.passes = []; self.eaves = []
        self.commits = {}; self.round_done = False; self.round_win = -1; self.by_talismans = False
        self.acted = False; self.kept_first = False
        self.jewels = [self.o['jewels']] * self.n            # one jewel a seat, every round
        self.bet_held = {}; self.bet_known = {}; self.bet_taken = set(); self.bet_seat = -1
        self.ability = [0] * self.n; self.choosing = []; self.hinted = self.beast_done = False; self.fx = []
        fx = self.o['rounds'][r - 1] or {}
        eff = []
        if 'chars' in fx: eff.append(('set', CHARS, list(fx['chars'])))
        else:
            if not first: eff.append(('set', CHARS, list(range(1, 9))))
            eff.append(('shuffle', CHARS, None))
        if 'items' in fx: eff.append(('set', ITEMS, list(fx['items'])))
        else:
            if not first: eff.append(('set', ITEMS, list(CANON_ITEMS)))
            eff.append(('shuffle', ITEMS, None))
        if self.o['bets']:                                    # §9.2 step 5
            if not first: eff.append(('set', BETS, list(range(17, 25))))
            eff.append(('shuffle', BETS, None))
        eff += [('peek', [s], p) for p in range(self.n) for s in self.held(p)]
        eff.append(('coin',))
        return eff
    # ---------------------------------------------------------------- helpers
    # seat p holds character slot p; with 2 players slots 2p and 2p + 1 (§9.1)
    def held(self, p): return [2 * p, 2 * p + 1] if self.n == 2 else [p]
    def seat_of(self, sl): return sl // 2 if self.n == 2 else sl
    def nheld(self): return 4 if self.n == 2 else self.n
    def unmasked(self, p): return all(self.unm[s] for s in self.held(p))
    def masked_slots(self, p): return [s for s in self.held(p) if not self.unm[s]]
    def front(self, p): return [s for s in ITEMS if self.where[s] == FRONT and self.owner[s] == p]
    def hand(self, p): return [s for s in ITEMS if self.where[s] == HAND and self.owner[s] == p]
    def count(self, p, k): return sum(1 for s in self.front(p) if self.card.get(s) == k)
    def discard(self): return [s for s in ITEMS if self.where[s] == DISCARD]
    def after(self, p, k): return (p + k) % self.n
    def char_deck(self): return list(range(self.nheld(), 8))
    def tokens_left(self, p): return 7 - sum(1 for c in range(1, 9) if p in self.tokens[c])
    def placeable(self, p, c): return 1 <= c <= 8 and c not in self.broken and p not in self.tokens[c] and self.tokens_left(p) > 0
    def eaves_choices(self, p):
        k = sum(1 for c in range(1, 9) if c not in self.broken and p not in self.tokens[c])
        return max(0, k - len(self.masked_slots(p)))
    def check_recipient(self, frm, t):
        if not (0 <= t < self.n) or t == frm or self.unmasked(t): self.rule('bad-target', 'seat %d' % t)
    def can_act(self, p):
        if not self.masked_slots(p): return False
        if self.jewels[p] and self.front(p): return True
        return any(self.count(p, k) >= 2 for k in range(9, 17))
    def next_masked(self, p, d):
        for k in range(1, self.n):
            q = self.after(p, k * d)
            if not self.unmasked(q): return q
        return -1
    # ---------------------------------------------------------------- §9.1 the item deck
    def draw_top(self, k):
        out, eff = [], []
        for _ in range(k):
            if not self.deck:
                pile = self.discard()
                for s in pile: self.where[s] = DECK; self.card.pop(s, None)
                if not pile: break
                self.deck = pile; eff.append(('shuffle', list(pile), None))
            out.append(self.deck.pop(0))
        return out, eff
    def reveal_draw(self, k, why):
        slots, eff = self.draw_top(k)
        if not slots: return eff, False
        for s in slots: self.where[s] = DRAWN
        self.phase, self.why, self.wait = 'reveal', why, slots
        return eff + [('reveal', list(slots))], True
    # ---------------------------------------------------------------- facts
    def coin(self, value, a):
        if self.phase != 'coin': raise RuleFault('invalid', 'a coin the rules do not wait for')
        if self.why == 'round':
            st = Stream(value, b'round')
            if self.n == 2 and self.round == 2:
                # §9.3: round 2 takes the two cards round 1 did not draw, in deck order, drawing nothing
                self.actions = [x for x in action_deck(2, False) if x not in self.spent]
            else:
                rest = [x for x in action_deck(self.n, self.o['bets']) if self.n == 2 or x not in self.spent]
                self.actions = [rest.pop(st.intn(len(rest))) for _ in range(2)]
            self.first = self.first_player(st)
            fx = self.o['rounds'][self.round - 1] or {}
            if 'actions' in fx: self.actions = list(fx['actions'])
            if 'first' in fx: self.first = fx['first']
            self.turn = self.first
            self.note('round %d: actions %s, first player seat %d' % (self.round, self.actions, self.first))
            eff = self.deal_abilities()
            if self.choosing: self.phase = 'ability'; return eff
            return eff + self.start_draft()
        self.passes = self.random_passes(value)
        if self.why == 'dance':
            hidden = [x[0] for x in self.passes if self.where[x[0]] == HAND]
            if hidden:
                self.phase, self.wait = 'reveal', hidden
                return [('reveal', list(hidden))]
        return self.finish_passes()
    def first_player(self, st):
        n = self.n
        if self.round == 1: return st.intn(n)
        lo = min(self.tot(p) for p in range(n)); hi = max(self.tot(p) for p in range(n))
        low = [p for p in range(n) if self.tot(p) == lo]; high = [p for p in range(n) if self.tot(p) == hi]
        if len(low) == 1: return low[0]
        if lo == hi: return low[st.intn(len(low))]
        dist = {c: min((c - h) % n for h in high) for c in low}
        b = min(dist.values()); best = [c for c in low if dist[c] == b]
        return best[st.intn(len(best))]
    def random_passes(self, value):
        out = []
        if self.why == 'dance':
            st = Stream(value, b'dance')
            out.append((self.gift, self.actor, self.next_masked(self.actor, self.dir)))
            for k in range(1, self.n):
                p = self.after(self.actor, k)
                frm = self.hand(p) if self.unmasked(p) else self.front(p)
                if not frm: continue
                out.append((frm[st.intn(len(frm))], p, self.next_masked(p, self.dir)))
            return out
        st = Stream(value, b'exchange')
        frm = self.front(self.target)
        out.append((self.gift, self.actor, self.target))
        for _ in range(2):
            if not frm: break
            out.append((frm.pop(st.intn(len(frm))), self.target, self.actor))
        return out
    def finish_passes(self):
        ps = self.passes; self.passes = []
        self.transfer([(s, t, f) for s, f, t in ps], self.actor)
        return self.advance()
    def revealed(self, slots, kinds):
        if self.phase != 'reveal' or list(slots) != list(self.wait): raise RuleFault('invalid', 'an unexpected reveal')
        for s, k in zip(slots, kinds):
            ok = (1 <= k <= 8) if s < 8 else (9 <= k <= 16) if s < 56 else (17 <= k <= 24)
            if not ok: raise RuleFault('invalid', 'slot %d cannot hold kind %d' % (s, k))
            if s < 8:
                if self.known[s] and self.known[s] != k: raise RuleFault('invalid', 'slot %d was proven otherwise' % s)
                self.known[s] = k
            elif s >= 56: self.bet_known[s] = k
            else: self.card[s] = k
        self.wait = []
        w = self.why
        if w == 'draft':
            for s in slots: self.where[s] = ROW
            self.draft_left = 4 if self.n == 2 else self.n; self.draft_seat = self.first; self.cont = 'draft'
            return self.advance()
        if w == 'extra':
            self.drawn = list(slots); self.phase, self.dec = 'decide', 'extra'; return []
        if w in ('draw', 'search', 'toast'):
            self.drawn = list(slots)
            if w == 'toast': self.phase = 'toast'; return []
            if w == 'search': self.phase, self.dec = 'decide', 'search'; return []
            if self.draw_no == 1: self.phase, self.dec = 'decide', 'first'; return []
            if self.kept_first: self.phase, self.dec = 'decide', 'second'; return []
            self.drawn = []; self.actor = self.turn
            self.transfer([(slots[0], self.turn)], self.turn)
            self.cont = 'action'
            return self.advance()
        if w == 'dance': return self.finish_passes()
        if w == 'handgive':
            ps = self.passes; self.passes = []; self.actor = self.turn
            self.transfer([(s, t, f) for s, f, t in ps], self.turn)
            self.cont = 'end'
            return self.advance()
        return self.finish_round()
    # ---------------------------------------------------------------- flow
    def due(self):
        ph = self.phase
        if ph in ('over', 'coin', 'reveal'): return None
        if ph == 'draft': return self.draft_seat
        if ph == 'respond': return self.pending[0][0]
        if ph == 'commit': return next(p for p in self.eaves if p not in self.commits)
        if ph == 'betpick': return self.bet_seat
        if ph == 'ability': return self.choosing[0]
        return self.turn
    def start_turn(self, t):
        self.turn = self.actor = t
        self.draw_no, self.kept_first, self.acted = 1, False, False
        if self.unmasked(t): return self.unmasked_draw(t)
        self.hinted = self.beast_done = False
        self.cont = 'first'
        if self.ability[t] == CINDERELLA and not self.has_pair(t) and self.masked_slots(t):
            self.pending.append((t, 'maydraw', 0, t))         # Modest gifts
        return self.advance()
    def unmasked_draw(self, t):
        slots, eff = self.draw_top(1)
        for s in slots:
            self.where[s], self.owner[s] = HAND, t; self.card.pop(s, None)
            eff += [('peek', [s], t), ('shuffle', self.hand(t), [t])]
        if not self.hand(t) and not self.can_take_bet(t):
            self.cont = 'end'
            return eff + self.advance()
        self.phase = 'handgive'
        return eff
    def transfer(self, ps, causer):
        """ps: (slot, to) or (slot, to, from); from -1 (a draw, the row, a Toast): the causer gave it"""
        n = self.n
        ps = [x if len(x) == 3 else (x[0], x[1], -1) for x in ps]
        before = [[self.count(p, k) for k in range(17)] for p in range(n)]
        for s, t, _ in ps: self.where[s], self.owner[s] = FRONT, t
        after = [[self.count(p, k) for k in range(17)] for p in range(n)]
        boons, banes = [], []
        for k in range(n):
            p = self.after(self.actor, k)
            if self.unmasked(p): continue
            for it in range(9, 17):
                b, a = before[p][it], after[p][it]
                if b < 3 <= a: boons.append((p, 'boon', self.boon_owner[it], causer))
                if b < 2 <= a: banes.append((p, 'bane', self.bane_owner[it], causer))
        self.pending += boons + banes
        if not self.o['abilities']: return
        for s, t, g in ps:                       # rules-grimm.md 29: True reflection, Curiosity
            if g < 0: g = causer
            if g == t or g < 0: continue
            it = self.card.get(s)
            if self.ability[g] == EVIL_QUEEN and it in (MIRROR, CROWN):
                self.pending.append((t, 'eaves', 0, g))
            elif self.ability[g] == RED_RIDING_HOOD and it in (DISGUISE, TREATS):
                self.fx += self.look_at_deck(g)
        for k in range(n):                       # Power over time: six different items, masked
            p = self.after(self.actor, k)
            if self.ability[p] != SLEEPING_BEAUTY or not self.masked_slots(p): continue
            if len({self.card.get(x) for x in self.front(p)}) >= 6:
                self.round_done, self.round_win = True, p
                return
    def look_at_deck(self, p):
        d = self.char_deck()
        return [('peek', [d[0]], p), ('shuffle', d, None)]
    def settled(self, r):
        p, kind, c, _ = r
        if kind == 'maybet': return not self.can_take_bet(p)
        if self.unmasked(p): return True
        if kind == 'maydraw': return not self.deck and not self.discard()
        if kind in ('bane', 'boon'): return c in self.broken or p in self.tokens[c]
        if kind == 'eaves': return self.eaves_choices(p) == 0
        return False
    def advance(self):
        eff = self.fx; self.fx = []
        while True:
            if self.round_done: return eff + self.end_round()
            while self.pending and self.settled(self.pending[0]): self.pending.pop(0)
            if self.pending: self.phase = 'respond'; return eff
            c = self.cont
            if c == 'draft':
                if self.draft_left > 0: self.phase = 'draft'; return eff
                for s in ITEMS:
                    if self.where[s] == ROW: self.where[s] = DISCARD
                self.cont = None
                return eff + self.start_turn(self.first)
            if c == 'second':
                self.draw_no = 2
                e, ok = self.reveal_draw(1, 'draw'); eff += e
                if ok: return eff
                self.cont = 'action'
            elif c == 'action':
                if not self.acted and self.can_act(self.turn): self.phase = 'action'; return eff
                self.cont = 'end'
            elif c == 'first':
                if self.unmasked(self.turn):
                    self.cont = None; return eff + self.unmasked_draw(self.turn)
                self.draw_no = 1
                e, ok = self.reveal_draw(1, 'draw'); eff += e
                if ok: return eff
                self.cont = 'action'
            elif c == 'end':
                t = self.turn
                if self.ability[t] == BEAST and self.hinted and not self.beast_done and self.masked_slots(t):
                    self.beast_done = True           # Master of the game: a draw at the end of the turn
                    self.note('round %d: Master of the game: seat %d draws at its turn\'s end' % (self.round, t))
                    e, ok = self.reveal_draw(1, 'extra'); eff += e
                    if ok: return eff
                self.cont = None
                return eff + self.start_turn(self.after(self.turn, 1))
            else:
                return eff
    # ---------------------------------------------------------------- moves (§4.3)
    def argc(self, args, lo, hi):
        if not lo <= len(args) <= hi: self.rule('bad-args', '%d arguments' % len(args))
    def move(self, seat, mk, args):
        if not 1 <= mk <= 12: self.rule('unknown-move')
        ph = self.phase
        if ph == 'draft':
            if mk != PICK: self.rule('wrong-move')
            self.argc(args, 1, 1)
            for s in ITEMS:
                if self.where[s] == ROW and self.card.get(s) == args[0]:
                    self.actor = seat
                    self.transfer([(s, seat)], seat)
                    self.draft_left -= 1; self.draft_seat = self.after(self.draft_seat, 1); self.cont = 'draft'
                    return self.advance()
            self.rule('not-in-row')
        if ph == 'decide': return self.decide(seat, mk, args)
        if ph == 'toast':
            if mk != GIVE: self.rule('wrong-move')
            self.argc(args, len(self.drawn), len(self.drawn))
            ps = []
            for s, t in zip(self.drawn, args):
                self.check_recipient(seat, t); ps.append((s, t))
            self.drawn = []
            self.transfer(ps, seat)
            return self.advance()
        if ph == 'handgive':
            if mk == BET:
                self.argc(args, 0, 0)
                if not self.can_take_bet(seat): self.rule('wrong-move')
                return self.bet_look(seat)
            if mk != GIVE: self.rule('wrong-move')
            self.argc(args, 2, 2)
            t, s = args
            self.check_recipient(seat, t)
            if s not in self.hand(seat): self.rule('not-your-slot')
            self.passes = [(s, seat, t)]
            self.phase, self.why, self.wait = 'reveal', 'handgive', [s]
            return [('reveal', [s])]
        if ph == 'respond': return self.respond(seat, mk, args)
        if ph == 'betpick': return self.bet_pick(seat, mk, args)
        if ph == 'ability': return self.choose(seat, mk, args)
        if ph == 'commit':
            if mk != COMMIT: self.rule('wrong-move')
            self.argc(args, 16, 16)
            if any(not 0 <= x <= 0xffff for x in args): self.rule('bad-args')
            self.commits[seat] = b''.join(struct.pack('>H', x) for x in args)
            if any(p not in self.commits for p in self.eaves): return []
            self.pending += [(p, 'eaves', 0, self.actor) for p in self.eaves]
            self.eaves = []
            return self.advance()
        if ph == 'action':
            if mk == END:
                self.argc(args, 0, 0); self.cont = 'end'; return self.advance()
            if mk == ACT: return self.act(seat, args)
            self.rule('wrong-move')
        self.rule('wrong-move')
    def decide(self, seat, mk, args):
        s = self.drawn[0]
        if mk == KEEP:
            self.argc(args, 0, 0)
            if self.dec == 'second': self.rule('wrong-move', 'give the second card')
            if self.unmasked(seat): self.rule('wrong-move', 'an unmasked player keeps nothing')
            self.drawn = []
            self.transfer([(s, seat)], seat)
            if self.dec == 'first': self.kept_first = True
        elif mk == GIVE:
            self.argc(args, 1, 1)
            self.check_recipient(seat, args[0])
            self.drawn = []
            self.transfer([(s, args[0])], seat)
        else: self.rule('wrong-move')
        if self.dec != 'extra':                  # an extra draw leaves the continuation as it was
            self.cont = {'first': 'second', 'second': 'action', 'search': 'end'}[self.dec]
        return self.advance()
    def own_masked(self, seat, mk, args):
        mine = self.masked_slots(seat)
        if not args and len(mine) == 1: return mine[0]
        if len(args) != 1: self.rule('bad-args')
        if args[0] not in mine: self.rule('not-your-slot')
        return args[0]
    def respond(self, seat, mk, args):
        p, kind, c0, causer = self.pending[0]
        if kind == 'maybet':                                  # §9.6: a bet now, or on a later turn
            if mk == BET:
                self.argc(args, 0, 0)
                return self.bet_look(seat)                    # the response stays queued until the pick
            if mk == END:
                self.argc(args, 0, 0)
                self.pending.pop(0)
                return self.advance()
            self.rule('wrong-move')
        if (kind == 'maydraw') != (mk in (DRAW, END)): self.rule('wrong-move')
        if mk in (DRAW, END):
            self.argc(args, 0, 0)
            self.pending.pop(0)
            if mk == END: return self.advance()
            e, ok = self.reveal_draw(1, 'extra')
            return e if ok else e + self.advance()
        if mk == HINT:
            c = args[0] if args else 0
            if kind == 'eaves':
                self.argc(args, 1, 9)
                if not self.placeable(seat, c): self.rule('bad-hint')
                if seat in self.commits:
                    if len(args) != 9: self.rule('bad-commit')
                    if any(not 0 <= x <= 0xffff for x in args[1:]): self.rule('bad-args')
                    h = hashlib.sha256(b"masque/grimm/eavesdrop/v1" + bytes([seat, c & 0xff]) +
                                       b''.join(struct.pack('>H', x & 0xffff) for x in args[1:])).digest()
                    if h != self.commits[seat]: self.rule('bad-commit')
                elif len(args) != 1: self.rule('bad-args')
            else:
                self.argc(args, 1, 1)
                if c != c0: self.rule('bad-hint')
                if not self.placeable(seat, c): self.rule('bad-hint')
            self.pending.pop(0); self.commits.pop(seat, None)
            self.tokens[c].add(seat)
            if self.tokens_left(seat) == 0: self.note('round %d: seat %d has no hint token left' % (self.round, seat))
            if seat == self.turn: self.hinted = True
            if kind == 'guess':
                self.roses[seat] += 1
                if self.ability[causer] == BIG_BAD_WOLF: self.fx += self.look_at_deck(causer)
                elif self.ability[causer] == RUMPELSTILTSKIN: self.pending.insert(0, (causer, 'maydraw', 0, causer))
            eff = [('prove', sl, 2, [c], seat) for sl in self.masked_slots(seat)]
            return eff + self.advance()
        if mk == UNMASK:
            if kind not in ('bane', 'guess'): self.rule('wrong-move')
            sl = self.own_masked(seat, mk, args)
            self.pending.pop(0)
            eff = [('prove', sl, 1, [c0], seat)]
            if causer != seat: self.roses[causer] += 2 if kind == 'guess' else 1
            eff += self.unmask(sl, c0)
            if not self.round_done and self.can_take_bet(seat):
                self.pending.insert(0, (seat, 'maybet', 0, seat))  # §9.4 may-bet
            return eff + self.advance()
        if mk == WIN:
            if kind != 'boon': self.rule('wrong-move')
            sl = self.own_masked(seat, mk, args)
            self.pending = []; self.known[sl] = c0
            self.round_done, self.round_win, self.by_talismans = True, seat, True
            return [('prove', sl, 1, [c0], seat)] + self.advance()
        self.rule('wrong-move')
    def unmask(self, sl, c):
        p = self.seat_of(sl)
        self.known[sl], self.unm[sl] = c, True
        self.broken.add(c); self.tokens[c] = set()
        eff = []
        if self.masked_slots(p): return eff      # 2 players: one character still masked, items stay face up
        if self.n > 2:                           # §9.4: with 2 players nobody has a hand (the round ends)
            slots = self.front(p)
            for s in slots: self.where[s] = HAND; self.card.pop(s, None)
            if slots: eff.append(('shuffle', slots, [p]))
        masked = [q for q in range(self.n) if not self.unmasked(q)]
        if len(masked) <= 1:
            self.round_done = True; self.round_win = masked[0] if masked else -1
        return eff
    def act(self, seat, args):
        if len(args) < 3: self.rule('bad-args')
        a, it, jewel = args[:3]
        if not 1 <= a <= 8: self.rule('bad-args')
        if a != 1 and a not in self.actions: self.rule('action-unavailable')
        if jewel not in (0, 1): self.rule('bad-args')
        need = 2
        if jewel == 1:
            if not self.jewels[seat]: self.rule('no-jewel')
            need = 1
        if not 9 <= it <= 16 or self.count(seat, it) < need: self.rule('no-pair')
        rest = args[3:]
        def left(g): return self.count(seat, g) - (need if g == it else 0)
        if a == 1:
            if len(rest) != 2: self.rule('bad-args')
            t, c = rest
            self.check_recipient(seat, t)
            if not 1 <= c <= 8 or c in self.broken or t in self.tokens[c]: self.rule('bad-guess')
        elif a == 2:
            if not 1 <= len(rest) <= (1 if self.n == 2 else 2) or (len(rest) == 2 and rest[0] == rest[1]): self.rule('bad-args')
            for t in rest: self.check_recipient(seat, t)
        elif a in (3, 5, 6, 8):
            if rest: self.rule('bad-args')
        elif a == 4:
            if len(rest) != 2 or rest[0] not in (1, -1): self.rule('bad-args')
            if not 9 <= rest[1] <= 16 or left(rest[1]) < 1: self.rule('no-item')
        elif a == 7:
            if len(rest) != 2: self.rule('bad-args')
            self.check_recipient(seat, rest[0])
            if not 9 <= rest[1] <= 16 or left(rest[1]) < 1: self.rule('no-item')
        if jewel == 1: self.jewels[seat] = False
        paid = [s for s in self.front(seat) if self.card.get(s) == it][:need]
        for s in paid: self.where[s] = DISCARD
        self.acted, self.act_, self.actor = True, a, seat
        if self.n == 2 and a != 1: self.roses[seat] += 1     # §9.5: with 2 players every action but Mask off!
        self.cont = 'end'
        eff = []
        if a == 1:
            self.pending.append((rest[0], 'guess', rest[1], seat))
        elif a == 2:
            self.commits = {}
            named = [t for t in rest if self.eaves_choices(t) > 0]
            if len(named) == 2:
                self.eaves = named; self.phase = 'commit'; return []
            self.pending += [(t, 'eaves', 0, seat) for t in named]
        elif a in (3, 6):
            deck = self.char_deck()
            eff += [('peek', [deck[i]], seat) for i in range(min(2 if a == 3 else 1, len(deck)))]
            eff.append(('shuffle', deck, None))
            if a == 6:
                e, ok = self.reveal_draw(1, 'search'); eff += e
                if ok: return eff
        elif a == 5:
            e, ok = self.reveal_draw(2, 'toast'); eff += e
            if ok: return eff
        elif a in (4, 7):
            self.gift = next(s for s in self.front(seat) if self.card.get(s) == rest[1])
            if a == 4: self.dir = rest[0]
            else: self.target = rest[0]
            self.phase, self.why = 'coin', 'dance' if a == 4 else 'exchange'
            return [('coin',)]
        elif a == 8:
            return self.bet_look(seat)
        return eff + self.advance()
    def start_draft(self):
        eff, _ = self.reveal_draw(6 if self.n == 2 else self.n + 2, 'draft')
        return eff
    # ---------------------------------------------------------------- abilities (rules-grimm.md 29, §9.6)
    def has_pair(self, p): return any(self.count(p, k) >= 2 for k in range(9, 17))
    def deal_abilities(self):
        if not self.o['abilities'] or self.round < 2 or self.prev_chars is None: return []
        lo = min(self.tot(p) for p in range(self.n))
        for p in range(self.n):
            if self.tot(p) != lo: continue
            if self.n == 2: self.choosing.append(p)
            else: self.ability[p] = self.prev_chars[p]
        self.note('round %d: abilities %s, choosing %s' % (self.round, self.ability, self.choosing))
        return self.gambler_bet()
    def gambler_bet(self):
        eff = []
        for p in range(self.n):
            if self.ability[p] != HANSEL or not self.o['bets']: continue
            d = self.bet_deck()
            if d:
                self.bet_held[d[0]] = p; eff.append(('peek', [d[0]], p))
        return eff
    def choose(self, seat, mk, args):
        if mk != CHOOSE: self.rule('wrong-move')
        self.argc(args, 1, 1)
        if args[0] not in [self.prev_chars[s] for s in self.held(seat)]: self.rule('bad-args')
        self.ability[seat] = args[0]; self.choosing.pop(0)
        if self.choosing: return []
        return self.gambler_bet() + self.start_draft()
    # ---------------------------------------------------------------- bets (§9.5 Learn a secret, §9.6)
    def bet_deck(self): return [s for s in BETS if s not in self.bet_held]
    def can_take_bet(self, p):
        return self.o['bets'] and self.unmasked(p) and p not in self.bet_taken and bool(self.bet_deck())
    def bet_look(self, p):
        deck = self.bet_deck()
        if not deck: return self.advance()
        self.phase, self.bet_seat = 'betpick', p
        return [('peek', [s], p) for s in deck]
    def bet_pick(self, seat, mk, args):
        if mk != BET: self.rule('wrong-move')
        self.argc(args, 1, 1)
        deck = self.bet_deck()
        if args[0] not in deck: self.rule('bad-bet')
        self.bet_held[args[0]] = seat
        rest = [s for s in deck if s != args[0]]
        eff = [('shuffle', rest, None)] if len(rest) > 1 else []
        if self.pending and self.pending[0][1] == 'maybet' and self.pending[0][0] == seat:
            self.pending.pop(0); self.bet_taken.add(seat)     # taken at the unmasking: what was going on goes on
            return eff + self.advance()
        if self.unmasked(seat):
            self.bet_taken.add(seat)
            if self.hand(seat): self.phase = 'handgive'; return eff
        self.cont = 'end'
        return eff + self.advance()
    # ---------------------------------------------------------------- §9.7 a round's end
    def end_round(self):
        self.pending, self.drawn, self.eaves, self.passes = [], [], [], []
        self.round_done = False
        slots = [s for s in range(self.nheld()) if not self.known[s]]
        slots += [s for s in sorted(self.bet_held) if s not in self.bet_known]
        if slots:
            self.phase, self.why, self.wait = 'reveal', 'roundend', slots
            return [('reveal', slots)]
        return self.finish_round()
    def finish_round(self):
        w = self.round_win
        v = 2 * self.round - 1
        if w >= 0:
            self.rewards[w] += v
            if self.n > 2:                                   # bets on the winner's character pay the reward's value
                wc = self.known[self.held(w)[0]]
                for sl, h in self.bet_held.items():
                    if self.bet_known.get(sl) == 16 + wc: self.roses[h] += v
        for p in range(self.n):                              # each unspent jewel: a rose
            if self.jewels[p]: self.jewels[p] = False; self.roses[p] += 1
        self.spent += self.actions
        self.prev_chars = list(self.known[:self.nheld()])     # the characters played, for the next round's abilities
        self.note('round %d won by %s%s' % (self.round, 'nobody' if w < 0 else 'seat %d' % w,
                                           ' (talismans)' if self.by_talismans else ''))
        if self.round == 3 or any(self.tot(p) >= 10 for p in range(self.n)):
            self.phase = 'over'; self.game_over = True
            best = []
            for p in range(self.n):
                if not best: best = [p]; continue
                q = best[0]
                if self.tot(p) > self.tot(q) or (self.tot(p) == self.tot(q) and self.rewards[p] > self.rewards[q]): best = [p]
                elif self.tot(p) == self.tot(q) and self.rewards[p] == self.rewards[q]: best.append(p)
            self.winners = best
            return []
        return self.new_round()
    def final(self, names):
        return dict(round=self.round, roses={names[i]: self.tot(i) for i in range(self.n)},
                    over=self.game_over, winners=[names[i] for i in (self.winners or [])])
