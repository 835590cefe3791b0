package grimmview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/seatview"
)

// While the table shuffles and reveals (no player's move is due), the
// screen says "waiting for " + Waiting: the phrase must read as what is
// waited for ("the table to shuffle"), not as a clause ("waiting for the
// table is shuffling").
func TestGrimmWaitingForTheTableReads(t *testing.T) {
	o := grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := grimm.Game{}.New(enc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if need := s.Next(); need.Kind == engine.NeedMove {
		t.Fatalf("a new game needs a move, not the deal: %+v", need)
	}
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: s, Seat: 0, Names: o.Players})
	if !ok {
		t.Fatal("no view")
	}
	line := "waiting for " + tb.Waiting
	if tb.Waiting == "" || strings.Contains(line, " is ") {
		t.Errorf("the screen would say %q", line)
	}
}
