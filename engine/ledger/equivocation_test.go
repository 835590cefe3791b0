package ledger_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/p2p"
)

// Equivocation: a seat signs two different entries for one position and
// sends one to some peers and the other to the rest. Each entry alone is
// valid, so each replica accepts whichever arrives first and then refuses
// the other as a stale position: the table layer cannot see the fork. The
// pair itself is the proof: same position, same seat, different bytes,
// both signatures valid. tabletest.CheckEquivocation checks such a pair;
// p2p turns it into a VerdictEquivocation every peer adopts (p2p's
// TestEquivocation covers the network path).
func TestEquivocation(t *testing.T) {
	names := []string{"Anna", "Boris", "Clara", "Dmitri"}
	g, err := mascarade.Options{Players: names}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	deck, _ := mascarade.Game{}.Deck(g)
	h := tabletest.New(t, mascarade.Game{}, "equivocation", names, table.Options{Game: g, Deal: deck})

	// Seat 0 makes two honest swap bodies (exchange / do not exchange).
	swap := func(bit bool) []byte {
		b, err := h.Seats[0].Player.MoveBody(h.View(), engineMove(0, 1), []bool{bit})
		if err != nil {
			t.Fatal(err)
		}
		return h.Encode(b)
	}
	a, b := h.Entry(0, swap(true)), h.Entry(0, swap(false))
	if err := tabletest.CheckEquivocation(h.Roster, a, b); err != nil {
		t.Fatalf("the pair does not prove equivocation: %v", err)
	}

	// Each is valid alone: two replicas fork on them.
	ra, rb := h.Seats[1].Replica, h.Seats[2].Replica
	if err := ra.Apply(a); err != nil {
		t.Fatal(err)
	}
	if err := rb.Apply(b); err != nil {
		t.Fatal(err)
	}
	if ra.StateHash() == rb.StateHash() {
		t.Fatal("the two entries lead to the same state")
	}
	// ... and then each refuses the other as a stale position, blaming
	// seat 0 without seeing the equivocation.
	var f *table.Fault
	if err := ra.Apply(b); !errors.As(err, &f) || f.Seat != 0 || f.Reason != "wrong-position" {
		t.Fatalf("replica a on entry b: %v", err)
	}

	// What is not equivocation.
	other := h.Entry(1, swap(true))
	resigned := *a
	resigned.Sig[0] ^= 1
	later := h.Sign(0, a.Pos+1, 0, a.Hash(), b.Body)
	foreign := h.Sign(1, a.Pos, 0, a.Prev, b.Body) // seat 1 forges seat 0's name
	for name, pair := range map[string][2]*ledger.Entry{
		"the same entry twice":         {a, a},
		"the same bytes, two copies":   {a, cloneEntry(a)},
		"two seats":                    {a, other},
		"a bad second signature":       {a, &resigned},
		"two positions":                {a, later},
		"signed by another seat's key": {a, foreign},
	} {
		if err := tabletest.CheckEquivocation(h.Roster, pair[0], pair[1]); err == nil {
			t.Errorf("%s: accepted as equivocation", name)
		}
	}

	// The evidence as p2p states it: a verdict declared by seat 1 and
	// signed with its key verifies against the roster; tampered evidence
	// does not.
	keys := tabletest.SeatKeys("equivocation", names)
	ev := []*ledger.Entry{a, b}
	ha, hb := a.Hash(), b.Hash()
	if bytes.Compare(ha[:], hb[:]) > 0 {
		ev = []*ledger.Entry{b, a}
	}
	v := &p2p.Verdict{Kind: p2p.VerdictEquivocation, Game: h.GameID(), Pos: a.Pos, Seat: 0,
		Reason: "seat 0 signed two entries for position 0", Evidence: ev, Declarer: 1}
	sign := func(v *p2p.Verdict) {
		if err := v.Sign(keys[1].Sign); err != nil {
			t.Fatal(err)
		}
	}
	sign(v)
	if err := v.Verify(h.Roster); err != nil {
		t.Fatalf("equivocation verdict: %v", err)
	}
	bad := *v
	bad.Evidence = []*ledger.Entry{ev[0], &resigned}
	if h0, h1 := ev[0].Hash(), resigned.Hash(); bytes.Compare(h0[:], h1[:]) > 0 {
		bad.Evidence = []*ledger.Entry{&resigned, ev[0]}
	}
	sign(&bad)
	if err := bad.Verify(h.Roster); err == nil {
		t.Fatal("a verdict with a forged evidence signature verifies")
	}
	blamed := *v
	blamed.Seat = 2
	sign(&blamed)
	if err := blamed.Verify(h.Roster); err == nil {
		t.Fatal("a verdict blaming a seat that did not sign the evidence verifies")
	}
}

func engineMove(own, target int) engine.Move {
	return engine.Move{Seat: engine.Seat(own), Kind: mascarade.KindSwap, Args: []int{own, target}}
}

func cloneEntry(e *ledger.Entry) *ledger.Entry {
	c := *e
	c.Body = bytes.Clone(e.Body)
	return &c
}
