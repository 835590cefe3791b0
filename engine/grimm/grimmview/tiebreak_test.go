package grimmview

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
	"github.com/masque-games/masque/engine/seatview"
)

// A game whose most roses are tied goes to the greater sum of reward
// tokens (docs/rules-grimm.md 159). The result said "Gina won", "roses:
// Gina 5, you 5" and "you lost, with 5 roses", and nothing of why: it now
// says the tie was broken and by what.
func TestGrimmResultTellsTheTieBreak(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha"}
	found := 0
	for seed := uint64(1); seed <= 200 && found < 2; seed++ {
		tab, err := grimmtest.New(grimm.Options{Players: names}, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		for !tab.State.Over() {
			p := tab.State.Next().Seat
			ms := tab.State.LegalMoves(p, tab.Known(p))
			if err := tab.Play(ms[r.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		s := tab.State
		top, tied := -1, 0
		for p := range engine.Seat(len(names)) {
			switch {
			case s.Roses(p) > top:
				top, tied = s.Roses(p), 1
			case s.Roses(p) == top:
				tied++
			}
		}
		broken := tied > len(s.Winners())
		v, _ := seatview.Build(Viewer{}, seatview.Input{Rules: s, Seat: 0, Names: names, Known: tab.Known(0)})
		res := strings.Join(v.Result, "\n")
		says := strings.Contains(res, "tied at") && strings.Contains(res, "reward tokens")
		if says != broken {
			t.Errorf("seed %d: tie broken %v, the result:\n%s", seed, broken, res)
		}
		if broken {
			found++
			w := s.Winners()[0]
			if !strings.Contains(res, "the greater sum of reward tokens") || !strings.Contains(res, names[w]) && w != 0 {
				t.Errorf("seed %d: the result does not name the tie-break:\n%s", seed, res)
			}
		}
	}
	if found == 0 {
		t.Fatal("no game of the 200 ended in a tie broken by rewards: the test checks nothing")
	}
}
