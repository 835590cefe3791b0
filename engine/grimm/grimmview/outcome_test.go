package grimmview

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
	"github.com/masque-games/masque/engine/seatview"
)

// TestGrimmOutcome: at the end each seat's view says how the game ended
// for it, as Mascarade's and Mafia's do ("you won!", "you lost, with 2
// roses"), so that a screen with room for one line (a phone's) says it;
// the game's view said only who won, in the third person.
func TestGrimmOutcome(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha"}
	tab, err := grimmtest.New(grimm.Options{Players: names}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	for !tab.State.Over() {
		p := tab.State.Next().Seat
		ms := tab.State.LegalMoves(p, tab.Known(p))
		if err := tab.Play(ms[r.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	winners := map[engine.Seat]bool{}
	for _, w := range tab.State.Winners() {
		winners[w] = true
	}
	for p := range engine.Seat(len(names)) {
		v, ok := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: p, Names: names, Known: tab.Known(p)})
		if !ok {
			t.Fatal("no view")
		}
		want := fmt.Sprintf("you lost, with %d %s", tab.State.Roses(p), seatview.Plural(tab.State.Roses(p), "rose", "roses"))
		if winners[p] {
			want = "you won!"
		}
		if v.Outcome != want || v.Won != winners[p] {
			t.Errorf("%s's outcome: %q (won %v), want %q", names[p], v.Outcome, v.Won, want)
		}
	}
	if v, _ := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: -1, Names: names}); v.Outcome != "" {
		t.Errorf("a spectator's outcome: %q, want none", v.Outcome)
	}
}
