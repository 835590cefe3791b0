package main

// power names
const (
	pJudge = iota + 1
	pBishop
	pKing
	pFool
	pQueen
	pThief
	pWitch
	pSpy
	pPeasant
	pCheat
	pInquisitor
	pWidow
	pEmpress
	pBeggar
	pPuppeteer
	pPrincess
	pPatron
)

var powers1 = map[int]int{1: pJudge, 2: pBishop, 3: pKing, 4: pFool, 5: pQueen, 6: pThief, 7: pWitch, 8: pSpy, 9: pPeasant, 10: pCheat, 11: pInquisitor, 12: pWidow}
var powers2 = map[int]int{1: pEmpress, 2: pWidow, 3: pInquisitor, 4: pBeggar, 5: pKing, 6: pThief, 7: pFool, 8: pJudge, 9: pSpy, 10: pPuppeteer, 11: pPrincess, 12: pWitch, 13: pPatron, 14: pCheat, 15: pPeasant, 16: pBishop}

type contender struct{ seat, slot int }

type Masc struct {
	ed, n, per, c, m int
	set              []int
	purse            []int
	court, bank      int
	chair, atChair   []int
	turn, place      int
	rprev, rnow      map[int]bool
	phase            string
	claimant, card   int
	cont             []contender
	answers          int
	owners           []contender
	impostors        []int
	useO, useS       int
	spyT             int
	guessQ, guessBy  int
	guessCard        int
	over             bool
	peasantAmt       int
	winners          []int
}

func newMasc(ed int, n, coins, c int, set []int) *Masc {
	g := &Masc{ed: ed, n: n, c: c, set: set, m: len(set)}
	g.per = 1
	if ed == 1 {
		if n == 2 {
			g.per = 3
		} else if n == 3 {
			g.per = 2
		}
	}
	total := 194
	if ed == 2 {
		total = 200
	}
	for i := 0; i < n; i++ {
		g.purse = append(g.purse, coins)
		g.chair = append(g.chair, i)
		g.atChair = append(g.atChair, i)
	}
	g.bank = total - n*coins
	g.turn, g.place = 1, 0
	g.rprev, g.rnow = map[int]bool{}, map[int]bool{}
	g.phase = "turn"
	return g
}

func (g *Masc) power(card int) int {
	if g.ed == 1 {
		return powers1[card]
	}
	return powers2[card]
}

func (g *Masc) Opening() []Effect { return nil }

func (g *Masc) seatAtPlace(pl int) int {
	if g.ed == 1 {
		return pl % g.n
	}
	return g.atChair[pl%g.n]
}
func (g *Masc) clockwise(p, k int) int {
	if g.ed == 1 {
		return ((p+k)%g.n + g.n) % g.n
	}
	return g.atChair[((g.chair[p]+k)%g.n+g.n)%g.n]
}
func (g *Masc) ownSlots(p int, guard bool) []int {
	if g.ed == 2 {
		return []int{g.chair[p]}
	}
	r := []int{}
	for i := 0; i < g.per; i++ {
		if i == 2 && !guard {
			continue
		}
		r = append(r, p*g.per+i)
	}
	return r
}
func (g *Masc) firstSlot(p int) int {
	if g.ed == 2 {
		return g.chair[p]
	}
	return p * g.per
}
func contains(a []int, x int) bool {
	for _, y := range a {
		if y == x {
			return true
		}
	}
	return false
}
func (g *Masc) isGuard(s int) bool { return g.ed == 1 && g.per == 3 && s < g.n*g.per && s%3 == 2 }
func (g *Masc) slotOwner(s int) int { // seat holding slot (1e) or -1 for centre
	if g.ed == 1 {
		if s < g.n*g.per {
			return s / g.per
		}
		return -1
	}
	if s < g.n {
		return g.atChair[s]
	}
	return -1
}
func (g *Masc) nslots() int {
	if g.ed == 1 {
		return g.n*g.per + g.c
	}
	return g.m
}

func (g *Masc) Due() (int, bool) {
	if g.over {
		return -1, true
	}
	switch g.phase {
	case "turn":
		return g.seatAtPlace(g.place), false
	case "window":
		return g.clockwise(g.claimant, g.answers+1), false
	case "use", "spyswap":
		return g.useO, false
	case "guess":
		return g.guessQ, false
	case "wait":
		return -1, false
	}
	return -1, true
}

func (g *Masc) pay(from, to *int, k int) {
	if k > *from {
		k = *from
	}
	*from -= k
	*to += k
}

func (g *Masc) endCheck() {
	if g.over {
		return
	}
	w := []int{}
	for i, c := range g.purse {
		if c >= 13 {
			w = append(w, i)
		}
	}
	if len(w) > 0 {
		g.over, g.winners = true, w
		return
	}
	for _, c := range g.purse {
		if c == 0 {
			mx := -1
			for _, d := range g.purse {
				if d > mx {
					mx = d
				}
			}
			for i, d := range g.purse {
				if d == mx {
					w = append(w, i)
				}
			}
			g.over, g.winners = true, w
			return
		}
	}
}

func (g *Masc) richestOthers(o int) []int {
	mx := -1
	for i, c := range g.purse {
		if i != o && c > mx {
			mx = c
		}
	}
	r := []int{}
	for i, c := range g.purse {
		if i != o && c == mx {
			r = append(r, i)
		}
	}
	return r
}

func (g *Masc) endTurn() {
	g.turn++
	g.place = (g.place + 1) % g.n
	g.rprev = g.rnow
	g.rnow = map[int]bool{}
	g.phase = "turn"
}

// apply power without choice; returns true if a choice is needed
func (g *Masc) applyPower(o contender) bool {
	p := g.power(g.card)
	pu := &g.purse[o.seat]
	switch p {
	case pJudge:
		g.pay(&g.court, pu, g.court)
	case pKing:
		if g.ed == 1 {
			g.pay(&g.bank, pu, 3)
		} else {
			g.pay(&g.bank, pu, 2)
		}
	case pQueen:
		g.pay(&g.bank, pu, 2)
	case pEmpress:
		g.pay(&g.bank, pu, 3)
	case pWidow:
		if *pu < 10 {
			g.pay(&g.bank, pu, 10-*pu)
		}
	case pThief:
		if g.ed == 1 && g.n == 2 {
			g.pay(&g.purse[1-o.seat], pu, 1)
		} else {
			r := g.clockwise(o.seat, -1)
			l := g.clockwise(o.seat, 1)
			g.pay(&g.purse[r], pu, 1)
			g.pay(&g.purse[l], pu, 1)
		}
	case pCheat:
		if *pu >= 10 {
			g.over, g.winners = true, []int{o.seat}
		}
	case pBishop:
		r := g.richestOthers(o.seat)
		if len(r) == 1 {
			g.pay(&g.purse[r[0]], pu, 2)
		} else {
			return true
		}
	case pBeggar:
		for k := 1; k < g.n; k++ {
			q := g.clockwise(o.seat, k)
			if g.purse[q] > *pu {
				g.pay(&g.purse[q], pu, 1)
			}
		}
	case pPatron:
		g.pay(&g.bank, pu, 3)
		g.pay(&g.bank, &g.purse[g.clockwise(o.seat, 1)], 1)
		g.pay(&g.bank, &g.purse[g.clockwise(o.seat, -1)], 1)
	case pFool:
		if g.ed == 2 {
			g.pay(&g.bank, pu, 1)
		}
		return true
	case pPrincess:
		g.pay(&g.bank, pu, 2)
		return true
	case pWitch, pSpy, pInquisitor, pPuppeteer:
		return true
	}
	return false
}

// resolution from step 1
func (g *Masc) resolve() {
	for len(g.owners) > 0 {
		if g.power(g.card) == pPeasant {
			amt := 1
			if len(g.owners) == 2 {
				amt = 2
			}
			_ = amt
			for _, o := range g.owners {
				g.pay(&g.bank, &g.purse[o.seat], g.peasantAmt)
			}
			g.owners = nil
			g.endCheck()
			if g.over {
				return
			}
			continue
		}
		o := g.owners[0]
		g.owners = g.owners[1:]
		choice := g.applyPower(o)
		g.endCheck()
		if g.over {
			return
		}
		if choice {
			g.phase = "use"
			g.useO, g.useS = o.seat, o.slot
			return
		}
	}
	for _, i := range g.impostors {
		g.pay(&g.purse[i], &g.court, 1)
	}
	g.impostors = nil
	g.endCheck()
	if g.over {
		return
	}
	g.endTurn()
}

func (g *Masc) Move(seat int, m *Move) ([]Effect, string) {
	k, a := m.Kind, m.Args
	if k < 1 || k > 7 {
		return nil, "unknown-move"
	}
	switch g.phase {
	case "turn":
		if k != 1 && k != 2 && k != 3 {
			return nil, "wrong-move"
		}
		if k != 1 && g.turn <= 4 {
			return nil, "preparatory-swap"
		}
		if g.ed == 1 && k != 1 && g.rprev[seat] {
			return nil, "revealed-must-swap"
		}
		if g.ed == 2 && k == 3 && g.rprev[seat] {
			return nil, "revealed-no-claim"
		}
		switch k {
		case 1:
			if len(a) != 2 {
				return nil, "bad-args"
			}
			own, tg := a[0], a[1]
			if !contains(g.ownSlots(seat, true), own) {
				return nil, "not-your-slot"
			}
			ok := false
			if g.ed == 1 {
				if tg >= 0 && tg < g.nslots() && !contains(g.ownSlots(seat, true), tg) && !g.isGuard(tg) {
					ok = true
				}
				if (g.n == 2 || g.n == 3) && contains(g.ownSlots(seat, true), tg) && tg != own {
					ok = true
				}
			} else {
				ok = tg >= 0 && tg < g.m && tg != g.chair[seat]
			}
			if !ok {
				return nil, "bad-target"
			}
			g.endTurn()
			return []Effect{{Kind: "swap", Slots: []int{own, tg}, Seat: seat}}, ""
		case 2:
			if len(a) != 1 {
				return nil, "bad-args"
			}
			if !contains(g.ownSlots(seat, true), a[0]) {
				return nil, "not-your-slot"
			}
			g.endTurn()
			return []Effect{{Kind: "peek", Slots: []int{a[0]}, Viewers: []int{seat}}}, ""
		case 3:
			if len(a) != 2 {
				return nil, "bad-args"
			}
			if !contains(g.set, a[0]) {
				return nil, "not-in-play"
			}
			if !contains(g.ownSlots(seat, false), a[1]) {
				return nil, "not-your-slot"
			}
			g.phase = "window"
			g.claimant, g.card = seat, a[0]
			g.cont = []contender{{seat, a[1]}}
			g.answers = 0
			return nil, ""
		}
	case "window":
		if k == 5 {
			if len(a) != 0 {
				return nil, "bad-args"
			}
		} else if k == 4 {
			if len(a) != 1 {
				return nil, "bad-args"
			}
			if !contains(g.ownSlots(seat, true), a[0]) {
				return nil, "not-your-slot"
			}
			g.cont = append(g.cont, contender{seat, a[0]})
		} else {
			return nil, "wrong-move"
		}
		g.answers++
		if g.answers == g.n-1 {
			if len(g.cont) == 1 {
				g.owners = []contender{g.cont[0]}
				g.impostors = nil
				g.peasantAmt = 1
				g.resolve()
				return nil, ""
			}
			slots := []int{}
			for _, c := range g.cont {
				slots = append(slots, c.slot)
			}
			g.phase = "wait"
			return []Effect{{Kind: "reveal", Slots: slots, Purpose: "challenge"}}, ""
		}
		return nil, ""
	case "use":
		if k != 6 {
			return nil, "wrong-move"
		}
		return g.use(seat, a)
	case "spyswap":
		if k != 6 {
			return nil, "wrong-move"
		}
		if len(a) != 0 {
			return nil, "bad-args"
		}
		effs := []Effect{{Kind: "swap", Slots: []int{g.useS, g.spyT}, Seat: seat}}
		g.endCheck()
		if !g.over {
			g.resolve()
		}
		return effs, ""
	case "guess":
		if k != 7 {
			return nil, "wrong-move"
		}
		if len(a) != 1 {
			return nil, "bad-args"
		}
		if !contains(g.set, a[0]) {
			return nil, "not-in-play"
		}
		g.guessCard = a[0]
		g.phase = "wait"
		return []Effect{{Kind: "reveal", Slots: []int{g.firstSlot(g.guessQ)}, Purpose: "guess"}}, ""
	}
	return nil, "wrong-move"
}

func (g *Masc) use(o int, a []int) ([]Effect, string) {
	p := g.power(g.card)
	var effs []Effect
	switch p {
	case pBishop:
		if len(a) != 1 {
			return nil, "bad-args"
		}
		if !contains(g.richestOthers(o), a[0]) {
			if g.ed == 1 {
				return nil, "bishop-not-richest"
			}
			return nil, "swindler-not-richest"
		}
		g.pay(&g.purse[a[0]], &g.purse[o], 2)
	case pWitch:
		if len(a) != 1 {
			return nil, "bad-args"
		}
		t := a[0]
		if t != -1 {
			if t < 0 || t >= g.n || t == o {
				return nil, "bad-target"
			}
			g.purse[o], g.purse[t] = g.purse[t], g.purse[o]
		}
	case pFool:
		if len(a) != 2 {
			return nil, "bad-args"
		}
		x, y := a[0], a[1]
		if g.ed == 1 {
			ok := x != y && x >= 0 && y >= 0 && x < g.n*g.per && y < g.n*g.per && !g.isGuard(x) && !g.isGuard(y) &&
				g.slotOwner(x) != o && g.slotOwner(y) != o && (g.n == 2 || g.slotOwner(x) != g.slotOwner(y))
			if !ok {
				return nil, "bad-target"
			}
			g.pay(&g.bank, &g.purse[o], 1)
		} else {
			ok := x != y && x >= 0 && y >= 0 && x < g.n && y < g.n && x != g.chair[o] && y != g.chair[o]
			if !ok {
				return nil, "bad-target"
			}
		}
		effs = []Effect{{Kind: "swap", Slots: []int{x, y}, Seat: o}}
	case pSpy:
		if len(a) != 1 {
			return nil, "bad-args"
		}
		t := a[0]
		var ok bool
		if g.ed == 1 {
			ok = t >= 0 && t < g.nslots() && g.slotOwner(t) != o && !g.isGuard(t)
		} else {
			ok = t >= 0 && t < g.n && t != g.chair[o]
		}
		if !ok {
			return nil, "bad-target"
		}
		g.spyT = t
		g.phase = "spyswap"
		return []Effect{{Kind: "peek", Slots: []int{g.useS}, Viewers: []int{o}}, {Kind: "peek", Slots: []int{t}, Viewers: []int{o}}}, ""
	case pInquisitor:
		if len(a) != 1 {
			return nil, "bad-args"
		}
		t := a[0]
		if t < 0 || t >= g.n || t == o {
			return nil, "bad-target"
		}
		g.guessQ, g.guessBy = t, o
		g.phase = "guess"
		return nil, ""
	case pPrincess:
		if len(a) != 1 {
			return nil, "bad-args"
		}
		t := a[0]
		if t < 0 || t >= g.n || t == o {
			return nil, "bad-target"
		}
		effs = []Effect{{Kind: "show", Slots: []int{g.chair[t]}, Seat: t}}
	case pPuppeteer:
		if len(a) != 2 {
			return nil, "bad-args"
		}
		x, y := a[0], a[1]
		if x == y || x < 0 || y < 0 || x >= g.n || y >= g.n || x == o || y == o {
			return nil, "bad-target"
		}
		g.pay(&g.purse[x], &g.purse[o], 1)
		g.pay(&g.purse[y], &g.purse[o], 1)
		g.endCheck()
		if !g.over {
			cx, cy := g.chair[x], g.chair[y]
			g.chair[x], g.chair[y] = cy, cx
			g.atChair[cy], g.atChair[cx] = x, y
			g.purse[x], g.purse[y] = g.purse[y], g.purse[x]
		}
	default:
		return nil, "wrong-move"
	}
	g.phase = "resolving"
	g.endCheck()
	if !g.over {
		g.resolve()
	}
	return effs, ""
}

func (g *Masc) Facts(req *Request, kinds []int, coin []byte) []Effect {
	if req.Kind != "reveal" {
		return nil
	}
	if req.Purpose == "challenge" {
		g.owners, g.impostors = nil, nil
		for i, c := range g.cont {
			g.rnow[c.seat] = true
			if kinds[i] == g.card {
				g.owners = append(g.owners, c)
			} else {
				g.impostors = append(g.impostors, c.seat)
			}
		}
		g.peasantAmt = 1
		if len(g.owners) == 2 {
			g.peasantAmt = 2
		}
		g.resolve()
	} else if req.Purpose == "guess" {
		g.rnow[g.guessQ] = true
		if kinds[0] != g.guessCard {
			g.pay(&g.purse[g.guessQ], &g.purse[g.guessBy], 4)
		}
		g.endCheck()
		if !g.over {
			g.resolve()
		}
	}
	return nil
}
