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
	s, tb := newGameView(t)
	if need := s.Next(); need.Kind == engine.NeedMove {
		t.Fatalf("a new game needs a move, not the deal: %+v", need)
	}
	line := "waiting for " + tb.Waiting
	if tb.Waiting == "" || strings.Contains(line, " is ") {
		t.Errorf("the screen would say %q", line)
	}
}

// The view says what a screen draws beside a seat's roses: a rose, and
// nothing beside its hint tokens.
func TestGrimmViewSaysIcons(t *testing.T) {
	_, tb := newGameView(t)
	for _, st := range tb.Seats {
		icons := map[string]string{}
		for _, a := range st.Attrs {
			icons[a.Name] = a.Icon
		}
		if icons["roses"] != seatview.IconRose || icons["hint tokens"] != "" {
			t.Errorf("%s's attributes %+v: want a rose on the roses alone", st.Name, st.Attrs)
		}
	}
}

// newGameView returns a new 3-player game (Anna, Boris, Sasha) before
// its deal, and Anna's view of it.
func newGameView(t *testing.T) (engine.State, seatview.Table) {
	t.Helper()
	o := grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := grimm.Game{}.New(enc, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: s, Seat: 0, Names: o.Players})
	if !ok {
		t.Fatal("no view")
	}
	return s, tb
}
