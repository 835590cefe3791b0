package mascarade2_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

func TestRandomPlayouts(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		t.Run(fmt.Sprintf("%dp", p), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(p), 2))
			ended := 0
			for g := range games {
				opts := randomOptions(r, p)
				if g%2 == 0 {
					opts.Set = nil // the default scenario in every other game
				}
				deal := opts.Normalize().Set
				r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
				tab, err := mascarade2test.New(opts, deal)
				if err != nil {
					t.Fatalf("game %d: %v", g, err)
				}
				log := scripttest.Playout(t, r, tab, 600, mascarade2.BoxCoins, mascarade2.FormatMove, seatingChecked(t))
				if tab.State.Over() {
					ended++
				}
				again, err := mascarade2test.New(opts, deal)
				if err != nil {
					t.Fatal(err)
				}
				scripttest.Replay(t, again, log, tab.Steps)
			}
			if ended < games/2 {
				t.Errorf("only %d of %d random games ended within the step cap", ended, games)
			}
		})
	}
}

// TestEveryMaskUsed plays random games until every mask's power has been
// used by a real owner at least once, with every player count.
func TestEveryMaskUsed(t *testing.T) {
	used := map[engine.Card]bool{}
	r := rand.New(rand.NewPCG(9, 9))
	for g := 0; g < 400 && len(used) < len(mascarade2.Cards()); g++ {
		p := mascarade2.MinPlayers + g%(mascarade2.MaxPlayers-mascarade2.MinPlayers+1)
		opts := mascarade2.Options{Players: playerNames[:p]}
		deal := opts.Normalize().Set
		r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		tab, err := mascarade2test.New(opts, deal)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			s := tab.State
			if s.Next().Kind != engine.NeedMove {
				break
			}
			moves := s.LegalMoves(s.Next().Seat)
			m := moves[r.IntN(len(moves))]
			if s.InChallengeWindow() && r.IntN(4) != 0 {
				m = moves[0]
			}
			// A claim of the claimant's true card: its power is used.
			if m.Kind == mascarade2.KindClaim && tab.Cards[m.Args[1]] == engine.Card(m.Args[0]) {
				used[engine.Card(m.Args[0])] = true
			}
			if _, err := tab.Play(m, r.IntN(2) == 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, info := range mascarade2.Cards() {
		if !used[info.Card] {
			t.Errorf("%s never used", info.Name)
		}
	}
}

// seatingChecked checks the 2nd edition's own invariant after every move
// of a playout: the seating is a permutation of the seats.
func seatingChecked(t *testing.T) func(*mascarade2.State) {
	return func(ns *mascarade2.State) {
		for p := range engine.Seat(ns.Players()) {
			if ns.SeatAt(ns.ChairOf(p)) != p {
				t.Fatalf("seating is not a permutation: %v", ns.Seating())
			}
		}
	}
}
