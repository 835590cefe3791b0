package table_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// effectsTable is an EffectsGame table of n seats after its opening (a
// set, a shuffle by every seat, a peek by each seat at its own slot, a
// coin).
func effectsTable(tb testing.TB, seed string, n int) *tabletest.Harness {
	tb.Helper()
	names := []string{"Anna", "Boris", "Clara", "Dmitri", "Eva", "Fedor", "Galina", "Hugo"}[:n]
	return tabletest.New(tb, tabletest.EffectsGame{}, seed, names, table.Options{Game: []byte{byte(n)}, PublishKeys: true})
}

func effectsState(h *tabletest.Harness) *tabletest.EffectsState {
	return h.View().Rules().(*tabletest.EffectsState)
}

// turn is the seat due to move.
func turn(h *tabletest.Harness) int { return int(effectsState(h).Turn) }

// own is the card seat last saw privately in slot.
func own(h *tabletest.Harness, seat int, slot int) engine.Card {
	h.TB.Helper()
	mem := h.Seats[seat].Player.Memory
	for i := len(mem) - 1; i >= 0; i-- {
		if int(mem[i].Slot) == slot && !mem[i].Public {
			return mem[i].Card
		}
	}
	h.TB.Fatalf("seat %d never saw slot %d", seat, slot)
	return 0
}

func other(k engine.Card, d int) int { return (int(k) + d) % tabletest.EffectsSlots }

// The opening: the table skips the deal coins, sets and shuffles the
// slots, lets each seat see its own card only, and draws a coin that every
// replica feeds the rules alike.
func TestEffectsOpening(t *testing.T) {
	h := effectsTable(t, "effects-opening", 4)
	v := h.View()
	if v.Phase() != table.PhasePlay || v.Deal() != nil {
		t.Fatalf("phase %v, deal %v: want play with no public deal", v.Phase(), v.Deal())
	}
	// 4 shuffles, 4 peeks × 3 shares, 4 coin shares.
	if got := len(h.Entries); got != 4+12+4 {
		t.Fatalf("%d opening entries, want 20", got)
	}
	s := effectsState(h)
	if len(s.Facts) != 1 || s.Facts[0].Slot != -1 || s.Facts[0].Coin == [32]byte{} {
		t.Fatalf("facts after the opening: %+v", s.Facts)
	}
	if int(s.Turn) != int(s.Facts[0].Coin[0])%4 {
		t.Fatal("the coin does not pick the first seat")
	}
	seen := map[engine.Card]bool{}
	for seat := range 4 {
		mem := h.Seats[seat].Player.Memory
		if len(mem) != 1 || int(mem[0].Slot) != seat || mem[0].Public {
			t.Fatalf("seat %d saw %+v, want only its own slot", seat, mem)
		}
		if seen[mem[0].Card] {
			t.Fatalf("two seats saw card %d", mem[0].Card)
		}
		seen[mem[0].Card] = true
		for slot := range tabletest.EffectsSlots {
			if got := v.CanProve(engine.Seat(seat), engine.Slot(slot)); got != (slot == seat) {
				t.Errorf("seat %d can prove about slot %d: %v", seat, slot, got)
			}
		}
	}
	// Nothing in the log is a face-up card any more: every slot was
	// shuffled.
	for slot := range tabletest.EffectsSlots {
		if v.Slot(engine.Slot(slot))[0].A.Equal(mental.FaceUp(mental.CardPoint(0))[0].A) == 1 {
			t.Fatalf("slot %d is still face up", slot)
		}
	}
}

// A whole honest game with every effect: statements of both kinds and
// sizes, a shuffle of a few slots by some seats, a coin during play,
// swaps, a set, peeks and a reveal; every replica agrees, and Replay,
// batched and strict, reaches the same table.
func TestEffectsHonestGame(t *testing.T) {
	const n = 5
	h := effectsTable(t, "effects-honest", n)
	// The mover proves "not k" and "one of {k, k+3}" about its own card.
	m := turn(h)
	k := own(h, m, m)
	h.Move(m, tabletest.EffectsNoneOf, []int{m, other(k, 1)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsOneOf, []int{m, int(k), other(k, 3)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsOneOf, []int{m, int(k)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsNoneOf, []int{m, other(k, 1), other(k, 2), other(k, 5)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsTwoNones, []int{m, other(k, 1), other(k, 7)})
	m = turn(h)
	k = own(h, m, m)
	// A statement, then a swap of that very card: the statement is about
	// the card before the swap.
	h.Move(m, tabletest.EffectsNoneThenSwap, []int{m, other(k, 4), m, 7}, true)
	// Seats 0, 2 and 4 shuffle the pile (slots 5..7), then seat 1 and 3
	// shuffle slots 0..7 (a subset of the seats, every slot).
	h.Move(turn(h), tabletest.EffectsMix, []int{0b10101, 5, 6, 7})
	h.Move(turn(h), tabletest.EffectsMix, []int{0b01010, 0, 1, 2, 3, 4, 5, 6, 7})
	if got := h.View().CanProve(engine.Seat(turn(h)), engine.Slot(turn(h))); got {
		t.Fatal("a seat may prove about a card shuffled since it saw it")
	}
	// A coin during play.
	before := len(effectsState(h).Facts)
	h.Move(turn(h), tabletest.EffectsCoin, nil)
	facts := effectsState(h).Facts
	if len(facts) != before+1 || facts[before].Slot != -1 || facts[before].Coin == facts[0].Coin {
		t.Fatalf("the coin during play: %+v", facts)
	}
	// The mover looks at its card again and proves something about it.
	m = turn(h)
	h.Move(m, tabletest.EffectsPeek, []int{m})
	// The peek moved the turn: the next mover peeks too, then proves.
	m2 := turn(h)
	h.Move(m2, tabletest.EffectsPeek, []int{m2})
	// A pile card (never a seat's own, whoever m2 is) takes card 3.
	h.Move(turn(h), tabletest.EffectsSet, []int{7, 3})
	for turn(h) != m2 {
		h.Move(turn(h), tabletest.EffectsSwap, []int{5, 6}, false)
	}
	k = own(h, m2, m2)
	h.Move(m2, tabletest.EffectsNoneOf, []int{m2, other(k, 1)})
	// Reveal everything and end.
	h.Move(turn(h), tabletest.EffectsReveal, []int{0, 1, 2, 3, 4, 5, 6, 7})
	facts = effectsState(h).Facts
	var got []int
	for _, f := range facts[len(facts)-8:] {
		got = append(got, int(f.Card))
	}
	if got[7] != 3 {
		t.Fatalf("slot 7 was set to 3, revealed %d", got[7])
	}
	if int(got[m2]) != int(own(h, m2, m2)) {
		t.Fatalf("seat %d saw %d in its slot, the reveal shows %d", m2, own(h, m2, m2), got[m2])
	}
	h.Move(turn(h), tabletest.EffectsEnd, nil)
	if h.View().Phase() != table.PhaseDone {
		t.Fatalf("phase %v after the end", h.View().Phase())
	}
	tr := h.Transcript()
	want := h.View().StateHash()
	for name, replay := range map[string]func() (*table.Table, error){
		"replay": func() (*table.Table, error) { return table.Replay(tr, tabletest.EffectsGame{}) },
		"strict": func() (*table.Table, error) { return table.ReplayStrict(tr, tabletest.EffectsGame{}) },
		"batched": func() (*table.Table, error) {
			rt, _, err := table.ReplayBatched(tr, tabletest.EffectsGame{}, 7)
			return rt, err
		},
	} {
		rt, err := replay()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rt.StateHash() != want {
			t.Fatalf("%s reaches another table", name)
		}
	}
}

// The seat's honest move body for m, or the test fails.
func honestMove(h *tabletest.Harness, seat int, kind uint8, args []int, swaps ...bool) *table.Body {
	h.TB.Helper()
	return h.MoveBody(seat, engine.Move{Seat: engine.Seat(seat), Kind: kind, Args: args}, swaps...)
}

func moveBody(kind uint8, args []int, sps []table.StatementProof, swaps ...table.SwapPayload) *table.Body {
	return &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: kind, Args: args}, Statements: sps, Swaps: swaps}
}

// Every bad statement is refused, naming the mover, by every replica and
// by Replay.
func TestEffectsAdversaryStatements(t *testing.T) {
	h := effectsTable(t, "effects-statements", 4)
	m := turn(h)
	k := own(h, m, m)
	notA := honestMove(h, m, tabletest.EffectsNoneOf, []int{m, other(k, 1)})
	oneOfA := honestMove(h, m, tabletest.EffectsOneOf, []int{m, int(k), other(k, 2)})
	two := honestMove(h, m, tabletest.EffectsTwoNones, []int{m, other(k, 1), other(k, 2)})
	cases := []struct {
		name   string
		body   *table.Body
		reason string
	}{
		// A false hint ("not k", k held) with the proof of a true one.
		{"false not, proof of another kind", moveBody(tabletest.EffectsNoneOf, []int{m, int(k)}, notA.Statements), "bad-statement"},
		// "one of {k+1, k+2}" (false) with the proof of {k, k+2}.
		{"false one-of, proof of another set", moveBody(tabletest.EffectsOneOf, []int{m, other(k, 1), other(k, 2)}, oneOfA.Statements), "bad-statement"},
		// A true statement with a proof of the other kind or size.
		{"not with a holding proof", moveBody(tabletest.EffectsNoneOf, []int{m, other(k, 1), other(k, 2)}, oneOfA.Statements), "bad-statement"},
		{"not of two kinds with one proof", moveBody(tabletest.EffectsNoneOf, []int{m, other(k, 1), other(k, 2)}, notA.Statements), "bad-statement"},
		// The proofs of a two-statement move in the wrong order.
		{"statements swapped", moveBody(tabletest.EffectsTwoNones, []int{m, other(k, 1), other(k, 2)}, []table.StatementProof{two.Statements[1], two.Statements[0]}), "bad-statement"},
		{"missing statement", moveBody(tabletest.EffectsNoneOf, []int{m, other(k, 1)}, nil), "statement-count"},
		{"one of two statements", moveBody(tabletest.EffectsTwoNones, []int{m, other(k, 1), other(k, 2)}, two.Statements[:1]), "statement-count"},
		{"extra statement", moveBody(tabletest.EffectsNoneOf, []int{m, other(k, 1)}, two.Statements), "statement-count"},
		{"statement on a move without one", moveBody(tabletest.EffectsSet, []int{0, 1}, notA.Statements), "statement-count"},
		// Another seat's slot, which the mover never viewed.
		{"unviewed slot", moveBody(tabletest.EffectsNoneOf, []int{(m + 1) % 4, other(k, 1)}, notA.Statements), "not-viewed"},
		{"unviewed pile slot", moveBody(tabletest.EffectsOneOf, []int{6, int(k), other(k, 2)}, oneOfA.Statements), "not-viewed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFault(t, h.RejectBody(m, bodyOf(h, c.body)), m, c.reason) })
	}
	// The proof of another position (a replayed entry body) is refused
	// once the table has moved on.
	stale := bodyOf(h, notA)
	// The honest body goes through, at its position.
	h.Publish(h.Entry(m, stale))
	h.Auto()
	// A statement proof made by the mover at an earlier position does not
	// verify at this one.
	for turn(h) != m {
		h.Move(turn(h), tabletest.EffectsSet, []int{7, 7})
	}
	wantFault(t, h.RejectBody(m, stale), m, "bad-statement")

	// A swap of the mover's card, then a statement about it in the same
	// move: the card changed since it was viewed. The Player refuses; a
	// forged entry is refused too.
	_, err := h.Seats[m].Player.MoveBody(h.Seats[m].Replica, engine.Move{Kind: tabletest.EffectsSwapThenNone, Args: []int{m, 7, m, other(k, 1)}}, []bool{false})
	if !errors.Is(err, table.ErrNotViewed) {
		t.Fatalf("the player proves about a swapped card: %v", err)
	}
	swap := honestMove(h, m, tabletest.EffectsSwap, []int{m, 7}, false)
	now := honestMove(h, m, tabletest.EffectsNoneOf, []int{m, other(k, 1)})
	wantFault(t, h.RejectBody(m, bodyOf(h, moveBody(tabletest.EffectsSwapThenNone, []int{m, 7, m, other(k, 1)}, now.Statements, swap.Swaps...))), m, "stale-view")
	// A shuffle of the mover's card by everyone else: the next statement
	// about it is stale.
	h.Move(m, tabletest.EffectsMix, []int{0b1111 &^ (1 << m), m, 5})
	for turn(h) != m {
		h.Move(turn(h), tabletest.EffectsSet, []int{7, 7})
	}
	wantFault(t, h.RejectBody(m, bodyOf(h, moveBody(tabletest.EffectsNoneOf, []int{m, other(k, 1)}, now.Statements))), m, "stale-view")
	if _, err := h.Seats[m].Player.MoveBody(h.Seats[m].Replica, engine.Move{Kind: tabletest.EffectsNoneOf, Args: []int{m, other(k, 1)}}, nil); !errors.Is(err, table.ErrNotViewed) {
		t.Fatalf("the player proves about a shuffled card: %v", err)
	}
	// A seat refuses, locally and clearly, a statement it knows is false.
	h.Move(m, tabletest.EffectsPeek, []int{m})
	for turn(h) != m {
		h.Move(turn(h), tabletest.EffectsSet, []int{7, 7})
	}
	k = own(h, m, m)
	for _, mv := range []engine.Move{
		{Kind: tabletest.EffectsNoneOf, Args: []int{m, int(k)}},
		{Kind: tabletest.EffectsNoneOf, Args: []int{m, other(k, 1), int(k)}},
		{Kind: tabletest.EffectsOneOf, Args: []int{m, other(k, 1), other(k, 2)}},
	} {
		if _, err := h.Seats[m].Player.MoveBody(h.Seats[m].Replica, mv, nil); !errors.Is(err, table.ErrFalseStatement) {
			t.Fatalf("%v: the player makes a false statement: %v", mv.Args, err)
		}
	}
	h.Move(m, tabletest.EffectsOneOf, []int{m, int(k)})
}

// Bad shuffles and coin shares are refused, naming their author.
func TestEffectsAdversaryShufflesAndCoins(t *testing.T) {
	h := effectsTable(t, "effects-shuffles", 4)
	h.Play(turn(h), tabletest.EffectsMix, []int{0b0110, 2, 4, 6})
	seat, honest := h.AutoBody()
	if seat != 1 || honest.Kind != table.BodyShuffle || len(honest.Deck) != 3 {
		t.Fatalf("seat %d owes %v of %d cards, want seat 1's shuffle of 3", seat, honest.Kind, len(honest.Deck))
	}
	v := h.View()
	reordered := slices.Clone(honest.Deck)
	reordered[0], reordered[2] = reordered[2], reordered[0]
	in := []mental.Card{v.Slot(2), v.Slot(4), v.Slot(6)}
	short, p2, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), seat), in[:2])
	if err != nil {
		t.Fatal(err)
	}
	long, p4, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), seat), append(slices.Clone(in), v.Slot(0)))
	if err != nil {
		t.Fatal(err)
	}
	wrongSlots, pw, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), seat), []mental.Card{v.Slot(2), v.Slot(4), v.Slot(5)})
	if err != nil {
		t.Fatal(err)
	}
	otherSeat, po, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), 2), in)
	if err != nil {
		t.Fatal(err)
	}
	share, err := h.Seats[seat].Card.CoinShare(v.ShareContext(v.Pos(), seat), mental.CoinPoint(v.GameID(), v.Pos()))
	if err != nil {
		t.Fatal(err)
	}
	shuffle := func(d []mental.Card, p *mental.ShuffleProof) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyShuffle, Deck: d, Shuffle: p})
	}
	for name, c := range map[string]struct {
		body   []byte
		reason string
	}{
		"reordered after proving": {shuffle(reordered, honest.Shuffle), "bad-shuffle"},
		"one slot short":          {shuffle(short, p2), "bad-shuffle"},
		"one slot too many":       {shuffle(long, p4), "bad-shuffle"},
		"another slot":            {shuffle(wrongSlots, pw), "bad-shuffle"},
		"another seat's context":  {shuffle(otherSeat, po), "bad-shuffle"},
		"a coin share instead":    {bodyOf(h, &table.Body{Kind: table.BodyCoinShare, CoinShare: share}), "wrong-body-kind"},
	} {
		t.Run(name, func(t *testing.T) { wantFault(t, h.RejectBody(seat, c.body), seat, c.reason) })
	}
	// Only the seats of the mask shuffle: seat 0 is not due.
	wantFault(t, h.RejectBody(0, shuffle(honest.Deck, honest.Shuffle)), 0, "not-your-turn")
	h.Publish(h.Entry(seat, bodyOf(h, honest)))
	h.Auto()

	// A coin during play.
	h.Play(turn(h), tabletest.EffectsCoin, nil)
	v = h.View()
	at := v.Pos()
	seat, honest = h.AutoBody()
	if seat != 0 || honest.Kind != table.BodyCoinShare {
		t.Fatalf("seat %d owes %v, want seat 0's coin share", seat, honest.Kind)
	}
	Q := v.CoinPoint(v.Pending())
	if Q.Equal(mental.CoinPoint(v.GameID(), v.Pos())) != 1 {
		t.Fatal("the coin's point is not that of its first share's position")
	}
	coin := func(s *mental.CoinShare) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyCoinShare, CoinShare: s})
	}
	mk := func(sk *mental.SecretKey, pos uint64, s int, q *mental.Element) *mental.CoinShare {
		cs, err := sk.CoinShare(v.ShareContext(pos, s), q)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cases := map[string][]byte{
		"another seat's key":    coin(mk(h.Seats[1].Card, v.Pos(), 0, Q)),
		"another seat's proof":  coin(mk(h.Seats[0].Card, v.Pos(), 1, Q)),
		"another position":      coin(mk(h.Seats[0].Card, v.Pos()+1, 0, Q)),
		"another coin's point":  coin(mk(h.Seats[0].Card, v.Pos(), 0, mental.CoinPoint(v.GameID(), v.Pos()+1))),
		"the viewing key":       coin(mk(h.Seats[0].View, v.Pos(), 0, Q)),
		"an earlier coin share": h.Entries[len(h.Entries)-len(h.Seats)-1].Body,
	}
	if b, _ := table.UnmarshalBody(cases["an earlier coin share"], 1); b.Kind != table.BodyCoinShare {
		t.Fatalf("the entry before is a %v", b.Kind)
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) { wantFault(t, h.RejectBody(seat, b), seat, "bad-share") })
	}
	enc := bodyOf(h, honest)
	wantFault(t, h.RejectBody(seat, enc[:len(enc)-1]), seat, "malformed-body")
	wantFault(t, h.RejectBody(seat, append(slices.Clone(enc), 0)), seat, "malformed-body")
	h.Publish(h.Entry(seat, enc))
	// The last seat's share can be checked against the coin it will
	// make: a seat's share alone says nothing of it, but the last seat
	// computes it before posting (mental SPEC §3.12).
	h.Auto()
	facts := effectsState(h).Facts
	last := facts[len(facts)-1]
	var shares []*mental.CoinShare
	for _, e := range h.Entries[len(h.Entries)-4:] {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatal(err)
		}
		shares = append(shares, b.CoinShare)
	}
	wantCoin, err := mental.CoinValue(v.GameID(), at, shares)
	if err != nil {
		t.Fatal(err)
	}
	if last.Slot != -1 || last.Coin != wantCoin {
		t.Fatalf("the rules learnt %+v, want the coin %x", last, wantCoin)
	}
}

// Two games with the same public moves and different secret deals (each
// shuffle is random): the public rules states are the same at every entry
// until the final reveal, which shows the deals differ.
func TestEffectsSecretDealIsNotPublic(t *testing.T) {
	first := effectsTable(t, "effects-secret", 3)
	// Every run shares the roster (so the game id, and every coin) and
	// draws its own shuffles.
	fresh := func() *tabletest.Harness {
		h := &tabletest.Harness{TB: t, Game: first.Game, Roster: first.Roster, RosterSigs: first.RosterSigs}
		for i, s := range first.Seats {
			rep, err := table.New(first.Roster, first.Game)
			if err != nil {
				t.Fatal(err)
			}
			h.Seats = append(h.Seats, &tabletest.Seat{Name: s.Name, Sign: s.Sign, Card: s.Card, View: s.View,
				Player: table.NewPlayer(i, s.Sign, table.SeatSecrets{Card: s.Card, View: s.View}), Replica: rep})
		}
		h.Auto()
		return h
	}
	run := func() ([][]byte, []engine.Card) {
		h := fresh()
		all := []int{0, 1, 2, 3, 4, 5, 6, 7}
		h.Move(turn(h), tabletest.EffectsOneOf, append([]int{turn(h)}, all...))
		h.Move(turn(h), tabletest.EffectsMix, []int{0, 0, 3, 4})
		h.Move(turn(h), tabletest.EffectsCoin, nil)
		h.Move(turn(h), tabletest.EffectsPeek, []int{5})
		h.Move(turn(h), tabletest.EffectsReveal, all)
		rt, err := table.New(h.Roster, tabletest.EffectsGame{})
		if err != nil {
			t.Fatal(err)
		}
		var states [][]byte
		for _, e := range h.Entries {
			if err := rt.Apply(e); err != nil {
				t.Fatal(err)
			}
			enc, _ := rt.Rules().AppendBinary(nil)
			states = append(states, enc)
		}
		var deal []engine.Card
		facts := effectsState(h).Facts
		for _, f := range facts[len(facts)-8:] {
			deal = append(deal, f.Card)
		}
		return states, deal
	}
	a, dealA := run()
	for range 4 {
		b, dealB := run()
		if len(a) != len(b) {
			t.Fatalf("%d and %d entries", len(a), len(b))
		}
		for i := range len(a) - 1 {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("the public states differ at entry %d, before any reveal:\n%x\n%x", i, a[i], b[i])
			}
		}
		if bytes.Equal(a[len(a)-1], b[len(b)-1]) != slices.Equal(dealA, dealB) {
			t.Fatal("the final states do not tell the deals apart")
		}
		if !slices.Equal(dealA, dealB) {
			return
		}
	}
	t.Fatal("five random deals were all the same")
}

// A fixed deal with an opening: the rules get the deal, the slots start
// as it, and the opening runs on them.
func TestEffectsOpeningWithFixedDeal(t *testing.T) {
	deal := []engine.Card{3, 1, 4, 0, 5, 2, 7, 6}
	h := tabletest.New(t, tabletest.EffectsGame{}, "effects-fixed", []string{"A", "B"}, table.Options{Game: []byte{2}, Deal: deal})
	if got := h.View().Deal(); !slices.Equal(got, deal) {
		t.Fatalf("deal %v, want %v", got, deal)
	}
	if len(effectsState(h).Facts) != 1 || len(h.Entries) != 2+2+2 {
		t.Fatalf("the opening did not run: %d entries, facts %+v", len(h.Entries), effectsState(h).Facts)
	}
	// The opening set slot i to 7 − i before shuffling: the cards seen are
	// the set's, whatever the deal.
	if a, b := own(h, 0, 0), own(h, 1, 1); a == b {
		t.Fatalf("both seats saw %d", a)
	}
}

// Games that open with their own effects refuse a hidden deal as well.
type openingHidden struct{ tabletest.EffectsGame }

func (openingHidden) HiddenDeal() bool { return true }

func TestOpenerIsNotAHiddenDealer(t *testing.T) {
	keys := tabletest.SeatKeys("opener", []string{"A", "B"})
	r, _, err := tabletest.Roster(openingHidden{}, tabletest.TableID("opener"), keys, table.Options{Game: []byte{2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.New(r, openingHidden{}); err == nil {
		t.Fatal("a game both opens and deals by shuffles")
	}
}
