package main

import "sort"

type Mafia struct {
	n          int
	deck       []int
	noInc      bool
	tieDraw    bool
	fixed      bool
	fixedRoles []int
	fixedInc   []int
	roleKinds  []int

	living   []bool
	revealed []int
	hands    [][]int
	pile     []int
	stale    bool
	joined   bool
	day      int
	phase    string // question, vote, dayanswer, nightanswer, dateanswer, wait, over
	answered map[int]bool
	yes      int
	votes    map[int]int
	cond     int
	// night
	T                             []int
	item2, item3, item4, item5    bool
	killHolders                   []int
	attacked, saved, dated, dying map[int]bool
	aq                            []int
	bHit                          bool
	answerers                     []int // §12.5: the seats that answered an attack with a card tonight
	dateAt                        []int // the seats the answerers' tally opens at (nil: the whole date tally)
	drawRounds                    int
	joinDue                       bool
	elimCtx                       string // day, night, leave, date
	after                         string // what finish leads to: vote, night
	date                          int
	pendingProt                   []int
	resume                        string
	madVictim                     int
	tied                          []int
	vtest                         int // the one-vote kill's card under test (§12.5)
}

func newMafia(n int, deck []int, noInc, tieDraw bool, roles, incs []int) *Mafia {
	g := &Mafia{n: n, deck: deck, noInc: noInc, tieDraw: tieDraw, fixedRoles: roles, fixedInc: incs, fixed: roles != nil}
	for _, k := range deck {
		if !contains(g.roleKinds, k) {
			g.roleKinds = append(g.roleKinds, k)
		}
	}
	for i := 0; i < n; i++ {
		g.living = append(g.living, true)
		g.revealed = append(g.revealed, -1)
		g.hands = append(g.hands, nil)
	}
	if !noInc {
		for p := 0; p < n; p++ {
			g.hands[p] = []int{n + p}
		}
		for s := 2 * n; s < n+20; s++ {
			g.pile = append(g.pile, s)
		}
	}
	g.day = 1
	g.phase = "opening"
	return g
}

func (g *Mafia) Opening() []Effect {
	e := []Effect{}
	if g.fixedRoles != nil {
		e = append(e, Effect{Kind: "set", Slots: rng(0, g.n), Kinds: g.fixedRoles})
	} else {
		e = append(e, Effect{Kind: "shuffle", Slots: rng(0, g.n)})
	}
	if !g.noInc {
		if g.fixedInc != nil {
			e = append(e, Effect{Kind: "set", Slots: rng(g.n, g.n+20), Kinds: g.fixedInc})
		} else {
			e = append(e, Effect{Kind: "shuffle", Slots: rng(g.n, g.n+20)})
		}
	}
	e = append(e, Effect{Kind: "peek", Slots: rng(0, g.n), Viewers: rng(0, g.n), Comps: []int{0, 1, 3}})
	if !g.noInc {
		e = append(e, Effect{Kind: "peek", Slots: rng(g.n, 2*g.n), Viewers: rng(0, g.n), Comps: []int{0}})
	}
	e = append(e, Effect{Kind: "actions", Seats: rng(0, g.n), Parts: []ActPart{{Kind: "tag"}}, Purpose: "tags1"})
	return e
}

func (g *Mafia) livingSeats() []int {
	r := []int{}
	for i := 0; i < g.n; i++ {
		if g.living[i] {
			r = append(r, i)
		}
	}
	return r
}
func (g *Mafia) inPlay(r int) bool { return g.countInPlay(r) > 0 }
func (g *Mafia) countInPlay(r int) int {
	c := 0
	for _, k := range g.deck {
		if k == r {
			c++
		}
	}
	for i := 0; i < g.n; i++ {
		if !g.living[i] && g.revealed[i] == r {
			c--
		}
	}
	return c
}
func (g *Mafia) nextLiving(p, dir int) int {
	for k := 1; k < g.n; k++ {
		q := ((p+dir*k)%g.n + g.n) % g.n
		if g.living[q] {
			return q
		}
	}
	return -1
}

func (g *Mafia) firstUnanswered() int {
	for _, p := range g.livingSeats() {
		if !g.answered[p] {
			return p
		}
	}
	return -1
}

func (g *Mafia) Due() (int, bool) {
	switch g.phase {
	case "over":
		return -1, true
	case "question", "vote":
		return g.firstUnanswered(), false
	case "dayanswer":
		return g.cond, false
	case "nightanswer":
		return g.aq[0], false
	case "dateanswer":
		return g.date, false
	}
	return -1, false
}

func (g *Mafia) startQuestion() {
	g.phase = "question"
	g.answered = map[int]bool{}
	g.yes = 0
}
func (g *Mafia) startVote() []Effect {
	g.phase = "vote"
	g.answered = map[int]bool{}
	g.votes = map[int]int{}
	return nil
}

func (g *Mafia) startNight() []Effect {
	g.day++
	g.T = g.livingSeats()
	g.phase = "wait"
	if g.inPlay(5) {
		g.killHolders = []int{5}
	} else if g.joined && g.inPlay(6) {
		g.killHolders = []int{4, 6}
	} else {
		g.killHolders = []int{4}
	}
	g.item2 = g.inPlay(6) && !g.joined
	g.item3 = g.inPlay(2)
	g.item4 = g.inPlay(3)
	g.item5 = g.inPlay(1)
	g.attacked, g.saved, g.dated, g.dying = map[int]bool{}, map[int]bool{}, map[int]bool{}, map[int]bool{}
	g.aq = nil
	g.bHit = false
	g.answerers = nil
	parts := []ActPart{{Kind: "ballot", Power: 1, Holders: g.killHolders, Roles: g.roleKinds}}
	if g.item2 {
		parts = append(parts, ActPart{Kind: "ballot", Power: 2, Holders: []int{6}, Roles: g.roleKinds})
	}
	if g.item3 {
		parts = append(parts, ActPart{Kind: "ballot", Power: 3, Holders: []int{2}, Roles: g.roleKinds})
	}
	if g.item4 {
		parts = append(parts, ActPart{Kind: "ballot", Power: 4, Holders: []int{3}, Roles: g.roleKinds})
	}
	if g.item5 {
		tc := 1
		if g.joined {
			tc = 2
		}
		parts = append(parts, ActPart{Kind: "check", Power: 5, Holders: []int{1}, Roles: g.roleKinds, Mandatory: true, TargetComp: tc, Neutral: 13})
	}
	return []Effect{{Kind: "actions", Seats: g.T, Targets: g.T, Parts: parts, Purpose: "night"}}
}

// attackTally is §12.5 item 6.
func (g *Mafia) attackTally() []Effect {
	if !g.inPlay(5) {
		c := 0
		for _, h := range g.killHolders {
			c += g.countInPlay(h)
		}
		if c == 2 {
			// a one-vote kill (§5, §12.5 item 6): the one-vote mix by T,
			// then the test of card 0
			g.vtest = 0
			return []Effect{
				{Kind: "vmix", Tally: []TallyPart{{Power: 1}}, Seats: g.T, Purpose: "mix"},
				{Kind: "test", Tally: []TallyPart{{Power: 1}}, Seat: 0, Purpose: "test"},
			}
		}
		if c > 2 {
			// a plurality kill (§5): lookups and the vote mix by T, the vote
			// tests, the kill table's mix by T, the row tests, then the pick
			// of the true row's payload (card 0), adding power 2 if item 2
			// was asked; only the pick brings facts
			pl := []TallyPart{{Power: 1}}
			return append([]Effect{
				{Kind: "lookup", Tally: pl, Seats: g.T, K: c, Purpose: "plural"},
				{Kind: "pmix", Tally: pl, Seats: g.T, K: c, Purpose: "plural"},
				{Kind: "ptest", Tally: pl, K: c, Purpose: "plural"},
				{Kind: "rmix", Tally: pl, Seats: g.T, K: c, Purpose: "plural"},
				{Kind: "rtest", Tally: pl, K: c, Purpose: "plural"},
			}, g.pick(0)...)
		}
	}
	if g.item2 {
		return []Effect{{Kind: "tally", Tally: []TallyPart{{Power: 1, Add: []int{2}}}, Purpose: "attack-added"}}
	}
	return []Effect{{Kind: "tally", Tally: []TallyPart{{Power: 1}}, Purpose: "attack"}}
}

// pick asks §5's pick of pair k of power 1, adding power 2 if item 2 was asked.
func (g *Mafia) pick(k int) []Effect {
	tp := TallyPart{Power: 1}
	if g.item2 {
		tp.Add = []int{2}
	}
	return []Effect{{Kind: "pick", Tally: []TallyPart{tp}, Seat: k, Purpose: "pick"}}
}

func (g *Mafia) protect(A []int) []Effect {
	tp := []TallyPart{}
	if g.item3 {
		tp = append(tp, TallyPart{Power: 3, Seats: A})
	}
	if g.item4 {
		tp = append(tp, TallyPart{Power: 4, Seats: A})
	}
	g.pendingProt = A
	if len(tp) == 0 {
		return nil
	}
	return []Effect{{Kind: "tally", Tally: tp, Purpose: "protect"}}
}

func (g *Mafia) setVictims(v []int) []Effect {
	// ascending unique
	vs := []int{}
	for _, t := range g.T {
		if contains(v, t) {
			vs = append(vs, t)
		}
	}
	for _, x := range vs {
		g.attacked[x] = true
	}
	g.aq = append([]int{}, vs...)
	if e := g.protect(vs); e != nil {
		return e
	}
	return g.answers()
}

// answers loop
func (g *Mafia) answers() []Effect {
	for len(g.aq) > 0 {
		t := g.aq[0]
		if g.saved[t] || g.dated[t] || g.dying[t] || !g.living[t] {
			g.aq = g.aq[1:]
			continue
		}
		if !g.noInc && len(g.hands[t]) > 0 {
			g.phase = "nightanswer"
			return nil
		}
		g.aq = g.aq[1:]
		g.dying[t] = true
	}
	g.phase = "wait"
	if len(g.dying) > 0 {
		E := []int{}
		for i := 0; i < g.n; i++ {
			if g.dying[i] {
				E = append(E, i)
			}
		}
		return g.eliminate(E, "night")
	}
	return g.butterflyDate()
}

func (g *Mafia) butterflyDate() []Effect {
	if !g.item4 {
		return g.nightEnds()
	}
	if g.bHit {
		g.phase = "wait"
		g.dateAt = nil
		return []Effect{{Kind: "tally", Tally: []TallyPart{{Power: 4}}, Purpose: "date"}}
	}
	if len(g.answerers) > 0 {
		// §12.5: the answerers' tally, by the answerers (ascending) at the living targets
		g.phase = "wait"
		g.dateAt = nil
		for _, p := range g.T {
			if g.living[p] {
				g.dateAt = append(g.dateAt, p)
			}
		}
		v := append([]int(nil), g.answerers...)
		sort.Ints(v)
		return []Effect{{Kind: "tally", Tally: []TallyPart{{Power: 4, Seats: g.dateAt, Voters: v}}, Purpose: "date"}}
	}
	return g.nightEnds()
}

func (g *Mafia) nightEnds() []Effect {
	g.after = "vote"
	return g.finish()
}

func (g *Mafia) eliminate(E []int, ctx string) []Effect {
	g.elimCtx = ctx
	g.phase = "wait"
	return []Effect{{Kind: "reveal", Slots: E, Comps: []int{0}, Purpose: "elim"}}
}

func (g *Mafia) mafiaAlive() int {
	c := 0
	for _, k := range []int{4, 5, 6} {
		c += g.countInPlay(k)
	}
	return c
}
func (g *Mafia) winner() string {
	ma := g.mafiaAlive()
	ca := len(g.livingSeats()) - ma
	if ma == 0 {
		return "civ"
	}
	if ca <= 1 {
		return "mafia"
	}
	return ""
}

func (g *Mafia) endReveal() []Effect {
	g.phase = "wait"
	g.elimCtx = "end"
	return []Effect{{Kind: "reveal", Slots: g.livingSeats(), Comps: []int{0}, Purpose: "end"}}
}

func (g *Mafia) finish() []Effect {
	effs := []Effect{}
	for ; g.drawRounds > 0; g.drawRounds-- {
		if g.noInc || len(g.pile) == 0 {
			continue
		}
		if g.stale && !g.fixed {
			effs = append(effs, Effect{Kind: "shuffle", Slots: append([]int{}, g.pile...), Seats: g.livingSeats()})
			g.stale = false
		}
		var slots, viewers []int
		// join previous batch if last effect is draw peek
		if len(effs) > 0 && effs[len(effs)-1].Purpose == "draw" {
			slots, viewers = effs[len(effs)-1].Slots, effs[len(effs)-1].Viewers
			effs = effs[:len(effs)-1]
		}
		for _, p := range g.livingSeats() {
			if len(g.hands[p]) < 3 && len(g.pile) > 0 {
				s := g.pile[0]
				g.pile = g.pile[1:]
				g.hands[p] = append(g.hands[p], s)
				slots = append(slots, s)
				viewers = append(viewers, p)
			}
		}
		if len(slots) > 0 {
			effs = append(effs, Effect{Kind: "peek", Slots: slots, Viewers: viewers, Comps: []int{0}, Purpose: "draw"})
		}
	}
	w := g.winner()
	if g.joinDue {
		g.joinDue = false
		if g.inPlay(6) && w == "" {
			ls := g.livingSeats()
			effs = append(effs, Effect{Kind: "peek", Slots: ls, Viewers: ls, Comps: []int{4}})
			effs = append(effs, Effect{Kind: "actions", Seats: ls, Parts: []ActPart{{Kind: "tag"}}, Purpose: "tags2"})
		}
	}
	if w != "" {
		return append(effs, g.endReveal()...)
	}
	switch g.after {
	case "vote":
		g.startVote()
	case "night":
		effs = append(effs, g.startNight()...)
	case "resume":
		effs = append(effs, g.resumeLeave()...)
	}
	return effs
}

func (g *Mafia) resumeLeave() []Effect {
	switch g.resume {
	case "question":
		g.phase = "question"
		if g.firstUnanswered() < 0 {
			return g.closeQuestion()
		}
	case "vote":
		g.phase = "vote"
		for s, t := range g.votes {
			if t >= 0 && !g.living[t] {
				g.votes[s] = -1
			}
		}
		if g.firstUnanswered() < 0 {
			return g.countVotes()
		}
	case "dayanswer":
		return g.startNight()
	case "nightanswer":
		nq := []int{}
		for _, x := range g.aq {
			if g.living[x] {
				nq = append(nq, x)
			}
		}
		g.aq = nq
		for x := range g.dying {
			if !g.living[x] {
				delete(g.dying, x)
			}
		}
		return g.answers()
	case "dateanswer":
		return g.nightEnds()
	}
	return nil
}

func (g *Mafia) closeQuestion() []Effect {
	if 2*g.yes > len(g.livingSeats()) {
		return g.startVote()
	}
	return g.startNight()
}

func (g *Mafia) countVotes() []Effect {
	cnt := map[int]int{}
	for _, t := range g.votes {
		if t >= 0 {
			cnt[t]++
		}
	}
	top := 0
	for _, c := range cnt {
		if c > top {
			top = c
		}
	}
	if top == 0 {
		return g.startNight()
	}
	tops := []int{}
	for s := 0; s < g.n; s++ {
		if cnt[s] == top {
			tops = append(tops, s)
		}
	}
	if len(tops) > 1 {
		if g.tieDraw {
			return g.endReveal()
		}
		return g.startNight()
	}
	return g.condemn(tops[0])
}

func (g *Mafia) condemn(c int) []Effect {
	g.cond = c
	if !g.noInc && len(g.hands[c]) > 0 {
		g.phase = "dayanswer"
		return nil
	}
	g.after = "night"
	return g.eliminate([]int{c}, "day")
}

func (g *Mafia) playCard(p, slot int) {
	h := []int{}
	for _, s := range g.hands[p] {
		if s != slot {
			h = append(h, s)
		}
	}
	g.hands[p] = h
	g.pile = append(g.pile, slot)
	g.stale = true
}

func (g *Mafia) Move(seat int, m *Move) ([]Effect, string) {
	k, a := m.Kind, m.Args
	if k == 5 {
		if len(a) != 0 {
			return nil, "bad-args"
		}
		g.resume = g.phase
		g.after = "resume"
		return g.eliminate([]int{seat}, "leave"), ""
	}
	switch g.phase {
	case "question":
		if k != 1 {
			return nil, "wrong-move"
		}
		if len(a) != 1 || (a[0] != 0 && a[0] != 1) {
			return nil, "bad-args"
		}
		g.answered[seat] = true
		g.yes += a[0]
		if g.firstUnanswered() < 0 {
			return g.closeQuestion(), ""
		}
		return nil, ""
	case "vote":
		if k != 2 {
			return nil, "wrong-move"
		}
		if len(a) != 1 {
			return nil, "bad-args"
		}
		if a[0] != -1 && (a[0] == seat || a[0] < 0 || a[0] >= g.n || !g.living[a[0]]) {
			return nil, "bad-target"
		}
		g.answered[seat] = true
		g.votes[seat] = a[0]
		if g.firstUnanswered() < 0 {
			return g.countVotes(), ""
		}
		return nil, ""
	case "dayanswer", "dateanswer":
		if k == 3 {
			if len(a) != 0 {
				return nil, "bad-args"
			}
			if g.phase == "dateanswer" {
				g.after = "vote"
				return g.eliminate([]int{seat}, "date"), ""
			}
			g.after = "night"
			return g.eliminate([]int{seat}, "day"), ""
		}
		if k != 4 {
			return nil, "wrong-move"
		}
		if len(a) != 3 {
			return nil, "bad-args"
		}
		card, slot := a[0], a[1]
		if g.phase == "dayanswer" && (card < 10 || card > 12) || g.phase == "dateanswer" && card != 7 {
			return nil, "wrong-card"
		}
		if !contains(g.hands[seat], slot) {
			return nil, "not-in-hand"
		}
		if a[2] != 0 {
			return nil, "bad-args"
		}
		effs := []Effect{{Kind: "prove", Slots: []int{slot}, Tag: 1, Kinds: []int{card}, Comp: 0}}
		g.playCard(seat, slot)
		if g.phase == "dateanswer" {
			return append(effs, g.nightEnds()...), ""
		}
		switch card {
		case 10:
			return append(effs, g.startNight()...), ""
		default:
			dir := 1
			if card == 12 {
				dir = -1
			}
			u := g.nextLiving(seat, dir)
			if u < 0 {
				return append(effs, g.startNight()...), ""
			}
			return append(effs, g.condemn(u)...), ""
		}
	case "nightanswer":
		if k == 3 {
			if len(a) != 0 {
				return nil, "bad-args"
			}
			g.aq = g.aq[1:]
			g.dying[seat] = true
			return g.answers(), ""
		}
		if k != 4 {
			return nil, "wrong-move"
		}
		// protocol.md §4.4: exactly 3 arguments, the third 0 (no Butterfly claim)
		if len(a) != 3 {
			return nil, "bad-args"
		}
		card, slot := a[0], a[1]
		if card < 7 || card > 9 {
			return nil, "wrong-card"
		}
		if !contains(g.hands[seat], slot) {
			return nil, "not-in-hand"
		}
		if a[2] != 0 {
			return nil, "bad-args"
		}
		effs := []Effect{{Kind: "prove", Slots: []int{slot}, Tag: 1, Kinds: []int{card}, Comp: 0}}
		// §12.5: with item 4 asked tonight the seat joins the answerers
		if g.item4 && !contains(g.answerers, seat) {
			g.answerers = append(g.answerers, seat)
		}
		g.playCard(seat, slot)
		g.aq = g.aq[1:]
		if card == 7 {
			return append(effs, g.answers()...), ""
		}
		dir := 1
		if card == 9 {
			dir = -1
		}
		u := g.nextLiving(seat, dir)
		if u < 0 || g.dying[u] || contains(g.aq, u) {
			return append(effs, g.answers()...), ""
		}
		if g.attacked[u] {
			if !g.saved[u] && !g.dated[u] {
				g.aq = append([]int{u}, g.aq...)
			}
			return append(effs, g.answers()...), ""
		}
		g.attacked[u] = true
		g.aq = append([]int{u}, g.aq...)
		if p := g.protect([]int{u}); p != nil {
			g.phase = "wait"
			return append(effs, p...), ""
		}
		return append(effs, g.answers()...), ""
	}
	return nil, "wrong-move"
}

func (g *Mafia) Facts(req *Request, kinds []int, coin []byte) []Effect {
	switch req.Purpose {
	case "tags1":
		g.startQuestion()
		return nil
	case "tags2":
		return nil
	case "night":
		return g.attackTally()
	case "mix", "plural":
		return nil
	case "test":
		// §12.5 "The attacks, one vote": a vote picks card k, else the next test
		if kinds[0] == 1 {
			return g.pick(g.vtest)
		}
		g.vtest++
		if g.vtest >= len(g.T) {
			panic(invalidFault{}) // rule:bad-facts in protocol.md, unreachable with valid ballots
		}
		return []Effect{{Kind: "test", Tally: []TallyPart{{Power: 1}}, Seat: g.vtest, Purpose: "test"}}
	case "pick":
		v := []int{}
		for i, c := range kinds {
			if c == 1 || c == 2 {
				v = append(v, g.T[i])
			}
		}
		g.madVictim = -1
		return g.setVictims(v)
	case "attack-added":
		v := []int{}
		for i, c := range kinds {
			if c >= 1 {
				v = append(v, g.T[i])
			}
		}
		return g.setVictims(v)
	case "attack":
		nT := len(g.T)
		c1 := kinds[:nT]
		top := 0
		for _, c := range c1 {
			if c > top {
				top = c
			}
		}
		tied := []int{}
		for i, c := range c1 {
			if c == top {
				tied = append(tied, g.T[i])
			}
		}
		g.madVictim = -1
		if g.item2 {
			for i, c := range kinds[nT:] {
				if c == 1 {
					g.madVictim = g.T[i]
				}
			}
		}
		if len(tied) > 1 {
			g.tied = tied
			return []Effect{{Kind: "coin", Purpose: "tie"}}
		}
		return g.setVictims(g.victimsWith(tied[0]))
	case "tie":
		return g.setVictims(g.victimsWith(tieCoin(g.tied, coin)))
	case "protect":
		A := g.pendingProt
		i := 0
		if g.item3 {
			for _, s := range A {
				if kinds[i] == 1 {
					g.saved[s] = true
				}
				i++
			}
		}
		if g.item4 {
			for _, s := range A {
				if kinds[i] == 1 {
					g.dated[s] = true
				}
				i++
			}
		}
		return g.answers()
	case "date":
		at := g.T
		if g.dateAt != nil {
			at = g.dateAt
		}
		d := -1
		for i, c := range kinds {
			if c == 1 {
				d = at[i]
			}
		}
		g.date = d
		if d < 0 || !g.living[d] {
			return g.nightEnds()
		}
		if !g.noInc && len(g.hands[d]) > 0 {
			g.phase = "dateanswer"
			return nil
		}
		g.after = "vote"
		return g.eliminate([]int{d}, "date")
	case "elim":
		effs := []Effect{}
		for i, p := range req.Slots {
			g.living[p] = false
			g.revealed[p] = kinds[i]
			effs = append(effs, Effect{Kind: "retire", Seat: p})
			for _, s := range g.hands[p] {
				g.pile = append(g.pile, s)
				g.stale = true
			}
			g.hands[p] = nil
			if kinds[i] == 1 || kinds[i] == 5 {
				g.drawRounds++
			}
			if (kinds[i] == 4 || kinds[i] == 5) && !g.joined {
				g.joined = true
				g.joinDue = true
			}
		}
		if g.elimCtx == "night" {
			for _, p := range req.Slots {
				if g.revealed[p] == 3 && g.attacked[p] && !g.saved[p] && !g.dated[p] {
					g.bHit = true
				}
			}
			return append(effs, g.butterflyDate()...)
		}
		return append(effs, g.finish()...)
	case "end":
		g.phase = "over"
		return nil
	}
	return nil
}

func (g *Mafia) victimsWith(mv int) []int {
	v := []int{mv}
	if g.madVictim >= 0 && g.madVictim != mv {
		v = append(v, g.madVictim)
	}
	return v
}

// tieCoin picks among tied by rejection sampling over the coin's 32 bytes (§12.5).
func tieCoin(tied []int, coin []byte) int {
	n := len(tied)
	for _, b := range coin[:32] {
		if int(b) < 256-(256%n) {
			return tied[int(b)%n]
		}
	}
	return tied[0]
}
