package main

import (
	"fmt"
)

type Effect struct {
	Kind    string // swap, prove, reveal, peek, show, shuffle, coin, set, retire
	Slots   []int
	Seat    int // mover / viewer / except / prover
	Viewers []int
	Comps   []int
	Seats   []int
	Kinds   []int
	Tag     int
	Comp    int
	Purpose string
	Parts   []ActPart
	Targets []int
	Tally   []TallyPart
	ID      int
	K       int // a plurality kill's number of votes (protocol.md §5)
}

type ActPart struct {
	Kind       string
	Power      int
	Holders    []int
	Roles      []int
	Mandatory  bool
	TargetComp int
	Neutral    int
}
type TallyPart struct {
	Power int
	Seats []int
	Add   []int
	// Voters: protocol.md §5, a part naming voters sums their ballots alone.
	Voters []int
}

type Request struct {
	Effect
	authors  []int
	idx      int
	snap     []Card       // selected comps
	pubD     [][][]*Point // per author... for reveal: slot -> list of D vectors
	coinA    uint64
	coinSum  *Point
	encRecv  map[[2]int][]*EncShare // (slotIdx, viewer) -> shares in author order
	started  bool
	ballots  [][]([]CT)     // part -> author -> entries
	ballotBy []map[int][]CT // part -> voter seat -> entries
	qs       []*CT          // checkview: per checker
	checkers []int
	tcards   []Card // tally components
	tseats   []int
	pairs    []Card // a mix: the cards as the previous shuffler left them; a test: the cards as the previous step left them
}

type Rules interface {
	Opening() []Effect
	Due() (seat int, over bool)
	Move(seat int, m *Move) ([]Effect, string)
	Facts(req *Request, kinds []int, coin []byte) []Effect
}

type Table struct {
	n, w          int
	gid           []byte
	H             *Point
	X, Y          []*Point
	slots         []Card
	queue         []*Request
	rules         Rules
	phase         string // commit, reveal, play, keys, done
	publish       bool
	retired       []bool
	retKey        []*Scalar
	views         map[[2]int][]*View
	commits       [][]byte
	reveals       [][]byte
	keyIdx        int
	deck          []int
	fixed         []int
	pos           uint64
	lenient       bool
	keysAll       bool
	dealFromCoins bool
	onDeal        func(kinds []int)
	K             int
	ballotSum     map[int][]CT
	ballotTargets map[int][]int
	ballotBy      map[int]map[int][]CT // power -> voter seat -> its last ballot's entries
	mixPairs      map[int][]Card       // power -> its last mix's cards as the last shuffler left them (§5 one-vote mix, plurality kill)
}

func indexOf(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	panic("indexOf")
}

type Fault struct {
	Reason string
	Seat   int
}

func (f *Fault) Error() string { return f.Reason }

func (t *Table) setSlots(slots []int, kinds []int) {
	for i, s := range slots {
		for len(t.slots) <= s {
			t.slots = append(t.slots, nil)
		}
		if t.w == 5 {
			t.slots[s] = mafiaTuple(t.gid, kinds[i])
		} else {
			t.slots[s] = faceUp(M(kinds[i]), t.w)
		}
		t.dropViews(s)
	}
}

func (t *Table) dropViews(slot int) {
	for v := 0; v < t.n; v++ {
		delete(t.views, [2]int{slot, v})
	}
}

func allComps(w int) []int {
	r := []int{}
	for i := 0; i < w; i++ {
		r = append(r, i)
	}
	return r
}

func (t *Table) liveSeats() []int {
	r := []int{}
	for i := 0; i < t.n; i++ {
		if !t.retired[i] {
			r = append(r, i)
		}
	}
	return r
}

// queue effects of a request kind
func (t *Table) enqueue(e Effect) {
	if e.Comps == nil {
		e.Comps = allComps(t.w)
		if t.w == 5 {
			e.Comps = []int{0}
		}
	}
	// merge consecutive peeks into batch (mafia only)
	t.queue = append(t.queue, &Request{Effect: e})
}

// advance: process heads that need no entry (sets), start requests
func (t *Table) advance() {
	for len(t.queue) > 0 {
		r := t.queue[0]
		if r.Kind == "set" {
			t.setSlots(r.Slots, r.Kinds)
			t.queue = t.queue[1:]
			continue
		}
		if !r.started {
			t.start(r)
		}
		if r.idx >= len(r.authors) {
			t.finish(r)
			continue
		}
		return
	}
}

func (t *Table) start(r *Request) {
	r.started = true
	r.snap = nil
	for _, s := range r.Slots {
		r.snap = append(r.snap, t.slots[s].Select(r.Comps))
	}
	switch r.Kind {
	case "reveal":
		r.authors = t.allSeats()
		r.pubD = make([][][]*Point, len(r.Slots))
	case "peek":
		for a := 0; a < t.n; a++ {
			viewsAll := true
			for _, v := range r.Viewers {
				if v != a {
					viewsAll = false
				}
			}
			if !viewsAll {
				r.authors = append(r.authors, a)
			}
		}
		r.encRecv = map[[2]int][]*EncShare{}
	case "show":
		r.authors = t.allSeats()
		r.encRecv = map[[2]int][]*EncShare{}
	case "shuffle":
		if r.Seats != nil {
			r.authors = r.Seats
		} else {
			r.authors = t.liveSeats()
		}
	case "coin":
		r.authors = t.allSeats()
		r.coinA = t.pos
		r.coinSum = Id()
	case "retire":
		r.authors = []int{r.Seat}
	case "tags":
		r.authors = t.liveSeats()
	case "actions":
		r.authors = r.Seats
		r.ballots = make([][]([]CT), len(r.Parts))
		r.ballotBy = make([]map[int][]CT, len(r.Parts))
		r.qs = nil
	case "checkview":
		r.authors = t.allSeats()
		r.encRecv = map[[2]int][]*EncShare{}
	case "tally":
		r.authors = t.allSeats()
		r.snap = nil
		for _, tp := range r.Tally {
			seats := tp.Seats
			if seats == nil {
				seats = t.ballotTargets[tp.Power]
			}
			for _, st := range seats {
				idx := indexOf(t.ballotTargets[tp.Power], st)
				c := t.ballotSum[tp.Power][idx]
				if len(tp.Voters) > 0 {
					// protocol.md §5 / SPEC §9.7: the named voters' ballots alone
					c = CT{Id(), Id()}
					for _, v := range tp.Voters {
						es, ok := t.ballotBy[tp.Power][v]
						if !ok {
							continue // unreachable: the rules name only seats that posted a ballot
						}
						c = CT{add(c.A, es[idx].A), add(c.B, es[idx].B)}
					}
				}
				for _, ap := range tp.Add {
					c2 := t.ballotSum[ap][indexOf(t.ballotTargets[ap], st)]
					c = CT{add(c.A, c2.A), add(c.B, c2.B)}
				}
				r.snap = append(r.snap, Card{c})
				r.tseats = append(r.tseats, st)
			}
		}
		r.pubD = make([][][]*Point, len(r.snap))
	case "vmix":
		// protocol.md §5 one-vote mix / SPEC §9.8: one width-1 card per
		// voter in the voters' order, its own ballot's code sum (Horner)
		p := r.Tally[0].Power
		r.pairs = nil
		for _, v := range t.ballotTargets[p] {
			e, ok := t.ballotBy[p][v]
			if !ok {
				panic(invalidFault{})
			}
			acc := CT{Id(), Id()}
			for i := len(e) - 1; i >= 0; i-- {
				acc = CT{add(add(add(acc.A, acc.A), acc.A), e[i].A), add(add(add(acc.B, acc.B), acc.B), e[i].B)}
			}
			r.pairs = append(r.pairs, Card{acc})
		}
		r.snap = nil
		r.authors = r.Seats
	case "test":
		// protocol.md §5 test / SPEC §9.8: card k of the one-vote mix,
		// stepped by every seat of the roster in seat order
		cards := t.mixPairs[r.Tally[0].Power]
		if r.Seat < 0 || r.Seat >= len(cards) || len(cards[r.Seat]) != 1 {
			panic(invalidFault{})
		}
		r.pairs = []Card{cards[r.Seat]}
		r.authors = t.allSeats()
	case "lookup":
		// protocol.md §5 plurality kill, 1: every voter's count lookup
		r.pairs = nil
		r.authors = r.Seats
	case "pmix":
		// 2: the vote cards (V, W) in the voters' order
		r.pairs = t.mixPairs[r.Tally[0].Power]
		r.authors = r.Seats
	case "ptest", "rtest":
		// 3, 5: component 0 of every mixed card or row, stepped by every
		// seat of the roster in seat order
		r.pairs = nil
		for _, c := range t.mixPairs[r.Tally[0].Power] {
			r.pairs = append(r.pairs, Card{c[0]})
		}
		r.authors = t.allSeats()
	case "rmix":
		// 4: the kill table's rows, laid when the vote tests finished
		r.pairs = t.mixPairs[r.Tally[0].Power]
		r.authors = r.Seats
	case "pick":
		// component 0 of shuffled pair k plus each added power's code sum
		r.authors = t.allSeats()
		tp := r.Tally[0]
		c := t.mixPairs[tp.Power][r.Seat][0]
		for _, ap := range tp.Add {
			acc := CT{Id(), Id()}
			e := t.ballotSum[ap]
			for i := len(e) - 1; i >= 0; i-- {
				acc = CT{add(add(add(acc.A, acc.A), acc.A), e[i].A), add(add(add(acc.B, acc.B), acc.B), e[i].B)}
			}
			c = CT{add(c.A, acc.A), add(c.B, acc.B)}
		}
		r.snap = []Card{{c}}
		r.pubD = make([][][]*Point, 1)
	default:
		panic("unknown request " + r.Kind)
	}
	// skip retired authors (computed)
	t.skipRetired(r)
}

func (t *Table) allSeats() []int { return allComps(t.n) }

func (t *Table) skipRetired(r *Request) {
	for r.idx < len(r.authors) && t.retired[r.authors[r.idx]] && r.Kind != "retire" {
		// computed part (not needed for mascarade/grimm)
		a := r.authors[r.idx]
		x := t.retKey[a]
		switch r.Kind {
		case "peek", "show":
			for _, k := range t.recipients(r, a) {
				es := &EncShare{}
				for _, ct := range r.snap[k[0]] {
					es.E1 = append(es.E1, Id())
					es.E2 = append(es.E2, new(Point).ScalarMult(x, ct.A))
				}
				r.encRecv[k] = append(r.encRecv[k], es)
			}
		case "checkview":
			for ci, c := range r.checkers {
				if c == a {
					continue
				}
				es := &EncShare{E1: []*Point{Id()}, E2: []*Point{new(Point).ScalarMult(x, r.qs[ci].A)}}
				r.encRecv[[2]int{ci, c}] = append(r.encRecv[[2]int{ci, c}], es)
			}
		case "reveal", "tally", "pick":
			for si, c := range r.snap {
				d := []*Point{}
				for _, ct := range c {
					d = append(d, new(Point).ScalarMult(x, ct.A))
				}
				r.pubD[si] = append(r.pubD[si], d)
			}
		case "coin":
			r.coinSum = add(r.coinSum, new(Point).ScalarMult(x, CoinPoint(t.gid, r.coinA)))
		case "test", "ptest", "rtest":
			// a retired seat's step: (A, B − x·A) (protocol.md §5)
			out := []Card{}
			for _, cc := range r.pairs {
				c := cc[0]
				out = append(out, Card{CT{c.A, sub(c.B, new(Point).ScalarMult(x, c.A))}})
			}
			r.pairs = out
		}
		r.idx++
	}
}

func (t *Table) recipients(r *Request, a int) [][2]int { // (slotIdx, viewer)
	out := [][2]int{}
	switch r.Kind {
	case "peek":
		for k, v := range r.Viewers {
			if v != a {
				out = append(out, [2]int{k, v})
			}
		}
	case "checkview":
		for ci, c := range r.checkers {
			if c != a {
				out = append(out, [2]int{ci, c})
			}
		}
	case "show":
		for k := range r.Slots {
			for v := 0; v < t.n; v++ {
				if v != r.Seat && v != a {
					out = append(out, [2]int{k, v})
				}
			}
		}
	}
	return out
}

func (t *Table) finish(r *Request) {
	t.queue = t.queue[1:]
	switch r.Kind {
	case "reveal":
		kinds := []int{}
		for si, c := range r.snap {
			m := c[0].B
			for _, d := range r.pubD[si] {
				m = sub(m, d[0])
			}
			k := t.kindOf(m)
			if k < 0 || k >= t.K || (t.w == 5 && k >= 13) {
				panic(invalidFault{})
			}
			kinds = append(kinds, k)
		}
		t.queue = append(t.factsEffects(r, kinds, nil), t.queue...)
	case "peek", "show":
		for key, shares := range r.encRecv {
			si, v := key[0], key[1]
			slot := r.Slots[si]
			vw := &View{Card: r.snap[si], Comps: r.Comps, Shares: shares, Slot: slot, Full: t.slots[slot]}
			k := [2]int{slot, v}
			// drop views of another ciphertext
			keep := []*View{}
			for _, old := range t.views[k] {
				if cardEq(old.Full, t.slots[slot]) {
					keep = append(keep, old)
				}
			}
			t.views[k] = append(keep, vw)
		}
		t.queue = append(t.factsEffects(r, nil, nil), t.queue...)
	case "vmix", "lookup", "pmix", "rmix":
		t.mixPairs[r.Tally[0].Power] = r.pairs
		t.queue = append(t.factsEffects(r, nil, nil), t.queue...)
	case "ptest":
		// the votes: the cards whose last B is not the identity, exactly K
		var votes [][2]CT
		for i, c := range r.pairs {
			if !rIsIdentity(c[0].B) {
				v := t.mixPairs[r.Tally[0].Power][i]
				votes = append(votes, [2]CT{v[0], v[1]})
			}
		}
		if len(votes) != r.K {
			panic(invalidFault{})
		}
		t.mixPairs[r.Tally[0].Power] = killRows(votes)
		t.queue = append(t.factsEffects(r, nil, nil), t.queue...)
	case "rtest":
		// the true row: exactly one last B is the identity; its payload
		// (component 1) is what the pick opens
		w := -1
		for i, c := range r.pairs {
			if rIsIdentity(c[0].B) {
				if w >= 0 {
					panic(invalidFault{})
				}
				w = i
			}
		}
		if w < 0 {
			panic(invalidFault{})
		}
		t.mixPairs[r.Tally[0].Power] = []Card{{t.mixPairs[r.Tally[0].Power][w][1]}}
		t.queue = append(t.factsEffects(r, nil, nil), t.queue...)
	case "test":
		// the card holds a vote exactly when the last B is not the identity
		vote := 0
		if !rIsIdentity(r.pairs[0][0].B) {
			vote = 1
		}
		t.queue = append(t.factsEffects(r, []int{vote}, nil), t.queue...)
	case "pick":
		m := r.snap[0][0].B
		for _, d := range r.pubD[0] {
			m = sub(m, d[0])
		}
		cs := mixTargets(m, len(t.ballotTargets[r.Tally[0].Power]), 1+len(r.Tally[0].Add))
		if cs == nil {
			panic(invalidFault{})
		}
		t.queue = append(t.factsEffects(r, cs, nil), t.queue...)
	case "tally":
		counts := []int{}
		for si, c := range r.snap {
			m := c[0].B
			for _, d := range r.pubD[si] {
				m = sub(m, d[0])
			}
			cnt := -1
			acc := Id()
			for k := 0; k <= 64; k++ {
				if rEqual(acc, m) {
					cnt = k
					break
				}
				acc = add(acc, G())
			}
			counts = append(counts, cnt)
		}
		t.queue = append(t.factsEffects(r, counts, nil), t.queue...)
	case "actions":
		// sums per ballot power
		for j, p := range r.Parts {
			if p.Kind != "ballot" {
				continue
			}
			sum := []CT{}
			for i := range r.Targets {
				c := CT{Id(), Id()}
				for _, es := range r.ballots[j] {
					c = CT{add(c.A, es[i].A), add(c.B, es[i].B)}
				}
				sum = append(sum, c)
			}
			t.ballotSum[p.Power] = sum
			t.ballotTargets[p.Power] = r.Targets
			t.ballotBy[p.Power] = r.ballotBy[j]
		}
		head := []*Request{}
		for j, p := range r.Parts {
			if p.Kind == "check" {
				cv := &Request{Effect: Effect{Kind: "checkview"}}
				cv.checkers = r.Seats
				for _, e := range r.ballots[j] {
					cv.qs = append(cv.qs, &e[0])
				}
				head = append(head, cv)
			}
		}
		head = append(head, t.factsEffects(r, nil, nil)...)
		t.queue = append(head, t.queue...)
	case "coin":
		v := CoinValue(t.gid, r.coinA, r.coinSum)
		t.queue = append(t.factsEffects(r, nil, v), t.queue...)
	default:
		t.queue = append(t.factsEffects(r, nil, nil), t.queue...)
	}
}

func (t *Table) factsEffects(r *Request, kinds []int, coin []byte) []*Request {
	effs := t.rules.Facts(r, kinds, coin)
	rs := []*Request{}
	for _, e := range effs {
		if e.Comps == nil {
			e.Comps = allComps(t.w)
			if t.w == 5 {
				e.Comps = []int{0}
			}
		}
		rs = append(rs, &Request{Effect: e})
	}
	return rs
}

func cardEq(a, b Card) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !rEqual(a[i].A, b[i].A) || !rEqual(a[i].B, b[i].B) {
			return false
		}
	}
	return true
}

var kindCache = map[string]int{}

func (t *Table) kindOf(m *Point) int {
	e := string(rEncode(m))
	if k, ok := kindCache[e]; ok {
		return k
	}
	for k := 0; k < 64; k++ {
		if rEqual(M(k), m) {
			kindCache[e] = k
			return k
		}
	}
	return -1
}

// Due returns (seat, bodyKind) or seat -1 when closed
func (t *Table) Due() (int, int) {
	switch t.phase {
	case "commit":
		return int(t.pos), 1
	case "reveal":
		return int(t.pos) - t.n, 2
	case "play":
		t.advance()
		if len(t.queue) > 0 {
			r := t.queue[0]
			a := r.authors[r.idx]
			switch r.Kind {
			case "shuffle":
				return a, 6
			case "vmix", "pmix", "rmix":
				return a, 9
			case "test", "ptest", "rtest":
				return a, 10
			case "lookup":
				return a, 11
			case "coin":
				return a, 7
			case "retire":
				return a, 5
			case "tags", "actions":
				return a, 8
			}
			return a, 4
		}
		s, over := t.rules.Due()
		if !over {
			return s, 3
		}
		if t.publish {
			t.phase = "keys"
			t.keyIdx = 0
			return t.Due()
		}
		t.phase = "done"
		return -1, 0
	case "keys":
		for t.keyIdx < t.n && t.retired[t.keyIdx] {
			t.keyIdx++
		}
		if t.keyIdx >= t.n {
			t.phase = "done"
			t.keysAll = true
			return -1, 0
		}
		return t.keyIdx, 5
	}
	return -1, 0
}

func (t *Table) ctx(seat int) Ctx { return Ctx{t.gid, t.pos, uint64(seat)} }

// Apply body (already decoded) by seat
func (t *Table) Apply(seat int, b *Body) *Fault {
	f := func(r string) *Fault { return &Fault{r, seat} }
	switch t.phase {
	case "commit":
		t.commits = append(t.commits, b.B32)
		if len(t.commits) == t.n {
			t.phase = "reveal"
		}
		return nil
	case "reveal":
		i := len(t.reveals)
		tr := NewTr("masque/coin-commit/v1")
		tr.Ctx(Ctx{t.gid, uint64(i), uint64(i)})
		tr.Item("label", []byte("masque/deal/v1"))
		tr.Item("reveal", b.B32)
		c := tr.Challenge("commitment")
		if string(c[:32]) != string(t.commits[i]) {
			return f("coin-mismatch")
		}
		t.reveals = append(t.reveals, b.B32)
		if len(t.reveals) == t.n {
			tr := NewTr("masque/coin-seed/v1")
			tr.Item("table", t.gid)
			tr.Item("label", []byte("masque/deal/v1"))
			tr.Int("seats", uint64(t.n))
			for _, r := range t.reveals {
				tr.Item("reveal", r)
			}
			seed := tr.Challenge("seed")[:32]
			perm := CoinPermutation(seed, "masque/deal/v1", len(t.deck))
			kinds := []int{}
			for i := range t.deck {
				kinds = append(kinds, t.deck[perm[i]])
			}
			t.setSlots(allComps(len(kinds)), kinds)
			if t.onDeal != nil {
				t.onDeal(kinds)
			}
			t.phase = "play"
		}
		return nil
	case "keys":
		if !t.checkKey(seat, b.B32) {
			return f("key-mismatch")
		}
		t.keyIdx++
		return nil
	}
	if len(t.queue) > 0 {
		return t.applyReq(seat, b)
	}
	// a move
	Stats[fmt.Sprintf("move%d", b.Move.Kind)]++
	effs, rule := t.rules.Move(seat, b.Move)
	if rule != "" {
		return f("rule:" + rule)
	}
	m := b.Move
	si, sti := 0, 0
	for _, e := range effs {
		switch e.Kind {
		case "swap":
			if si >= len(m.Swaps) {
				return f("swap-count")
			}
			sp := m.Swaps[si]
			ctx := Ctx{t.gid, t.pos<<8 | uint64(si), uint64(seat)}
			a, c := e.Slots[0], e.Slots[1]
			if !VerifySwap(ctx, t.H, t.slots[a], t.slots[c], sp.O0, sp.O1, sp.Proof) {
				return f("bad-swap-proof")
			}
			t.slots[a] = sp.O0
			t.slots[c] = sp.O1
			si++
		case "prove":
			if sti >= len(m.Stmts) {
				return f("statement-count")
			}
			st := m.Stmts[sti]
			ctx := Ctx{t.gid, t.pos<<8 | 0x80 | uint64(sti), uint64(seat)}
			Stats[fmt.Sprintf("stmt-tag%d", st.Tag)]++
			if r := t.checkStatement(ctx, seat, e, st); r != "" {
				return f(r)
			}
			sti++
		default:
			if e.Comps == nil {
				e.Comps = allComps(t.w)
				if t.w == 5 {
					e.Comps = []int{0}
				}
			}
			t.queue = append(t.queue, &Request{Effect: e})
		}
	}
	if si != len(m.Swaps) {
		return f("swap-count")
	}
	if sti != len(m.Stmts) {
		return f("statement-count")
	}
	return nil
}

func (t *Table) latestView(slot, viewer, comp int) (*View, int) {
	vs := t.views[[2]int{slot, viewer}]
	for i := len(vs) - 1; i >= 0; i-- {
		for j, c := range vs[i].Comps {
			if c == comp {
				return vs[i], j
			}
		}
	}
	return nil, 0
}

func (t *Table) checkStatement(ctx Ctx, seat int, e Effect, st StmtProof) string {
	slot := e.Slots[0]
	v, ci := t.latestView(slot, seat, e.Comp)
	if v == nil {
		return "not-viewed"
	}
	if !cardEq(v.Full, t.slots[slot]) {
		return "stale-view"
	}
	if st.Tag != e.Tag || st.K != len(e.Kinds) {
		return "bad-statement"
	}
	if st.Tag == 1 {
		if !VerifyViewedHolding(ctx, t.X[seat], t.Y[seat], v, ci, e.Kinds, st.Proof) {
			return "bad-statement"
		}
	} else {
		for j, k := range e.Kinds {
			if !VerifyNotHeld(ctx, t.X[seat], t.Y[seat], v, ci, k, st.Proof[224*j:224*j+224]) {
				return "bad-statement"
			}
		}
	}
	return ""
}

func (t *Table) checkKey(seat int, b []byte) bool {
	x, err := scDecode(b)
	if err != nil || x.Equal(new(Scalar)) == 1 {
		return false
	}
	return rEqual(new(Point).ScalarBaseMult(x), t.X[seat])
}

var Stats = map[string]int{}

func (t *Table) applyReq(seat int, b *Body) *Fault {
	f := func(r string) *Fault { return &Fault{r, seat} }
	r := t.queue[0]
	Stats[r.Kind+"/"+r.Purpose]++
	ctx := t.ctx(seat)
	switch r.Kind {
	case "retire":
		if !t.checkKey(seat, b.B32) {
			return f("key-mismatch")
		}
		x, _ := scDecode(b.B32)
		t.retired[seat] = true
		t.retKey[seat] = x
	case "shuffle":
		in := []Card{}
		for _, s := range r.Slots {
			in = append(in, t.slots[s])
		}
		if b.ShufN != len(in) || !VerifyShuffle(ctx, t.H, in, b.ShufCards, b.ShufProof) {
			return f("bad-shuffle")
		}
		for i, s := range r.Slots {
			t.slots[s] = b.ShufCards[i]
			t.dropViews(s)
		}
	case "coin":
		Q := CoinPoint(t.gid, r.coinA)
		if !VerifyCoinShare(ctx, t.X[seat], Q, b.CoinD, b.CoinProof) {
			return f("bad-share")
		}
		r.coinSum = add(r.coinSum, b.CoinD)
	case "reveal":
		sh := b.Shares
		if len(sh.Pub) != len(r.Slots) || len(sh.Enc) != 0 {
			return f("share-count")
		}
		for i, raw := range sh.Pub {
			s, _ := ParseShare(raw)
			if len(s.D) != len(r.snap[i]) || !VerifyShare(ctx, t.X[seat], r.snap[i], s) {
				return f("bad-share")
			}
			r.pubD[i] = append(r.pubD[i], s.D)
		}
	case "peek", "show":
		sh := b.Shares
		rc := t.recipients(r, seat)
		if len(sh.Pub) != 0 || len(sh.Enc) != len(rc) {
			return f("share-count")
		}
		for i, raw := range sh.Enc {
			s, _ := ParseEncShare(raw)
			k := rc[i]
			if len(s.E1) != len(r.snap[k[0]]) || !VerifyEncShare(ctx, t.X[seat], t.Y[k[1]], r.snap[k[0]], s) {
				return f("bad-share")
			}
			r.encRecv[k] = append(r.encRecv[k], s)
		}
	case "actions":
		if len(b.Parts) != len(r.Parts) {
			return f("action-count")
		}
		for j, p := range r.Parts {
			pctx := Ctx{t.gid, t.pos<<8 | uint64(j), uint64(seat)}
			part := b.Parts[j]
			switch p.Kind {
			case "tag":
				if len(part) != 32 {
					return f("bad-tag")
				}
				r.ballots[j] = append(r.ballots[j], nil)
			case "ballot", "check":
				v, ci := t.latestView(seat, seat, 0)
				if v == nil {
					return f("not-viewed")
				}
				if !cardEq(v.Full, t.slots[seat]) {
					return f("stale-view")
				}
				if p.Kind == "ballot" {
					es := VerifyPowerBallot(pctx, t.H, p.Power, p.Roles, p.Holders, r.Targets, false, seat, t.X[seat], t.Y[seat], v, ci, part)
					if es == nil {
						return f("bad-ballot")
					}
					r.ballots[j] = append(r.ballots[j], es)
					if r.ballotBy[j] == nil {
						r.ballotBy[j] = map[int][]CT{}
					}
					r.ballotBy[j][seat] = es
				} else {
					tc := []Card{}
					for _, tg := range r.Targets {
						tc = append(tc, t.slots[tg])
					}
					q := VerifyCheck(pctx, t.H, p.Holders, p.Mandatory, p.Roles, seat, t.X[seat], t.Y[seat], v, ci, r.Targets, tc, p.TargetComp, p.Neutral, part)
					if q == nil {
						return f("bad-check")
					}
					r.ballots[j] = append(r.ballots[j], []CT{*q})
				}
			}
		}
	case "checkview":
		sh := b.Shares
		rc := t.recipients(r, seat)
		if len(sh.Pub) != 0 || len(sh.Enc) != len(rc) {
			return f("share-count")
		}
		for i, raw := range sh.Enc {
			s, _ := ParseEncShare(raw)
			k := rc[i]
			if len(s.E1) != 1 || !VerifyEncShare(ctx, t.X[seat], t.Y[k[1]], Card{*r.qs[k[0]]}, s) {
				return f("bad-share")
			}
		}
	case "vmix", "pmix", "rmix":
		if b.ShufN != len(r.pairs) || len(b.ShufCards[0]) != len(r.pairs[0]) || !VerifyShuffle(ctx, t.H, r.pairs, b.ShufCards, b.ShufProof) {
			return f("bad-shuffle")
		}
		r.pairs = b.ShufCards
	case "test", "ptest", "rtest":
		// one step per tested card, in order, all under the entry's context
		if len(b.BlindOut) != len(r.pairs) {
			return f("bad-blind")
		}
		for i := range r.pairs {
			if !VerifyBlindStep(ctx, t.X[seat], r.pairs[i], b.BlindOut[i], b.BlindProof[i]) {
				return f("bad-blind")
			}
		}
		r.pairs = b.BlindOut
	case "lookup":
		// over the author's own last kill ballot and the power's tally
		p := r.Tally[0].Power
		es, ok := t.ballotBy[p][seat]
		if !ok || b.LookupN != len(es) {
			return f("bad-lookup")
		}
		W := VerifyCountLookup(ctx, t.H, es, t.ballotSum[p], b.Lookup)
		if W == nil {
			return f("bad-lookup")
		}
		r.pairs = append(r.pairs, Card{codeSum(es), *W})
	case "tally", "pick":
		sh := b.Shares
		if len(sh.Pub) != len(r.snap) || len(sh.Enc) != 0 {
			return f("share-count")
		}
		for i, raw := range sh.Pub {
			s, _ := ParseShare(raw)
			if len(s.D) != 1 || !VerifyShare(ctx, t.X[seat], r.snap[i], s) {
				return f("bad-share")
			}
			r.pubD[i] = append(r.pubD[i], s.D)
		}
	case "tags":
		if len(b.Parts) != 1 {
			return f("action-count")
		}
		if len(b.Parts[0]) != 32 {
			return f("bad-tag")
		}
	default:
		return f("invalid")
	}
	r.idx++
	t.skipRetired(r)
	return nil
}

func bodyKindName(k int) string { return fmt.Sprint(k) }

type invalidFault struct{}

// mixTargets decodes an opened pick (protocol.md §5 "pick", SPEC
// §9.6 MixTargets): M = Σ c_i·3^i·G with c_i ≥ 0 and Σ c_i = k (k = 1 or 2);
// nil for any other point.
func mixTargets(m *Point, n, k int) []int {
	codes := []*Point{}
	c := G()
	for i := 0; i < n; i++ {
		codes = append(codes, c)
		c = add(add(c, c), c)
	}
	out := make([]int, n)
	switch k {
	case 1:
		for i := 0; i < n; i++ {
			if rEqual(codes[i], m) {
				out[i] = 1
				return out
			}
		}
	case 2:
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				if rEqual(add(codes[i], codes[j]), m) {
					out[i]++
					out[j]++
					return out
				}
			}
		}
	}
	return nil
}
