package main

import (
	"crypto/sha256"
	"sort"
)

type resp struct {
	kind   string // boon bane guess eaves maybet maydraw
	seat   int
	x      int
	causer int
	commit []byte
}

type roundEnd struct{}

type GrimmG struct {
	c                  *Coro
	n                  int
	bets, jewels, abil bool
	boonOf, baneOf     [17]int // item -> character
	fixed              [3]*fixedRound
	gid                []byte
	roses, rewards     []int
	usedActions        []int
	round              int
	// round state
	loc            map[int]string // slot -> deck,row,drawn,front,hand,discard,
	owner          map[int]int
	kind           map[int]int // public kinds of item slots
	deck           []int
	discard        []int
	row            []int
	masked         [][]int // per seat masked character slots
	unmasked       []bool
	tokens         map[int]map[int]bool // character -> seats with token
	tokLeft        []int
	broken         map[int]bool
	jewel          []bool
	betHeld        map[int]int // bet slot -> seat
	betTaken       []bool      // via unmasking/turn this round
	ability        []int
	lastChars      map[int]int // slot -> character (revealed/proven) this round
	public         map[int]bool
	actions        []int
	queue          []resp
	turnP          int
	hintedThisTurn bool
	prevChars      map[int]int
	winner         int
	moverIsTurn    bool
	causer         int
}

type fixedRound struct {
	mask    int
	chars   []int
	items   []int
	actions []int
	first   int
}

func (g *GrimmG) charSlots(p int) []int {
	if g.n == 2 {
		return []int{2 * p, 2*p + 1}
	}
	return []int{p}
}
func (g *GrimmG) cdTop() int {
	if g.n == 2 {
		return 4
	}
	return g.n
}

func (g *GrimmG) front(p int) []int {
	r := []int{}
	for s := 8; s < 56; s++ {
		if g.loc[s] == "front" && g.owner[s] == p {
			r = append(r, s)
		}
	}
	return r
}
func (g *GrimmG) hand(p int) []int {
	r := []int{}
	for s := 8; s < 56; s++ {
		if g.loc[s] == "hand" && g.owner[s] == p {
			r = append(r, s)
		}
	}
	return r
}
func (g *GrimmG) countFront(p, item int) int {
	c := 0
	for _, s := range g.front(p) {
		if g.kind[s] == item {
			c++
		}
	}
	return c
}
func (g *GrimmG) isMasked(p int) bool { return len(g.masked[p]) > 0 }

func (g *GrimmG) betDeck() []int {
	r := []int{}
	if !g.bets {
		return r
	}
	for s := 56; s < 64; s++ {
		if _, ok := g.betHeld[s]; !ok {
			r = append(r, s)
		}
	}
	return r
}

func (g *GrimmG) reveal(slots []int) []int {
	if len(slots) == 0 {
		return nil
	}
	f := g.c.need(Effect{Kind: "reveal", Slots: slots})
	for i, s := range slots {
		g.kind[s] = f.kinds[i]
	}
	return f.kinds
}

func (g *GrimmG) draw() int {
	if len(g.deck) == 0 {
		if len(g.discard) == 0 {
			return -1
		}
		sort.Ints(g.discard)
		g.deck = g.discard
		g.discard = nil
		for _, s := range g.deck {
			g.loc[s] = "deck"
			delete(g.kind, s)
		}
		g.c.emit(Effect{Kind: "shuffle", Slots: append([]int{}, g.deck...)})
	}
	s := g.deck[0]
	g.deck = g.deck[1:]
	return s
}

type landing struct{ slot, to, giver int }

func (g *GrimmG) land(ls []landing, actor int) {
	before := map[[2]int]int{}
	for p := 0; p < g.n; p++ {
		for it := 9; it <= 16; it++ {
			before[[2]int{p, it}] = g.countFront(p, it)
		}
	}
	for _, l := range ls {
		g.loc[l.slot] = "front"
		g.owner[l.slot] = l.to
	}
	boons, banes := []resp{}, []resp{}
	for k := 0; k < g.n; k++ {
		p := (actor + k) % g.n
		if !g.isMasked(p) {
			continue
		}
		for it := 9; it <= 16; it++ {
			b, a := before[[2]int{p, it}], g.countFront(p, it)
			if b < 3 && a >= 3 {
				boons = append(boons, resp{kind: "boon", seat: p, x: g.boonOf[it], causer: g.causer})
			}
			if b < 2 && a >= 2 {
				banes = append(banes, resp{kind: "bane", seat: p, x: g.baneOf[it], causer: g.causer})
			}
		}
	}
	g.queue = append(g.queue, boons...)
	g.queue = append(g.queue, banes...)
	if g.abil {
		for _, l := range ls {
			if l.giver == l.to {
				continue
			}
			it := g.kind[l.slot]
			if g.ability[l.giver] == 1 && (it == 14 || it == 15) {
				g.queue = append(g.queue, resp{kind: "eaves", seat: l.to, causer: l.giver})
			}
			if g.ability[l.giver] == 6 && (it == 11 || it == 9) {
				g.look(l.giver)
			}
		}
		for k := 0; k < g.n; k++ {
			p := (actor + k) % g.n
			if g.ability[p] == 4 && g.isMasked(p) {
				kinds := map[int]bool{}
				for _, s := range g.front(p) {
					kinds[g.kind[s]] = true
				}
				if len(kinds) >= 6 {
					g.winner = p
					panic(roundEnd{})
				}
				break
			}
		}
	}
}

func (g *GrimmG) look(p int) {
	t := g.cdTop()
	g.c.emit(Effect{Kind: "peek", Slots: []int{t}, Viewers: []int{p}})
	g.c.emit(Effect{Kind: "shuffle", Slots: rng(t, 8)})
}

func (g *GrimmG) legalPortraits(p int) int {
	c := 0
	for x := 1; x <= 8; x++ {
		if !g.broken[x] && !g.tokens[x][p] {
			c++
		}
	}
	return c - len(g.masked[p])
}

func (g *GrimmG) maskedSeats() []int {
	r := []int{}
	for p := 0; p < g.n; p++ {
		if g.isMasked(p) {
			r = append(r, p)
		}
	}
	return r
}

func (g *GrimmG) mayBet(p int) bool {
	return g.bets && !g.betTaken[p] && len(g.betDeck()) > 0
}

func (g *GrimmG) settled(r resp) bool {
	switch r.kind {
	case "maybet":
		return !g.mayBet(r.seat)
	case "maydraw":
		return !g.isMasked(r.seat) || (len(g.deck) == 0 && len(g.discard) == 0)
	}
	if !g.isMasked(r.seat) {
		return true
	}
	switch r.kind {
	case "boon", "bane":
		return g.broken[r.x] || g.tokens[r.x][r.seat]
	case "eaves":
		return g.legalPortraits(r.seat) <= 0
	}
	return false
}

func words16(a []int) ([]byte, bool) {
	b := []byte{}
	for _, w := range a {
		if w < 0 || w > 65535 {
			return nil, false
		}
		b = append(b, byte(w>>8), byte(w))
	}
	return b, true
}

func (g *GrimmG) hintEffects(p, x int) []Effect {
	e := []Effect{}
	for _, s := range g.masked[p] {
		e = append(e, Effect{Kind: "prove", Slots: []int{s}, Tag: 2, Kinds: []int{x}, Comp: 0})
	}
	return e
}

func (g *GrimmG) placeToken(p, x int) {
	if g.tokens[x] == nil {
		g.tokens[x] = map[int]bool{}
	}
	g.tokens[x][p] = true
	g.tokLeft[p]--
	if p == g.turnP {
		g.hintedThisTurn = true
	}
}

func (g *GrimmG) checkHint(p, x int, anyLegal bool, asked int) {
	if !anyLegal && x != asked {
		fail("bad-hint")
	}
	if x < 1 || x > 8 || g.broken[x] || g.tokens[x][p] || g.tokLeft[p] <= 0 {
		fail("bad-hint")
	}
}

// unmask/win slot arg
func (g *GrimmG) slotArg(p int, a []int) int {
	if len(a) == 0 {
		if len(g.masked[p]) != 1 {
			fail("bad-args")
		}
		return g.masked[p][0]
	}
	if len(a) != 1 {
		fail("bad-args")
	}
	if !contains(g.masked[p], a[0]) {
		fail("not-your-slot")
	}
	return a[0]
}

func (g *GrimmG) unmaskSlot(p, s, x int) {
	m := []int{}
	for _, y := range g.masked[p] {
		if y != s {
			m = append(m, y)
		}
	}
	g.masked[p] = m
	g.lastChars[s] = x
	g.public[s] = true
}

// process the response queue
func (g *GrimmG) responses() {
	for len(g.queue) > 0 {
		r := g.queue[0]
		if g.settled(r) {
			g.queue = g.queue[1:]
			continue
		}
		p := r.seat
		switch r.kind {
		case "maydraw":
			m := g.ask(p)
			if m.Kind != 11 && m.Kind != 5 {
				fail("wrong-move")
			}
			if len(m.Args) != 0 {
				fail("bad-args")
			}
			g.queue = g.queue[1:]
			if m.Kind == 11 {
				g.extraDraw(p)
			}
			continue
		case "maybet":
			m := g.ask(p)
			if m.Kind != 10 && m.Kind != 5 {
				fail("wrong-move")
			}
			if len(m.Args) != 0 {
				fail("bad-args")
			}
			if m.Kind == 10 {
				g.betLook(p)
				g.betTaken[p] = true
			}
			g.queue = g.queue[1:]
			continue
		case "eaves":
			m := g.ask(p)
			if m.Kind != 6 {
				fail("wrong-move")
			}
			a := m.Args
			if len(a) != 1 && len(a) != 9 {
				fail("bad-args")
			}
			if r.commit != nil {
				if len(a) != 9 {
					fail("bad-commit")
				}
			} else if len(a) == 9 {
				fail("bad-args")
			}
			g.checkHint(p, a[0], true, 0)
			if r.commit != nil {
				nonce, ok := words16(a[1:])
				if !ok {
					fail("bad-args")
				}
				h := sha256.New()
				h.Write([]byte("masque/grimm/eavesdrop/v1"))
				h.Write([]byte{byte(p), byte(a[0])})
				h.Write(nonce)
				if string(h.Sum(nil)) != string(r.commit) {
					fail("bad-commit")
				}
			}
			g.c.emit(g.hintEffects(p, a[0])...)
			g.placeToken(p, a[0])
			g.queue = g.queue[1:]
			continue
		}
		// boon, bane, guess
		m := g.ask(p)
		allowed := []int{6}
		if r.kind == "boon" {
			allowed = append(allowed, 8)
		} else {
			allowed = append(allowed, 7)
		}
		if !contains(allowed, m.Kind) {
			fail("wrong-move")
		}
		switch m.Kind {
		case 6:
			if len(m.Args) != 1 {
				if len(m.Args) == 9 {
					fail("bad-args")
				}
				fail("bad-args")
			}
			g.checkHint(p, m.Args[0], false, r.x)
			g.c.emit(g.hintEffects(p, r.x)...)
			g.placeToken(p, r.x)
			g.queue = g.queue[1:]
			if r.kind == "guess" {
				g.roses[p]++
				a := r.causer
				if g.abil && g.ability[a] == 7 {
					g.look(a)
				}
				if g.abil && g.ability[a] == 5 {
					g.queue = append([]resp{{kind: "maydraw", seat: a}}, g.queue...)
				}
			}
		case 7:
			s := g.slotArg(p, m.Args)
			g.c.emit(Effect{Kind: "prove", Slots: []int{s}, Tag: 1, Kinds: []int{r.x}, Comp: 0})
			g.queue = g.queue[1:]
			g.broken[r.x] = true
			for q := range g.tokens[r.x] {
				g.tokLeft[q]++
			}
			g.tokens[r.x] = nil
			if r.causer != p && r.causer >= 0 {
				if r.kind == "bane" {
					g.roses[r.causer]++
				} else {
					g.roses[r.causer] += 2
				}
			}
			g.unmaskSlot(p, s, r.x)
			if !g.isMasked(p) {
				g.unmasked[p] = true
				if g.n > 2 {
					fr := g.front(p)
					for _, x := range fr {
						g.loc[x] = "hand"
						delete(g.kind, x)
					}
					if len(fr) > 0 {
						g.c.emit(Effect{Kind: "shuffle", Slots: fr, Seats: []int{p}})
					}
				}
			}
			ms := g.maskedSeats()
			if len(ms) <= 1 {
				g.winner = -1
				if len(ms) == 1 {
					g.winner = ms[0]
				}
				panic(roundEnd{})
			}
			if g.mayBet(p) {
				g.queue = append([]resp{{kind: "maybet", seat: p}}, g.queue...)
			}
		case 8:
			s := g.slotArg(p, m.Args)
			g.c.emit(Effect{Kind: "prove", Slots: []int{s}, Tag: 1, Kinds: []int{r.x}, Comp: 0})
			g.unmaskSlot(p, s, r.x)
			g.winner = p
			panic(roundEnd{})
		}
	}
}

func (g *GrimmG) ask(p int) *Move {
	m := g.c.ask(p)
	if m.Kind < 1 || m.Kind > 12 {
		fail("unknown-move")
	}
	return m
}

func (g *GrimmG) betLook(p int) {
	bd := g.betDeck()
	if len(bd) == 0 {
		return
	}
	for _, s := range bd {
		g.c.emit(Effect{Kind: "peek", Slots: []int{s}, Viewers: []int{p}})
	}
	m := g.ask(p)
	if m.Kind != 10 {
		fail("wrong-move")
	}
	if len(m.Args) != 1 {
		fail("bad-args")
	}
	if !contains(bd, m.Args[0]) {
		fail("bad-bet")
	}
	g.betHeld[m.Args[0]] = p
	left := g.betDeck()
	if len(left) > 1 {
		g.c.emit(Effect{Kind: "shuffle", Slots: left})
	}
}

func (g *GrimmG) validRecipient(mover, t int) bool {
	return t >= 0 && t < g.n && t != mover && g.isMasked(t)
}

// drawn card decision: keep or give; secondKept: first was kept
func (g *GrimmG) decideDrawn(p, s int, mustGive bool, keepAllowed bool) int {
	m := g.ask(p)
	if m.Kind != 2 && m.Kind != 3 {
		fail("wrong-move")
	}
	if m.Kind == 2 {
		if len(m.Args) != 0 {
			fail("bad-args")
		}
		if mustGive || !keepAllowed {
			fail("wrong-move")
		}
		return p
	}
	if len(m.Args) != 1 {
		fail("bad-args")
	}
	if !g.validRecipient(p, m.Args[0]) {
		fail("bad-target")
	}
	return m.Args[0]
}

func (g *GrimmG) extraDraw(p int) {
	s := g.draw()
	if s < 0 {
		return
	}
	g.loc[s] = "drawn"
	g.reveal([]int{s})
	to := g.decideDrawn(p, s, false, !(g.n > 2 && g.unmasked[p]))
	g.causer = p
	g.land([]landing{{s, to, p}}, p)
	g.responses()
}

func (g *GrimmG) run(c *Coro) {
	g.c = c
	g.roses = make([]int, g.n)
	g.rewards = make([]int, g.n)
	for g.round = 1; g.round <= 3; g.round++ {
		g.playRound()
		total := 0
		for p := 0; p < g.n; p++ {
			if g.roses[p]+g.rewards[p] >= 10 {
				total++
			}
		}
		if total > 0 {
			return
		}
	}
}

func (g *GrimmG) roundEffects() {
	r := g.round
	fr := g.fixed[r-1]
	if r > 1 {
		if fr == nil || fr.chars == nil {
			g.c.emit(Effect{Kind: "set", Slots: rng(0, 8), Kinds: rng(1, 9)})
			g.c.emit(Effect{Kind: "shuffle", Slots: rng(0, 8)})
		}
		if fr == nil || fr.items == nil {
			it := []int{}
			for k := 9; k <= 16; k++ {
				for j := 0; j < 6; j++ {
					it = append(it, k)
				}
			}
			g.c.emit(Effect{Kind: "set", Slots: rng(8, 56), Kinds: it})
			g.c.emit(Effect{Kind: "shuffle", Slots: rng(8, 56)})
		}
	}
	if fr != nil && fr.chars != nil {
		g.c.emit(Effect{Kind: "set", Slots: rng(0, 8), Kinds: fr.chars})
		if r == 1 {
		}
	}
	if fr != nil && fr.items != nil {
		g.c.emit(Effect{Kind: "set", Slots: rng(8, 56), Kinds: fr.items})
	}
	if r == 1 {
		if fr == nil || fr.chars == nil {
			g.c.emit(Effect{Kind: "shuffle", Slots: rng(0, 8)})
		}
		if fr == nil || fr.items == nil {
			g.c.emit(Effect{Kind: "shuffle", Slots: rng(8, 56)})
		}
	}
	if g.bets {
		if r > 1 {
			g.c.emit(Effect{Kind: "set", Slots: rng(56, 64), Kinds: rng(17, 25)})
		}
		g.c.emit(Effect{Kind: "shuffle", Slots: rng(56, 64)})
	}
	for p := 0; p < g.n; p++ {
		for _, s := range g.charSlots(p) {
			g.c.emit(Effect{Kind: "peek", Slots: []int{s}, Viewers: []int{p}})
		}
	}
}

func (g *GrimmG) playRound() {
	g.roundEffects()
	coin := g.c.need(Effect{Kind: "coin"}).coin
	// reset round state
	g.loc, g.owner, g.kind = map[int]string{}, map[int]int{}, map[int]int{}
	g.deck = rng(8, 56)
	for _, s := range g.deck {
		g.loc[s] = "deck"
	}
	g.discard, g.row = nil, nil
	g.masked = make([][]int, g.n)
	g.unmasked = make([]bool, g.n)
	for p := 0; p < g.n; p++ {
		g.masked[p] = g.charSlots(p)
	}
	g.tokens = map[int]map[int]bool{}
	g.tokLeft = make([]int, g.n)
	g.jewel = make([]bool, g.n)
	for p := range g.tokLeft {
		g.tokLeft[p] = 7
		g.jewel[p] = g.jewels
	}
	g.broken = map[int]bool{}
	g.betHeld = map[int]int{}
	g.betTaken = make([]bool, g.n)
	if g.round == 1 || g.ability == nil {
		g.ability = make([]int, g.n)
	}
	prevChars := g.lastChars
	g.lastChars = map[int]int{}
	g.public = map[int]bool{}
	g.queue = nil
	st := GrimmStream(coin, "round")
	// actions
	var deckA []int
	if g.n == 2 {
		deckA = []int{2, 5, 6, 7}
	} else if g.bets {
		deckA = []int{2, 3, 4, 5, 6, 7, 8}
	} else {
		deckA = []int{2, 3, 4, 5, 6, 7}
	}
	fr := g.fixed[g.round-1]
	if g.n == 2 && g.round == 2 {
		g.actions = without(deckA, g.usedActions)
	} else {
		list := deckA
		if g.n > 2 {
			list = without(deckA, g.usedActions)
		}
		list = append([]int{}, list...)
		i := st.Intn(len(list))
		a1 := list[i]
		list = append(list[:i], list[i+1:]...)
		i = st.Intn(len(list))
		a2 := list[i]
		g.actions = []int{a1, a2}
	}
	if fr != nil && fr.actions != nil {
		g.actions = fr.actions
	}
	g.usedActions = append(g.usedActions, g.actions...)
	// first player
	first := 0
	if g.round == 1 {
		first = st.Intn(g.n)
	} else {
		tot := func(p int) int { return g.roses[p] + g.rewards[p] }
		lo, hi := 1<<30, -1
		for p := 0; p < g.n; p++ {
			if tot(p) < lo {
				lo = tot(p)
			}
			if tot(p) > hi {
				hi = tot(p)
			}
		}
		low, high := []int{}, []int{}
		for p := 0; p < g.n; p++ {
			if tot(p) == lo {
				low = append(low, p)
			}
			if tot(p) == hi {
				high = append(high, p)
			}
		}
		if len(low) == 1 {
			first = low[0]
		} else if lo == hi {
			first = low[st.Intn(len(low))]
		} else {
			best := 1 << 30
			cand := []int{}
			for _, c := range low {
				d := 1 << 30
				for _, h := range high {
					x := ((c-h)%g.n + g.n) % g.n
					if x < d {
						d = x
					}
				}
				if d < best {
					best = d
					cand = []int{c}
				} else if d == best {
					cand = append(cand, c)
				}
			}
			if len(cand) == 1 {
				first = cand[0]
			} else {
				first = cand[st.Intn(len(cand))]
			}
		}
	}
	if fr != nil && fr.first >= 0 {
		first = fr.first
	}
	// abilities
	if g.round > 1 && g.abil {
		lo := 1 << 30
		tot := func(p int) int { return g.roses[p] + g.rewards[p] }
		for p := 0; p < g.n; p++ {
			if tot(p) < lo {
				lo = tot(p)
			}
		}
		g.ability = make([]int, g.n)
		for p := 0; p < g.n; p++ {
			if tot(p) != lo {
				continue
			}
			if g.n > 2 {
				g.ability[p] = prevChars[p]
			} else {
				m := g.ask(p)
				if m.Kind != 12 {
					fail("wrong-move")
				}
				if len(m.Args) != 1 || (m.Args[0] != prevChars[2*p] && m.Args[0] != prevChars[2*p+1]) {
					fail("bad-args")
				}
				g.ability[p] = m.Args[0]
			}
		}
		if g.bets {
			for p := 0; p < g.n; p++ {
				if g.ability[p] == 8 {
					bd := g.betDeck()
					if len(bd) > 0 {
						g.betHeld[bd[0]] = p
						g.c.emit(Effect{Kind: "peek", Slots: []int{bd[0]}, Viewers: []int{p}})
					}
				}
			}
		}
	} else if g.round == 1 {
		g.ability = make([]int, g.n)
	}
	g.winner = -1
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(roundEnd); ok {
					return
				}
				panic(r)
			}
		}()
		g.draft(first)
		t := first
		for {
			g.turn(t)
			t = (t + 1) % g.n
		}
	}()
	// round end
	g.queue = nil
	rv := []int{}
	for p := 0; p < g.n; p++ {
		for _, s := range g.charSlots(p) {
			if !g.public[s] {
				rv = append(rv, s)
			}
		}
	}
	sort.Ints(rv)
	bs := []int{}
	for s := 56; s < 64; s++ {
		if _, ok := g.betHeld[s]; ok {
			bs = append(bs, s)
		}
	}
	all := append(append([]int{}, rv...), bs...)
	if len(all) > 0 {
		f := g.c.need(Effect{Kind: "reveal", Slots: all})
		for i, s := range all {
			if s < 8 {
				g.lastChars[s] = f.kinds[i]
			} else {
				g.kind[s] = f.kinds[i]
			}
		}
	}
	rew := 2*g.round - 1
	if g.winner >= 0 {
		g.rewards[g.winner] += rew
		wc := g.lastChars[g.charSlots(g.winner)[0]]
		for s, p := range g.betHeld {
			if g.kind[s] == 16+wc {
				g.roses[p] += rew
			}
		}
	}
	for p := 0; p < g.n; p++ {
		if g.jewel[p] {
			g.roses[p]++
		}
	}
}

func (g *GrimmG) draft(first int) {
	k := g.n + 2
	np := g.n
	if g.n == 2 {
		k, np = 6, 4
	}
	row := []int{}
	for i := 0; i < k; i++ {
		s := g.draw()
		if s < 0 {
			break
		}
		row = append(row, s)
		g.loc[s] = "row"
	}
	g.reveal(row)
	g.row = row
	for i := 0; i < np; i++ {
		p := (first + i) % g.n
		m := g.ask(p)
		if m.Kind != 1 {
			fail("wrong-move")
		}
		if len(m.Args) != 1 {
			fail("bad-args")
		}
		s := -1
		for _, x := range g.row {
			if g.loc[x] == "row" && g.kind[x] == m.Args[0] {
				s = x
				break
			}
		}
		if s < 0 {
			fail("not-in-row")
		}
		g.causer = p
		g.land([]landing{{s, p, p}}, p)
		g.responses()
	}
	for _, x := range g.row {
		if g.loc[x] == "row" {
			g.loc[x] = "discard"
			g.discard = append(g.discard, x)
		}
	}
}

func (g *GrimmG) hasPairOrJewel(p int) bool {
	if !g.isMasked(p) {
		return false
	}
	cnt := map[int]int{}
	for _, s := range g.front(p) {
		cnt[g.kind[s]]++
	}
	for _, c := range cnt {
		if c >= 2 || (g.jewel[p] && c >= 1) {
			return true
		}
	}
	return false
}

func (g *GrimmG) turn(p int) {
	g.turnP = p
	g.hintedThisTurn = false
	if g.n > 2 && g.unmasked[p] {
		g.unmaskedTurn(p)
		return
	}
	if g.abil && g.ability[p] == 3 && g.isMasked(p) {
		cnt := map[int]int{}
		pair := false
		for _, s := range g.front(p) {
			cnt[g.kind[s]]++
			if cnt[g.kind[s]] >= 2 {
				pair = true
			}
		}
		if !pair {
			g.queue = append(g.queue, resp{kind: "maydraw", seat: p})
			g.responses()
			if g.n > 2 && g.unmasked[p] {
				g.unmaskedTurn(p)
				return
			}
		}
	}
	firstKept := false
	s := g.draw()
	if s >= 0 {
		g.loc[s] = "drawn"
		g.reveal([]int{s})
		to := g.decideDrawn(p, s, false, true)
		firstKept = to == p
		g.causer = p
		g.land([]landing{{s, to, p}}, p)
		g.responses()
	}
	s2 := g.draw()
	if s2 >= 0 {
		g.loc[s2] = "drawn"
		g.reveal([]int{s2})
		to := p
		if firstKept {
			to = g.decideDrawn(p, s2, true, false)
		}
		g.causer = p
		g.land([]landing{{s2, to, p}}, p)
		g.responses()
	}
	if g.hasPairOrJewel(p) {
		g.actionStep(p)
	}
	if g.abil && g.ability[p] == 2 && g.isMasked(p) && g.hintedThisTurn {
		g.extraDraw(p)
	}
}

func (g *GrimmG) unmaskedTurn(p int) {
	s := g.draw()
	if s >= 0 {
		g.loc[s] = "hand"
		g.owner[s] = p
		g.c.emit(Effect{Kind: "peek", Slots: []int{s}, Viewers: []int{p}})
		g.c.emit(Effect{Kind: "shuffle", Slots: g.hand(p), Seats: []int{p}})
	}
	canBet := func() bool { return g.bets && !g.betTaken[p] && len(g.betDeck()) > 0 }
	if len(g.hand(p)) == 0 && !canBet() {
		return
	}
	for {
		m := g.ask(p)
		if m.Kind == 10 {
			if len(m.Args) != 0 {
				fail("bad-args")
			}
			if !canBet() {
				fail("wrong-move")
			}
			g.betLook(p)
			g.betTaken[p] = true
			if len(g.hand(p)) == 0 {
				return
			}
			continue
		}
		if m.Kind != 3 {
			fail("wrong-move")
		}
		if len(m.Args) != 2 {
			fail("bad-args")
		}
		if !g.validRecipient(p, m.Args[0]) {
			fail("bad-target")
		}
		if !contains(g.hand(p), m.Args[1]) {
			fail("not-your-slot")
		}
		hs := m.Args[1]
		g.reveal([]int{hs})
		g.causer = p
		g.land([]landing{{hs, m.Args[0], p}}, p)
		g.responses()
		return
	}
}

func (g *GrimmG) pay(p, item, k int) {
	for i := 0; i < k; i++ {
		for _, s := range g.front(p) {
			if g.kind[s] == item {
				g.loc[s] = "discard"
				g.discard = append(g.discard, s)
				break
			}
		}
	}
}

func (g *GrimmG) actionStep(p int) {
	m := g.ask(p)
	if m.Kind == 5 {
		if len(m.Args) != 0 {
			fail("bad-args")
		}
		return
	}
	if m.Kind != 4 {
		fail("wrong-move")
	}
	a := m.Args
	if len(a) < 3 {
		fail("bad-args")
	}
	act, item, jw := a[0], a[1], a[2]
	if act < 1 || act > 8 {
		fail("bad-args")
	}
	if act != 1 && !contains(g.actions, act) {
		fail("action-unavailable")
	}
	if jw != 0 && jw != 1 {
		fail("bad-args")
	}
	if jw == 1 && !g.jewel[p] {
		fail("no-jewel")
	}
	need := 2
	if jw == 1 {
		need = 1
	}
	if item < 9 || item > 16 || g.countFront(p, item) < need {
		fail("no-pair")
	}
	own := a[3:]
	// own args checks
	switch act {
	case 1:
		if len(own) != 2 {
			fail("bad-args")
		}
		if !g.validRecipient(p, own[0]) {
			fail("bad-target")
		}
		if own[1] < 1 || own[1] > 8 || g.broken[own[1]] || g.tokens[own[1]][own[0]] {
			fail("bad-guess")
		}
	case 2:
		if g.n == 2 && len(own) != 1 || len(own) != 1 && len(own) != 2 || len(own) == 2 && own[0] == own[1] {
			fail("bad-args")
		}
		for _, t := range own {
			if !g.validRecipient(p, t) {
				fail("bad-target")
			}
		}
	case 4:
		if len(own) != 2 || (own[0] != 1 && own[0] != -1) {
			fail("bad-args")
		}
	case 7:
		if len(own) != 2 {
			fail("bad-args")
		}
		if !g.validRecipient(p, own[0]) {
			fail("bad-target")
		}
	default:
		if len(own) != 0 {
			fail("bad-args")
		}
	}
	if act == 4 || act == 7 {
		left := g.countFront(p, own[1])
		if own[1] == item {
			left -= need
		}
		if own[1] < 9 || own[1] > 16 || left <= 0 {
			fail("no-item")
		}
	}
	// pay
	if jw == 1 {
		g.jewel[p] = false
	}
	g.pay(p, item, need)
	if g.n == 2 && act != 1 {
		g.roses[p]++
	}
	g.causer = p
	switch act {
	case 1:
		g.queue = append(g.queue, resp{kind: "guess", seat: own[0], x: own[1], causer: p})
		g.responses()
	case 2:
		rem := []int{}
		for _, t := range own {
			if g.legalPortraits(t) > 0 {
				rem = append(rem, t)
			}
		}
		if len(rem) == 2 {
			cs := [][]byte{}
			for _, t := range rem {
				m := g.ask(t)
				if m.Kind != 9 {
					fail("wrong-move")
				}
				if len(m.Args) != 16 {
					fail("bad-args")
				}
				b, ok := words16(m.Args)
				if !ok {
					fail("bad-args")
				}
				cs = append(cs, b)
			}
			for i, t := range rem {
				g.queue = append(g.queue, resp{kind: "eaves", seat: t, causer: p, commit: cs[i]})
			}
		} else {
			for _, t := range rem {
				g.queue = append(g.queue, resp{kind: "eaves", seat: t, causer: p})
			}
		}
		g.responses()
	case 3:
		t := g.cdTop()
		g.c.emit(Effect{Kind: "peek", Slots: []int{t}, Viewers: []int{p}})
		g.c.emit(Effect{Kind: "peek", Slots: []int{t + 1}, Viewers: []int{p}})
		g.c.emit(Effect{Kind: "shuffle", Slots: rng(t, 8)})
	case 6:
		t := g.cdTop()
		g.c.emit(Effect{Kind: "peek", Slots: []int{t}, Viewers: []int{p}})
		g.c.emit(Effect{Kind: "shuffle", Slots: rng(t, 8)})
		s := g.draw()
		if s >= 0 {
			g.loc[s] = "drawn"
			g.reveal([]int{s})
			to := g.decideDrawn(p, s, false, true)
			g.land([]landing{{s, to, p}}, p)
			g.responses()
		}
	case 5:
		ss := []int{}
		for i := 0; i < 2; i++ {
			s := g.draw()
			if s >= 0 {
				g.loc[s] = "drawn"
				ss = append(ss, s)
			}
		}
		if len(ss) > 0 {
			g.reveal(ss)
			m := g.ask(p)
			if m.Kind != 3 {
				fail("wrong-move")
			}
			if len(m.Args) != len(ss) {
				fail("bad-args")
			}
			for _, t := range m.Args {
				if !g.validRecipient(p, t) {
					fail("bad-target")
				}
			}
			ls := []landing{}
			for i, s := range ss {
				ls = append(ls, landing{s, m.Args[i], p})
			}
			g.land(ls, p)
			g.responses()
		}
	case 4, 7:
		gift := -1
		for _, s := range g.front(p) {
			if g.kind[s] == own[1] {
				gift = s
				break
			}
		}
		coin := g.c.need(Effect{Kind: "coin"}).coin
		type pass struct{ slot, from, to int }
		passes := []pass{}
		if act == 4 {
			dir := own[0]
			nextM := func(q int) int {
				for k := 1; k < g.n; k++ {
					x := ((q+dir*k)%g.n + g.n) % g.n
					if !g.unmasked[x] {
						return x
					}
				}
				return -1
			}
			st := GrimmStream(coin, "dance")
			passes = append(passes, pass{gift, p, nextM(p)})
			for k := 1; k < g.n; k++ {
				q := (p + k) % g.n
				var cand []int
				if g.unmasked[q] {
					cand = g.hand(q)
				} else {
					cand = g.front(q)
				}
				if len(cand) == 0 {
					continue
				}
				passes = append(passes, pass{cand[st.Intn(len(cand))], q, nextM(q)})
			}
		} else {
			t := own[0]
			st := GrimmStream(coin, "exchange")
			list := g.front(t)
			passes = append(passes, pass{gift, p, t})
			for i := 0; i < 2 && len(list) > 0; i++ {
				j := st.Intn(len(list))
				passes = append(passes, pass{list[j], t, p})
				list = append(list[:j], list[j+1:]...)
			}
		}
		hs := []int{}
		for _, ps := range passes {
			if g.loc[ps.slot] == "hand" {
				hs = append(hs, ps.slot)
			}
		}
		if len(hs) > 0 {
			g.reveal(hs)
		}
		ls := []landing{}
		for _, ps := range passes {
			ls = append(ls, landing{ps.slot, ps.to, ps.from})
		}
		g.land(ls, p)
		g.responses()
	case 8:
		g.betLook(p)
	}
}
