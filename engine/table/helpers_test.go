package table_test

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// The adversarial tests play 4-seat Mascarade: the recommended set is
// Judge, Bishop, King, Queen, Witch, Cheat; the fixed deal is that order,
// so seat i holds card i of the list and the Witch and the Cheat are in
// the centre (slots 4 and 5).
var names4 = []string{"Anna", "Boris", "Clara", "Dmitri"}

// Moves, as the rules name them.
const (
	swapK      = mascarade.KindSwap
	peekK      = mascarade.KindPeek
	claimK     = mascarade.KindClaim
	challengeK = mascarade.KindChallenge
	passK      = mascarade.KindPass
	useK       = mascarade.KindUse
)

func gameOptions(tb testing.TB, coins int) []byte {
	tb.Helper()
	g, err := mascarade.Options{Players: names4, Coins: coins}.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// fixedTable is a started 4-seat table with the canonical deal, keys
// published at the end.
func fixedTable(tb testing.TB, seed string, coins int) *tabletest.Harness {
	tb.Helper()
	g := gameOptions(tb, coins)
	deck, err := mascarade.Game{}.Deck(g)
	if err != nil {
		tb.Fatal(err)
	}
	return tabletest.New(tb, mascarade.Game{}, seed, names4, table.Options{Game: g, Deal: deck, PublishKeys: true})
}

// randomDealTable is a 4-seat table before its deal coins (empty log).
func randomDealTable(tb testing.TB, seed string) *tabletest.Harness {
	tb.Helper()
	return tabletest.NewManual(tb, mascarade.Game{}, seed, names4, table.Options{Game: gameOptions(tb, 0), PublishKeys: true})
}

// prepared plays the four preparatory turns (every seat swaps its card
// with the next seat's, without exchanging them): then it is seat 0's
// turn, and peeks and claims are allowed.
func prepared(h *tabletest.Harness) {
	h.TB.Helper()
	for i := range 4 {
		h.Move(i, swapK, []int{i, (i + 1) % 4}, false)
	}
}

func move(seat int, kind uint8, args ...int) engine.Move {
	return engine.Move{Seat: engine.Seat(seat), Kind: kind, Args: args}
}

// wantFault checks a fault's seat and reason.
func wantFault(t *testing.T, f *table.Fault, seat int, reason string) {
	t.Helper()
	if f != nil && !table.KnownReason(f.Reason) {
		t.Errorf("fault reason %q is not in table.Reasons()", f.Reason)
	}
	if f.Seat != seat || f.Reason != reason {
		t.Fatalf("fault %v: want seat %d, reason %q", f, seat, reason)
	}
}

func randomElement() *mental.Element {
	var b [64]byte
	copy(b[:], tabletest.DeriveBytes("random element"))
	copy(b[32:], tabletest.DeriveBytes("random element 2"))
	e, err := mental.Identity().SetUniformBytes(b[:])
	if err != nil {
		panic(err)
	}
	return e
}

// bodyOf encodes b.
func bodyOf(h *tabletest.Harness, b *table.Body) []byte {
	h.TB.Helper()
	return h.Encode(b)
}
