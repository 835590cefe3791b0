# Rules of both Mascarade editions, as docs/rules-mascarade.md, docs/rules-mascarade2.md and
# docs/protocol.md §4.2 describe them (the 1st edition's 2- and 3-player variants included:
# two or three slots a seat, own-card swaps, the guard, the Spy's contended slot).
from fmt import go_lower
from r255 import EncodingError

class RuleFault(Exception):
    def __init__(self, reason, detail=''):
        self.reason = reason; self.detail = detail

M1 = {1: 'Judge', 2: 'Bishop', 3: 'King', 4: 'Fool', 5: 'Queen', 6: 'Thief', 7: 'Witch', 8: 'Spy',
      9: 'Peasant', 10: 'Cheat', 11: 'Inquisitor', 12: 'Widow'}
M2 = {1: 'Empress', 2: 'Widow', 3: 'Guru', 4: 'Beggar', 5: 'King', 6: 'Thief', 7: 'Fool', 8: 'Judge',
      9: 'Spy', 10: 'Puppeteer', 11: 'Princess', 12: 'Sorceress', 13: 'Patron', 14: 'Cheater',
      15: 'Peasant', 16: 'Swindler'}
SWAP, PEEK, CLAIM, CHALLENGE, PASS, USE, GUESS = 1, 2, 3, 4, 5, 6, 7

def parse_options(game, b, roster_names):
    """protocol.md §2.2.1; raises ValueError when not canonical / not allowed"""
    from fmt import R
    r = R(b); o = {}
    if r.u8() != 1: raise ValueError('version')
    n = r.u8()
    o['names'] = [r.bu8().decode() for _ in range(n)]
    o['coins'] = r.u8()
    o['centre'] = r.u8() if game == 'mascarade' else None
    m = r.u8(); o['set'] = list(r.take(m))
    if not r.done(): raise ValueError('trailing bytes')
    if o['set'] != sorted(o['set']): raise ValueError('set out of order')
    K = 13 if game == 'mascarade' else 17
    if any(not 1 <= k < K for k in o['set']): raise ValueError('unknown card')
    if not 1 <= o['coins'] <= 12: raise ValueError('coins')
    if game == 'mascarade':
        if not 2 <= n <= 13: raise ValueError('players')   # book: 2..13 (variants 2, 3)
        if o['centre'] > 2: raise ValueError('centre')
        if n in (4, 5) and o['centre'] != 6 - n: raise ValueError('centre with 4-5 players')
        per = 3 if n == 2 else 2 if n == 3 else 1
        if n in (2, 3):
            if o['centre'] != 0 or m != 6: raise ValueError('variant set size')
        elif m != n + o['centre']: raise ValueError('set size')
        if 1 not in o['set']: raise ValueError('judge-required')
        if o['set'].count(9) not in (0, 2): raise ValueError('peasants-pair')
        o['per'] = per
    else:
        if not 4 <= n <= 12: raise ValueError('players')
        o['centre'] = m - n
        if n <= 5 and o['centre'] != 2: raise ValueError('set-size')
        if not 0 <= o['centre'] <= 2: raise ValueError('set-size')
        if 8 not in o['set']: raise ValueError('judge-required')
        if o['set'].count(15) not in (0, 2): raise ValueError('peasants-pair')
        o['per'] = 1
    for k in set(o['set']):
        if o['set'].count(k) > (2 if k == (9 if game == 'mascarade' else 15) else 1): raise ValueError('copies')
    # protocol.md §13.1: the purses fit in the box, a third of the set brings bank coins,
    # the cards for 6+ and 8+ players, the names
    if n * o['coins'] > (194 if game == 'mascarade' else 200): raise ValueError('coins: the box')
    bank = (3, 4, 5, 9, 12) if game == 'mascarade' else (1, 2, 5, 7, 11, 13, 15)
    if 3 * sum(1 for k in o['set'] if k in bank) < m: raise ValueError('bank-third')
    minp = {9: 8, 11: 8} if game == 'mascarade' else {15: 8, 3: 8, 10: 6, 11: 6}
    if any(n < minp.get(k, 0) for k in o['set']): raise ValueError('min-players')
    seen = set()
    for name in o['names']:
        if not valid_name(name): raise ValueError('name %r' % name)
        if go_lower(name) in seen: raise ValueError('name %r twice' % name)
        seen.add(go_lower(name))
    if o['names'] != roster_names:
        # protocol.md §2.2.1: the roster is refused (the caller)
        o['names_differ'] = True
    return o

def valid_name(s):
    # protocol.md §13.1: 1..32 bytes; ASCII letters, digits, '_', '-', or non-ASCII letters; not reserved
    import unicodedata
    if not 1 <= len(s.encode()) <= 32: return False
    for ch in s:
        if ch in '_-' or ('0' <= ch <= '9') or ('a' <= ch <= 'z') or ('A' <= ch <= 'Z'): continue
        if ord(ch) > 127 and unicodedata.category(ch).startswith('L'): continue
        return False
    return go_lower(s) not in ('centre1', 'centre2', 'center1', 'center2', 'none')

class Mascarade:
    def __init__(self, game, opts, n):
        self.ed2 = game == 'mascarade2'
        self.names = M2 if self.ed2 else M1
        self.n = n; self.opts = opts; self.per = opts['per']
        self.centre = opts['centre']; self.set = opts['set']
        self.coins = [opts['coins']] * n
        self.bank = (200 if self.ed2 else 194) - sum(self.coins); self.court = 0
        self.chair = list(range(n))         # seat -> chair
        self.turn_chair = 0; self.turns = 0
        self.revealed_prev = set(); self.revealed_now = set()
        self.state = 'turn'; self.winners = None
        self.pending = []                   # queued continuation after a use / a reveal
    # ------------------------------------------------------------ geometry
    def nslots(self): return self.n * self.per + self.centre
    def seat_at(self, chair): return self.chair.index(chair)
    def own_slots(self, seat):
        c = self.chair[seat]
        return list(range(c * self.per, c * self.per + self.per))
    def slot_owner(self, slot):
        if slot < self.n * self.per: return self.seat_at(slot // self.per)
        return None
    def is_guard(self, slot): return self.per == 3 and slot < self.n * 3 and slot % 3 == 2
    def main_slot(self, seat): return self.own_slots(seat)[0]
    def over(self): return self.state == 'over'
    # ------------------------------------------------------------ due
    def due(self):
        if self.state == 'turn': return self.seat_at(self.turn_chair)
        if self.state == 'window': return self.responders[0]
        if self.state in ('use', 'spy2'): return self.user
        if self.state == 'guess': return self.target
        return None            # over, or waiting for a request to complete
    def rule(self, rid, d=''): raise RuleFault('rule:' + rid, d)
    # ------------------------------------------------------------ coins
    def take_bank(self, s, k):
        k = min(k, self.bank); self.bank -= k; self.coins[s] += k
    def pay(self, frm, to, k):
        k = min(k, self.coins[frm]); self.coins[frm] -= k
        if to == 'court': self.court += k
        else: self.coins[to] += k
    def end_check(self):
        if self.state == 'over': return True
        if max(self.coins) >= 13:
            self.winners = [i for i in range(self.n) if self.coins[i] >= 13]
        elif min(self.coins) <= 0:
            m = max(self.coins); self.winners = [i for i in range(self.n) if self.coins[i] == m]
        if self.winners is not None: self.state = 'over'; return True
        return False
    def next_turn(self):
        self.turns += 1
        self.turn_chair = (self.turn_chair + 1) % self.n
        self.revealed_prev = self.revealed_now; self.revealed_now = set()
        self.state = 'turn'
    def neighbours(self, s):
        c = self.chair[s]
        right = self.seat_at((c - 1) % self.n); left = self.seat_at((c + 1) % self.n)
        return [right] if right == left else [right, left]
    # ------------------------------------------------------------ moves
    def move(self, seat, mk, args):
        """returns a list of effects: ('swap', a, b), ('reveal', slots), ('peek', slots, viewer),
        ('others', slots, except)"""
        if mk == 0 or mk > 7: self.rule('unknown-move')
        st = self.state
        if st == 'turn': return self.turn_move(seat, mk, args)
        if st == 'window': return self.respond(seat, mk, args)
        if st in ('use', 'spy2'): return self.use(seat, mk, args)
        if st == 'guess': return self.guess(seat, mk, args)
        self.rule('wrong-move')
    def turn_move(self, seat, mk, args):
        mine = self.own_slots(seat)
        if mk not in (SWAP, PEEK, CLAIM): self.rule('wrong-move')
        if self.turns < 4 and mk != SWAP: self.rule('preparatory-swap')
        if seat in self.revealed_prev:
            if not self.ed2 and mk != SWAP: self.rule('revealed-must-swap')
            if self.ed2 and mk == CLAIM: self.rule('revealed-no-claim')
        if mk == SWAP:
            if len(args) != 2: self.rule('bad-args')
            a, b = args
            if a not in mine: self.rule('not-your-slot')
            if not 0 <= b < self.nslots() or b == a: self.rule('bad-target')
            if b in mine:
                if self.per == 1: self.rule('bad-target')
                if self.per == 3 and self.is_guard(a) and False: pass
            else:
                if self.is_guard(b): self.rule('bad-target')
                if self.per > 1 and self.slot_owner(b) is None: self.rule('bad-target')
            self.next_turn()
            return [('swap', a, b)]
        if mk == PEEK:
            if len(args) != 1: self.rule('bad-args')
            if args[0] not in mine: self.rule('not-your-slot')
            self.next_turn()
            return [('peek', [args[0]], seat)]
        # claim
        if len(args) != 2: self.rule('bad-args')
        kind, slot = args
        if kind not in self.set: self.rule('not-in-play')          # §13.3: the card first, then the slot
        if slot not in mine or self.is_guard(slot): self.rule('not-your-slot')
        self.claim = (seat, kind, slot); self.challengers = []
        self.responders = [self.seat_at((self.turn_chair + i) % self.n) for i in range(1, self.n)]
        self.state = 'window'
        return []
    def respond(self, seat, mk, args):
        if mk == CHALLENGE:
            if len(args) != 1: self.rule('bad-args')
            if args[0] not in self.own_slots(seat): self.rule('not-your-slot')
            self.challengers.append((seat, args[0]))
        elif mk == PASS:
            if args: self.rule('bad-args')
        else:
            self.rule('wrong-move')
        self.responders.pop(0)
        if self.responders: return []
        cl, kind, slot = self.claim
        if self.challengers:
            self.contenders = [(cl, slot)] + self.challengers
            for s, _ in self.contenders: self.revealed_now.add(s)
            self.state = 'wait'; self.waiting = 'claim-reveal'
            return [('reveal', [sl for _, sl in self.contenders])]
        self.fines = []
        self.queue = [('power', cl, kind, slot)]
        return self.run()
    # facts from a completed public reveal
    def revealed(self, slots, kinds):
        if self.waiting == 'claim-reveal':
            cl, kind, _ = self.claim
            owners = [(s, sl) for (s, sl), k in zip(self.contenders, kinds) if k == kind]
            self.fines = [s for (s, _), k in zip(self.contenders, kinds) if k != kind]
            name = self.names[kind]
            if name == 'Peasant' and len(owners) == 2:
                self.queue = [('peasants2', [s for s, _ in owners])]
            else:
                # each owner uses the power with the slot it contended with (protocol.md §4.2)
                self.queue = [('power', o, kind, sl) for o, sl in owners]
            return self.run()
        if self.waiting == 'guess-reveal':
            if kinds[0] != self.guessed: self.pay(self.target, self.user, 4)
            if self.end_check(): return []
            return self.run()
        raise RuleFault('invalid', 'unexpected reveal')
    def peeks_done(self):
        if self.state == 'wait' and self.waiting == 'spy-peeks':
            self.state = 'spy2'
    def run(self):
        """continue the queued powers, then fines, then the next turn"""
        while self.queue:
            item = self.queue.pop(0)
            if item[0] == 'peasants2':
                for o in item[1]: self.take_bank(o, 2)
                if self.end_check(): return []
                continue
            _, o, kind, self.user_slot = item
            need = self.power(o, self.names[kind])
            if self.end_check(): return []
            if need:
                self.user = o; self.power_name = self.names[kind]; self.state = 'use'
                return []
        for s in self.fines: self.pay(s, 'court', 1)
        self.fines = []
        if self.end_check(): return []
        self.next_turn()
        return []
    def richest_others(self, o):
        others = [i for i in range(self.n) if i != o]
        m = max(self.coins[i] for i in others)
        return [i for i in others if self.coins[i] == m]
    def power(self, o, name):
        e2 = self.ed2
        if name == 'King': self.take_bank(o, 2 if e2 else 3)
        elif name == 'Queen': self.take_bank(o, 2)
        elif name == 'Empress': self.take_bank(o, 3)
        elif name == 'Widow':
            if self.coins[o] < 10: self.take_bank(o, 10 - self.coins[o])
        elif name == 'Judge': self.coins[o] += self.court; self.court = 0
        elif name == 'Thief':
            for nb in self.neighbours(o): self.pay(nb, o, 1)
        elif name in ('Cheat', 'Cheater'):
            if self.coins[o] >= 10: self.winners = [o]; self.state = 'over'
        elif name in ('Bishop', 'Swindler'):
            r = self.richest_others(o)
            if len(r) == 1: self.pay(r[0], o, 2)
            else: return True
        elif name == 'Peasant': self.take_bank(o, 1)
        elif name == 'Princess': self.take_bank(o, 2); return True
        elif name == 'Fool':
            if e2: self.take_bank(o, 1)      # 2e: the coin first (13 ends the game before the swap)
            return True                      # 1e: the coin comes with the use move
        elif name == 'Patron':
            self.take_bank(o, 3)
            c = self.chair[o]
            for nb in (self.seat_at((c + 1) % self.n), self.seat_at((c - 1) % self.n)):
                if nb != o: self.take_bank(nb, 1)
        elif name == 'Beggar':
            c = self.chair[o]
            for i in range(1, self.n):
                s = self.seat_at((c + i) % self.n)
                if self.coins[s] > self.coins[o]: self.pay(s, o, 1)
        elif name in ('Witch', 'Sorceress', 'Puppeteer', 'Spy', 'Inquisitor', 'Guru'):
            return True
        return False
    def seat_arg(self, a, o, allow_self=False):
        if not 0 <= a < self.n or (a == o and not allow_self): self.rule('bad-target')
        return a
    def use(self, seat, mk, args):
        if mk != USE: self.rule('wrong-move')
        o = self.user; name = self.power_name
        if self.state == 'spy2':
            if args: self.rule('bad-args')
            self.state = 'x'
            eff = [('swap', self.spy_own, self.spy_target)]
            return eff + self.run()
        if name in ('Bishop', 'Swindler'):
            if len(args) != 1: self.rule('bad-args')
            t = args[0]                 # §13.5: any value not among the richest others (o, −1, out of range)
            if t not in self.richest_others(o): self.rule('bishop-not-richest' if name == 'Bishop' else 'swindler-not-richest')
            self.pay(t, o, 2)
            if self.end_check(): return []
            return self.run()
        if name in ('Witch', 'Sorceress'):
            if len(args) != 1: self.rule('bad-args')
            if args[0] != -1:
                t = self.seat_arg(args[0], o)
                self.coins[o], self.coins[t] = self.coins[t], self.coins[o]
                if self.end_check(): return []
            return self.run()
        if name in ('Inquisitor', 'Guru'):
            if len(args) != 1: self.rule('bad-args')
            self.target = self.seat_arg(args[0], o)
            self.state = 'guess'
            return []
        if name == 'Fool':
            if len(args) != 2: self.rule('bad-args')
            a, b = args
            ok = lambda s: 0 <= s < self.n * self.per and self.slot_owner(s) != o and not self.is_guard(s)
            if not ok(a) or not ok(b) or a == b: self.rule('bad-target')
            if self.n > 2 and self.slot_owner(a) == self.slot_owner(b): self.rule('bad-target')
            self.state = 'x'
            if not self.ed2:
                self.take_bank(o, 1)         # rules-mascarade.md 18: the coin, then the end check after the use
                if self.end_check(): return [('swap', a, b)]
            return [('swap', a, b)] + self.run()
        if name == 'Spy':
            if len(args) != 1: self.rule('bad-args')
            t = args[0]
            own = self.user_slot     # the slot the Spy claimed or challenged with
            if not 0 <= t < self.nslots() or self.slot_owner(t) == o or self.is_guard(t): self.rule('bad-target')
            if self.ed2 and self.slot_owner(t) is None: self.rule('bad-target')
            self.spy_own, self.spy_target = own, t
            self.state = 'wait'; self.waiting = 'spy-peeks'
            return [('peek', [own], o), ('peek', [t], o)]
        if name == 'Princess':
            if len(args) != 1: self.rule('bad-args')
            t = self.seat_arg(args[0], o)
            self.state = 'x'
            return [('others', [self.main_slot(t)], t)] + self.run()
        if name == 'Puppeteer':
            if len(args) != 2: self.rule('bad-args')
            a = self.seat_arg(args[0], o); b = self.seat_arg(args[1], o)
            if a == b: self.rule('bad-target')
            self.pay(a, o, 1); self.pay(b, o, 1)
            if self.end_check(): return []
            # rules-mascarade2.md 29: each now owns the card and the purse in front of the other's old chair
            self.chair[a], self.chair[b] = self.chair[b], self.chair[a]
            self.coins[a], self.coins[b] = self.coins[b], self.coins[a]
            return self.run()
        raise RuleFault('invalid', 'no use for ' + name)
    def guess(self, seat, mk, args):
        if mk != GUESS: self.rule('wrong-move')
        if len(args) != 1: self.rule('bad-args')
        if args[0] not in self.set: self.rule('not-in-play')
        self.guessed = args[0]
        self.revealed_now.add(self.target)
        self.state = 'wait'; self.waiting = 'guess-reveal'
        return [('reveal', [self.main_slot(self.target)])]
    def final(self, names):
        return dict(turn=self.turns, court=self.court, coins={names[i]: self.coins[i] for i in range(self.n)},
                    over=self.over(), winners=[names[i] for i in (self.winners or [])])
