package mascarade_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
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

type played struct {
	m    engine.Move
	swap bool
}

// playRandom plays random legal moves until the game ends or maxSteps.
func playRandom(t testing.TB, r *rand.Rand, tab *mascaradetest.Table, maxSteps int) []played {
	var log []played
	for range maxSteps {
		s := tab.State
		need := s.Next()
		if need.Kind == engine.NeedNothing {
			if !s.Over() || len(s.Winners()) == 0 {
				t.Fatalf("NeedNothing but not over with winners: %v", s)
			}
			return log
		}
		if need.Kind != engine.NeedMove {
			t.Fatalf("oracle left the state waiting for facts: %v", s)
		}
		moves := s.LegalMoves(need.Seat)
		if len(moves) == 0 {
			t.Fatalf("no legal move for seat %d: %v", need.Seat, s)
		}
		// A seat that is not asked has no legal move.
		if other := (need.Seat + 1) % engine.Seat(s.Players()); s.LegalMoves(other) != nil {
			t.Fatalf("seat %d has legal moves out of turn", other)
		}
		m := moves[r.IntN(len(moves))]
		// Favour ending the challenge window and the turn quickly: random
		// play otherwise challenges far more than people do.
		if s.InChallengeWindow() && r.IntN(4) != 0 {
			m = moves[0] // pass
		}
		bit := r.IntN(2) == 0
		before := mascaradetest.HashState(s)
		if _, err := tab.Play(m, bit); err != nil {
			t.Fatalf("legal move %s rejected: %v", mascarade.FormatMove(s, m), err)
		}
		if mascaradetest.HashState(s) != before {
			t.Fatal("Apply modified its receiver")
		}
		if got := tab.State.Total(); got != mascarade.BoxCoins {
			t.Fatalf("coins not conserved: %d after %s", got, mascarade.FormatMove(s, m))
		}
		for p := range engine.Seat(tab.State.Players()) {
			if tab.State.Coins(p) < 0 {
				t.Fatalf("negative purse: %v", tab.State)
			}
		}
		log = append(log, played{m, bit})
	}
	return log
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
				log := playRandom(t, r, tab, 600)
				if tab.State.Over() {
					ended++
				}
				replay(t, opts, deal, log, tab.Steps)
			}
			if ended < games/2 {
				t.Errorf("only %d of %d random games ended within the step cap", ended, games)
			}
		})
	}
}

// replay plays the same moves from scratch and checks every state hash.
func replay(t *testing.T, opts mascarade.Options, deal []engine.Card, log []played, want []mascaradetest.Step) {
	t.Helper()
	tab, err := mascaradetest.New(opts, deal)
	if err != nil {
		t.Fatal(err)
	}
	for i, pm := range log {
		st, err := tab.Play(pm.m, pm.swap)
		if err != nil {
			t.Fatalf("replay step %d: %v", i, err)
		}
		if st.Hash != want[i].Hash {
			t.Fatalf("replay step %d: state hash differs", i)
		}
	}
	a, _ := tab.State.AppendBinary(nil)
	b, _ := tab.State.AppendBinary(nil)
	if !bytes.Equal(a, b) {
		t.Fatal("encoding not deterministic")
	}
}
