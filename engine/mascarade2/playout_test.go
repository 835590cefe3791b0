package mascarade2_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
)

type played struct {
	m    engine.Move
	swap bool
}

// playRandom plays random legal moves until the game ends or maxSteps,
// checking the invariants after every move.
func playRandom(t testing.TB, r *rand.Rand, tab *mascarade2test.Table, maxSteps int) []played {
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
		if other := (need.Seat + 1) % engine.Seat(s.Players()); s.LegalMoves(other) != nil {
			t.Fatalf("seat %d has legal moves out of turn", other)
		}
		m := moves[r.IntN(len(moves))]
		// Favour closing the challenge window: random play otherwise
		// challenges far more than people do.
		if s.InChallengeWindow() && r.IntN(4) != 0 {
			m = moves[0] // pass
		}
		bit := r.IntN(2) == 0
		before := mascarade2test.HashState(s)
		if _, err := tab.Play(m, bit); err != nil {
			t.Fatalf("legal move %s rejected: %v", mascarade2.FormatMove(s, m), err)
		}
		if mascarade2test.HashState(s) != before {
			t.Fatal("Apply modified its receiver")
		}
		ns := tab.State
		if got := ns.Total(); got != mascarade2.BoxCoins {
			t.Fatalf("coins not conserved: %d after %s", got, mascarade2.FormatMove(s, m))
		}
		for p := range engine.Seat(ns.Players()) {
			if ns.Coins(p) < 0 {
				t.Fatalf("negative purse: %v", ns)
			}
			if ns.SeatAt(ns.ChairOf(p)) != p {
				t.Fatalf("seating is not a permutation: %v", ns.Seating())
			}
		}
		log = append(log, played{m, bit})
	}
	return log
}

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
func replay(t *testing.T, opts mascarade2.Options, deal []engine.Card, log []played, want []mascarade2test.Step) {
	t.Helper()
	tab, err := mascarade2test.New(opts, deal)
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
