package masqview

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya"}

// Every legal move of random games of both editions, 2 to 13 players, is
// offered in words: no script syntax ("target=", "between=", "with=",
// "Anna.left", "centre1") reaches the player.
func TestChoiceHasNoScriptSyntax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	check := func(s engine.State, p engine.Seat, legal []engine.Move) {
		r, _ := rulesOf(s)
		for _, m := range legal {
			w := Choice(r, m)
			seen[strings.Fields(w)[0]] = true
			if testing.Verbose() && !seen["  "+w] {
				seen["  "+w] = true
				t.Log(w)
			}
			if strings.ContainsAny(w, "=[]") || strings.Contains(w, "center") || strings.Contains(w, ".left") ||
				strings.Contains(w, ".right") || strings.Contains(w, ".guard") {
				t.Fatalf("%s: %q is offered as %q", r.Name(p), r.FormatMove(m), w)
			}
			// The log tells the same move in words too: in the third
			// person, and in the second to its author.
			third, second := Said(r, m, -1), Said(r, m, p)
			for _, w := range []string{third, second} {
				if strings.ContainsAny(w, "=[]") || strings.Contains(w, "centre1") || strings.Contains(w, "centre2") ||
					strings.Contains(w, ".left") || strings.Contains(w, ".right") || strings.Contains(w, ".guard") {
					t.Fatalf("%s: %q is told as %q", r.Name(p), r.FormatMove(m), w)
				}
			}
			// The script's verb ("swap", "use") is never the log's ("swaps").
			if !strings.HasPrefix(third, r.Name(p)+" ") || !strings.HasPrefix(second, "you ") ||
				strings.Fields(third)[1] == strings.Fields(r.FormatMove(m))[1] {
				t.Fatalf("%s: %q is told as %q and, to its author, %q", r.Name(p), r.FormatMove(m), third, second)
			}
		}
	}
	for n := 2; n <= 13; n++ {
		for game := 0; game < 3; game++ {
			g1, _ := mascarade.Options{Players: names[:n]}.MarshalBinary()
			deck, _ := mascarade.Game{}.Deck(g1)
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			o1, err := mascaradetest.New(mascarade.Options{Players: names[:n]}, deck)
			if err != nil {
				t.Fatal(err)
			}
			play(t, rng, &o1.State, func(m engine.Move, bit bool) error { _, err := o1.Play(m, bit); return err }, check)
			if n < 4 || n > 12 {
				continue
			}
			g2, _ := mascarade2.Options{Players: names[:n]}.MarshalBinary()
			deck2, _ := mascarade2.Game{}.Deck(g2)
			rng.Shuffle(len(deck2), func(i, j int) { deck2[i], deck2[j] = deck2[j], deck2[i] })
			o2, err := mascarade2test.New(mascarade2.Options{Players: names[:n]}, deck2)
			if err != nil {
				t.Fatal(err)
			}
			play(t, rng, &o2.State, func(m engine.Move, bit bool) error { _, err := o2.Play(m, bit); return err }, check)
		}
	}
	for _, w := range []string{"swap", "look", "claim", "challenge:", "pass:", "use"} {
		if !seen[w] {
			t.Errorf("no choice starting %q was offered: the games did not exercise it", w)
		}
	}
}

type legalMover interface {
	engine.State
	LegalMoves(engine.Seat) []engine.Move
	Over() bool
}

func play[S legalMover](t *testing.T, rng *rand.Rand, st *S, apply func(engine.Move, bool) error, check func(engine.State, engine.Seat, []engine.Move)) {
	t.Helper()
	for range 300 {
		s := *st
		if s.Over() {
			return
		}
		need := s.Next()
		if need.Kind != engine.NeedMove {
			return
		}
		legal := s.LegalMoves(need.Seat)
		if len(legal) == 0 {
			t.Fatalf("no legal move for seat %d", need.Seat)
		}
		check(s, need.Seat, legal)
		if err := apply(legal[rng.IntN(len(legal))], rng.IntN(2) == 0); err != nil {
			t.Fatal(fmt.Errorf("move: %w", err))
		}
	}
}

// rulesOf wraps a rules state of either edition.
func rulesOf(s engine.State) (Rules, bool) {
	if r, ok := First().Of(s); ok {
		return r, true
	}
	return Second().Of(s)
}
