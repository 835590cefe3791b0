package mascarade_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

var playerNames = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya", "Roma"}

// randomOptions returns valid options for p players: the recommended set
// when there is a valid one, else a random set satisfying the book.
func randomOptions(r *rand.Rand, p int) mascarade.Options {
	o := mascarade.Options{Players: playerNames[:p], Coins: 1 + r.IntN(8)}
	if r.IntN(3) == 0 {
		o.Coins = mascarade.DefaultCoins
	}
	switch {
	case p == 4 || p == 5:
		o.Center = 6 - p
	case p >= 6:
		o.Center = r.IntN(3)
	}
	o.Center = min(o.Center, 13-p) // the box has 13 cards
	if r.IntN(2) == 0 && o.Normalize().Validate() == nil {
		return o
	}
	o.Set = randomSet(r, p, o.Center)
	return o
}

// randomSet draws random sets until one satisfies the book's constraints.
func randomSet(r *rand.Rand, players, center int) []engine.Card {
	n := players + center
	if players <= 3 {
		n = 6
	}
	box := []engine.Card{}
	for _, c := range mascarade.Cards() {
		for range c.Copies {
			box = append(box, c.Card)
		}
	}
	for {
		r.Shuffle(len(box), func(i, j int) { box[i], box[j] = box[j], box[i] })
		set := append([]engine.Card(nil), box[:n]...)
		if mascarade.CheckSet(set, players, center) == nil {
			return set
		}
	}
}

func TestRandomPlayouts(t *testing.T) {
	games := 250
	if testing.Short() {
		games = 40
	}
	for p := 2; p <= 13; p++ {
		t.Run(fmt.Sprintf("%dp", p), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(p), 1))
			ended := 0
			for g := range games {
				opts := randomOptions(r, p)
				set := opts.Normalize().Set
				deal := append([]engine.Card(nil), set...)
				r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
				tab, err := mascaradetest.New(opts, deal)
				if err != nil {
					t.Fatalf("game %d: %v", g, err)
				}
				log := scripttest.Playout(t, r, tab, 600, mascarade.BoxCoins, mascarade.FormatMove, nil)
				if tab.State.Over() {
					ended++
				}
				again, err := mascaradetest.New(opts, deal)
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
