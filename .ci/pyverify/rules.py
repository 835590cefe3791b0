# The Mascarade rules (1st and 2nd editions) as docs/protocol.md §4.2,
# docs/rules-mascarade.md and docs/rules-mascarade2.md describe them: which
# seat is due, the hidden swaps and requests each move causes, and the coins.
SWAP, PEEK, CLAIM, CHALLENGE, PASS, USE, GUESS = 1, 2, 3, 4, 5, 6, 7

NAMES1 = {1: 'Judge', 2: 'Bishop', 3: 'King', 4: 'Fool', 5: 'Queen', 6: 'Thief', 7: 'Witch', 8: 'Spy',
          9: 'Peasant', 10: 'Cheat', 11: 'Inquisitor', 12: 'Widow'}
NAMES2 = {1: 'Empress', 2: 'Widow', 3: 'Guru', 4: 'Beggar', 5: 'King', 6: 'Thief', 7: 'Fool', 8: 'Judge',
          9: 'Spy', 10: 'Puppeteer', 11: 'Princess', 12: 'Sorceress', 13: 'Patron', 14: 'Cheater',
          15: 'Peasant', 16: 'Swindler'}


class RuleFault(Exception):
    def __init__(self, rid, detail=''):
        self.reason = 'rule:' + rid; self.detail = detail


class Rules:
    def __init__(self, game, opts, n):
        self.ed2 = game == 'mascarade2'
        self.names = NAMES2 if self.ed2 else NAMES1
        self.kinds = 17 if self.ed2 else 13          # card kinds 0..K-1 (protocol.md §2.2.1)
        self.n = n
        self.set = list(opts['set'])
        if self.ed2:
            self.per = 1
        else:
            self.per = 1 if n >= 4 else (2 if n == 3 else 3)
        self.nslots = len(self.set)                   # players' cards, then the centre
        self.coins = [opts['coins']] * n
        self.bank = (200 if self.ed2 else 194) - sum(self.coins)
        self.court = 0
        self.chair_of = list(range(n)); self.seat_at = list(range(n))
        self.turn_no = 1; self.turn_at = 0; self.state = 'turn'
        self.rev_prev = set(); self.rev_now = set()
        self.winners = None
        self.clear_claim()

    # ---- table
    def seat_after(self, p, k):
        if self.ed2: return self.seat_at[(self.chair_of[p] + k) % self.n]
        return (p + k) % self.n
    def turn_seat(self): return self.seat_at[self.turn_at] if self.ed2 else self.turn_at
    def valid(self, t): return 0 <= t < self.nslots
    def owner(self, t):
        """(seat, position) of slot t, or None for a centre slot or no slot"""
        if self.ed2:
            return (self.seat_at[t], 0) if 0 <= t < self.n else None
        return (t // self.per, t % self.per) if 0 <= t < self.n * self.per else None
    def owns(self, p, t):
        o = self.owner(t); return o is not None and o[0] == p
    def is_guard(self, t):
        o = self.owner(t); return not self.ed2 and o is not None and self.per == 3 and o[1] == 2
    def card_of(self, p): return self.chair_of[p] if self.ed2 else p * self.per
    def other_seat(self, me, t): return 0 <= t < self.n and t != me
    def richest(self, except_):
        best, out = -1, []
        for i, c in enumerate(self.coins):
            if i == except_: continue
            if c > best: best, out = c, [i]
            elif c == best: out.append(i)
        return out
    def take(self, frm, to, k):
        """move up to k coins; frm/to are seats or 'bank'/'court'"""
        have = self.bank if frm == 'bank' else (self.court if frm == 'court' else self.coins[frm])
        k = min(k, have)
        if frm == 'bank': self.bank -= k
        elif frm == 'court': self.court -= k
        else: self.coins[frm] -= k
        if to == 'court': self.court += k
        elif to == 'bank': self.bank += k
        else: self.coins[to] += k

    # ---- turn bookkeeping
    def clear_claim(self):
        self.claimed = None; self.contenders = []; self.responder = 0; self.queue = []
        self.pair = False; self.impostors = []; self.user = None; self.target = None
        self.guess = None; self.pending = []
    def end_turn(self):
        self.rev_prev, self.rev_now = self.rev_now, set()
        self.turn_no += 1; self.turn_at = (self.turn_at + 1) % self.n
        self.state = 'turn'; self.clear_claim()
    def check_end(self):
        if self.state == 'over': return True
        win = [i for i, c in enumerate(self.coins) if c >= 13]
        if not win and 0 in self.coins: win = self.richest(-1)
        if win: self.finish(win); return True
        return False
    def finish(self, win):
        self.clear_claim(); self.state = 'over'; self.winners = win

    def due(self):
        s = self.state
        if s == 'turn': return self.turn_seat()
        if s == 'respond': return self.seat_after(self.contenders[0][0], self.responder)
        if s in ('use', 'spy'): return self.user[0]
        if s == 'guess': return self.target
        return None     # waiting for a reveal's cards, or over

    # ---- moves: each returns (hidden swaps [(a, b)], requests [(kind, slots, who)])
    def move(self, seat, mk, args):
        if self.state == 'over': raise RuleFault('game-over')
        if self.due() is None: raise RuleFault('waiting-for-facts')
        if seat != self.due(): raise RuleFault('not-your-turn')
        if not 1 <= mk <= 7: raise RuleFault('unknown-move')
        return {'turn': self.play_turn, 'respond': self.respond, 'use': self.play_use,
                'spy': self.spy_swap, 'guess': self.take_guess}[self.state](seat, mk, args)

    def argc(self, args, k):
        if len(args) != k: raise RuleFault('bad-args')
    def valid_card(self, c): return 1 <= c < self.kinds and c in self.set

    def play_turn(self, seat, mk, args):
        if self.ed2:
            if mk not in (SWAP, PEEK, CLAIM): raise RuleFault('wrong-move')
            if mk != SWAP and self.turn_no <= 4: raise RuleFault('preparatory-swap')
            if mk == CLAIM and seat in self.rev_prev: raise RuleFault('revealed-no-claim')
        elif mk != SWAP:
            if mk not in (PEEK, CLAIM): raise RuleFault('wrong-move')
            if self.turn_no <= 4: raise RuleFault('preparatory-swap')
            if seat in self.rev_prev: raise RuleFault('revealed-must-swap')
        if mk == SWAP:
            self.argc(args, 2); own, t = args
            if not self.owns(seat, own): raise RuleFault('not-your-slot')
            target_ok = self.valid(t) and not self.owns(seat, t) and not self.is_guard(t)
            own_pair = (not self.ed2 and self.per > 1 and own != t and self.owns(seat, t))
            if not (target_ok or own_pair): raise RuleFault('bad-target')
            self.end_turn(); return [(own, t)], []
        if mk == PEEK:
            self.argc(args, 1); own = args[0]
            if not self.owns(seat, own): raise RuleFault('not-your-slot')
            self.end_turn(); return [], [('peek', [own], seat)]
        self.argc(args, 2); c, own = args
        if not self.valid_card(c): raise RuleFault('not-in-play')
        if not self.owns(seat, own) or self.is_guard(own): raise RuleFault('not-your-slot')
        self.claimed = c; self.contenders = [(seat, own)]; self.responder = 1; self.state = 'respond'
        return [], []

    def respond(self, seat, mk, args):
        if mk == PASS: self.argc(args, 0)
        elif mk == CHALLENGE:
            self.argc(args, 1)
            if not self.owns(seat, args[0]): raise RuleFault('not-your-slot')
            self.contenders.append((seat, args[0]))
        else: raise RuleFault('wrong-move')
        self.responder += 1
        if self.responder < self.n: return [], []
        if len(self.contenders) == 1:
            self.queue = [self.contenders[0]]; self.resolve(); return [], []
        self.state = 'reveal'
        self.pending = [slot for _, slot in self.contenders]
        return [], [('reveal', list(self.pending), None)]

    def learn(self, kinds):
        """the cards of the pending public reveal, in its slot order"""
        if self.state not in ('reveal', 'guess-reveal'): raise RuleFault('no-facts-wanted')
        if len(kinds) != len(self.pending) or any(k not in self.set for k in kinds):
            raise RuleFault('bad-facts')
        self.pending = []
        if self.state == 'reveal':
            owners = []
            for (s, slot), k in zip(self.contenders, kinds):
                self.rev_now.add(s)
                if k == self.claimed: owners.append((s, slot))
                else: self.impostors.append(s)
            self.queue = owners
            self.pair = self.shared() and len(owners) == 2
            self.resolve(); return
        self.rev_now.add(self.target)
        if kinds[0] != self.guess: self.take(self.target, self.user[0], 4)
        if self.check_end(): return
        self.resolve()

    def shared(self): return self.names.get(self.claimed) == 'Peasant'

    def resolve(self):
        while self.queue:
            if self.shared():
                k = 2 if self.pair else 1
                for s, _ in self.queue: self.take('bank', s, k)
                self.queue = []
                if self.check_end(): return
                continue
            o = self.queue.pop(0)
            choose = self.power(o)
            if self.check_end(): return
            if choose:
                self.user = o; self.state = 'use'; return
        if self.impostors:
            for p in self.impostors: self.take(p, 'court', 1)
            self.impostors = []
            if self.check_end(): return
        self.end_turn()

    def power(self, o):
        """apply owner o's power as far as it goes without a choice; True if o must choose"""
        p = o[0]; name = self.names[self.claimed]
        if self.ed2:
            if name == 'Princess': self.take('bank', p, 2)
            if name == 'Fool': self.take('bank', p, 1)
            if name in ('Fool', 'Spy', 'Guru', 'Puppeteer', 'Princess', 'Sorceress'): return True
            if name == 'Swindler' and len(self.richest(p)) > 1: return True
        else:
            if name in ('Fool', 'Witch', 'Spy', 'Inquisitor'): return True
            if name == 'Bishop' and len(self.richest(p)) > 1: return True
        if name == 'Judge': self.coins[p] += self.court; self.court = 0
        elif name in ('Bishop', 'Swindler'): self.take(self.richest(p)[0], p, 2)
        elif name == 'King': self.take('bank', p, 2 if self.ed2 else 3)
        elif name == 'Queen': self.take('bank', p, 2)
        elif name == 'Empress': self.take('bank', p, 3)
        elif name == 'Thief':
            right, left = self.seat_after(p, -1), self.seat_after(p, 1)
            for nb in ([right, left] if right != left else [left]): self.take(nb, p, 1)
        elif name in ('Cheat', 'Cheater'):
            if self.coins[p] >= 10: self.finish([p])
        elif name == 'Widow':
            if self.coins[p] < 10: self.take('bank', p, 10 - self.coins[p])
        elif name == 'Beggar':
            for k in range(1, self.n):
                q = self.seat_after(p, k)
                if self.coins[q] > self.coins[p]: self.take(q, p, 1)
        elif name == 'Patron':
            self.take('bank', p, 3)
            self.take('bank', self.seat_after(p, 1), 1); self.take('bank', self.seat_after(p, -1), 1)
        return False

    def continue_(self):
        if not self.check_end(): self.resolve()

    def fool_pair(self, p, a, b):
        if a == b: return False
        oa, ob = self.owner(a), self.owner(b)
        if oa is None or ob is None or oa[0] == p or ob[0] == p: return False
        if self.ed2: return True
        if self.is_guard(a) or self.is_guard(b): return False
        return oa[0] != ob[0] or self.n == 2

    def play_use(self, seat, mk, args):
        if mk != USE: raise RuleFault('wrong-move')
        u = self.user; name = self.names[self.claimed]
        swaps, reqs = [], []
        if name in ('Bishop', 'Swindler'):
            self.argc(args, 1)
            if args[0] not in self.richest(u[0]):
                raise RuleFault('bishop-not-richest' if name == 'Bishop' else 'swindler-not-richest')
            self.take(args[0], u[0], 2)
        elif name in ('Witch', 'Sorceress'):
            self.argc(args, 1)
            if args[0] != -1:
                t = args[0]
                if not self.other_seat(u[0], t): raise RuleFault('bad-target')
                self.coins[t], self.coins[u[0]] = self.coins[u[0]], self.coins[t]
        elif name == 'Fool':
            self.argc(args, 2); a, b = args
            if not self.fool_pair(u[0], a, b): raise RuleFault('bad-target')
            if not self.ed2: self.take('bank', u[0], 1)
            swaps = [(a, b)]
        elif name == 'Spy':
            self.argc(args, 1); t = args[0]
            if self.ed2: ok = self.owner(t) is not None and self.owner(t)[0] != u[0]
            else: ok = self.valid(t) and not self.owns(u[0], t) and not self.is_guard(t)
            if not ok: raise RuleFault('bad-target')
            self.pending = [t]; self.state = 'spy'
            return [], [('peek', [u[1]], u[0]), ('peek', [t], u[0])]
        elif name in ('Inquisitor', 'Guru'):
            self.argc(args, 1)
            if not self.other_seat(u[0], args[0]): raise RuleFault('bad-target')
            self.target = args[0]; self.state = 'guess'
            return [], []
        elif name == 'Princess':
            self.argc(args, 1); t = args[0]
            if not self.other_seat(u[0], t): raise RuleFault('bad-target')
            reqs = [('others', [self.chair_of[t]], t)]
        elif name == 'Puppeteer':
            self.argc(args, 2); a, b = args
            if a == b or not self.other_seat(u[0], a) or not self.other_seat(u[0], b): raise RuleFault('bad-target')
            self.take(a, u[0], 1); self.take(b, u[0], 1)
            if self.check_end(): return [], []
            ca, cb = self.chair_of[a], self.chair_of[b]
            self.seat_at[ca], self.seat_at[cb] = b, a
            self.chair_of[a], self.chair_of[b] = cb, ca
            self.coins[a], self.coins[b] = self.coins[b], self.coins[a]
        else:
            raise RuleFault('wrong-move')
        self.continue_()
        return swaps, reqs

    def spy_swap(self, seat, mk, args):
        if mk != USE: raise RuleFault('wrong-move')
        self.argc(args, 0)
        u, t = self.user, self.pending[0]
        self.pending = []; self.state = 'use'
        swaps = [(u[1], t)]
        self.continue_()
        return swaps, []

    def take_guess(self, seat, mk, args):
        if mk != GUESS: raise RuleFault('wrong-move')
        self.argc(args, 1)
        if not self.valid_card(args[0]): raise RuleFault('not-in-play')
        self.guess = args[0]; self.state = 'guess-reveal'
        self.pending = [self.card_of(self.target)]
        return [], [('reveal', list(self.pending), None)]
