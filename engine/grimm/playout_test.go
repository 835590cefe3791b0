package grimm_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}

// playout plays a whole game of random legal moves (each seat choosing
// from what it knows) and checks the invariants after every move.
func playout(t *testing.T, opts grimm.Options, seed uint64) *grimmtest.Table {
	t.Helper()
	tab, err := grimmtest.New(opts, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	checkInvariants(t, tab)
	for step := 0; ; step++ {
		s := tab.State
		if s.Over() {
			break
		}
		if step > 5000 {
			t.Fatalf("seed %d: no end after %d moves: %v", seed, step, s)
		}
		need := s.Next()
		if need.Kind != engine.NeedMove {
			t.Fatalf("seed %d: the table left the rules waiting for %v", seed, need)
		}
		moves := s.LegalMoves(need.Seat, tab.Known(need.Seat))
		if len(moves) == 0 {
			t.Fatalf("seed %d: no legal move for %s: %v %s known %v moves %v", seed, s.Name(need.Seat), s, s.Debug(), tab.Known(need.Seat), tab.Moves[len(tab.Moves)-5:])
		}
		m := moves[r.IntN(len(moves))]
		// A bias towards ending turns keeps games short.
		for _, x := range moves {
			if x.Kind == grimm.KindEnd && r.IntN(2) == 0 {
				m = x
			}
		}
		if len(m.Args) > 16 {
			t.Fatalf("%+v has more arguments than a table entry carries (16)", m)
		}
		for _, a := range m.Args {
			if a != int(int32(a)) {
				t.Fatalf("%+v: argument %d does not fit 32 bits", m, a)
			}
		}
		text := grimm.FormatMove(s, m)
		fields := strings.Fields(text)
		back, err := grimm.ParseMove(s, m.Seat, fields[1:])
		if err != nil || back.Seat != m.Seat || back.Kind != m.Kind || !slices.Equal(back.Args, m.Args) {
			t.Fatalf("seed %d: %q reads back as %+v (%v), want %+v", seed, text, back, err, m)
		}
		before, _ := s.AppendBinary(nil)
		roses := total(s)
		unmasked := countUnmasked(s)
		round := s.Round()
		if err := tab.Play(m); err != nil {
			t.Fatalf("seed %d: legal move %q refused: %v\nstate %v\nmoves %v", seed, grimm.FormatMove(s, m), err, s, tab.Moves)
		}
		after, _ := s.AppendBinary(nil)
		if !bytes.Equal(before, after) {
			t.Fatalf("seed %d: Play modified its receiver", seed)
		}
		ns := tab.State
		if ns.Round() == round && !ns.Over() {
			du := countUnmasked(ns) - unmasked
			if d := total(ns) - roses; d < 0 || d > 1+2*du {
				t.Fatalf("seed %d: roses went from %d to %d with %d unmaskings after %q", seed, roses, total(ns), du, grimm.FormatMove(s, m))
			}
		}
		checkInvariants(t, tab)
	}
	return tab
}

func total(s *grimm.State) int {
	k := 0
	for p := range engine.Seat(s.Players()) {
		k += s.Roses(p)
	}
	return k
}

func countUnmasked(s *grimm.State) int {
	k := 0
	for p := range engine.Seat(s.Players()) {
		k += len(s.CharSlotsOf(p)) - len(s.MaskedSlots(p))
	}
	return k
}

func checkInvariants(t *testing.T, tab *grimmtest.Table) {
	t.Helper()
	s := tab.State
	seen := map[engine.Slot]string{}
	add := func(sl engine.Slot, where string) {
		if w, dup := seen[sl]; dup {
			t.Fatalf("item slot %d both in %s and %s: %v", sl, w, where, s)
		}
		seen[sl] = where
	}
	for _, sl := range s.Deck() {
		add(sl, "deck")
	}
	for _, x := range s.Discard() {
		add(x.Slot, "discard")
	}
	for _, x := range s.Row() {
		add(x.Slot, "row")
	}
	for _, x := range s.Drawn() {
		add(x.Slot, "drawn")
	}
	for p := range engine.Seat(s.Players()) {
		for _, x := range s.Front(p) {
			add(x.Slot, fmt.Sprintf("front of %d", p))
			if tab.Truth[x.Slot] != x.Item {
				t.Fatalf("slot %d shows %s, holds %s", x.Slot, grimm.CardName(x.Item), grimm.CardName(tab.Truth[x.Slot]))
			}
		}
		for _, sl := range s.Hand(p) {
			add(sl, fmt.Sprintf("hand of %d", p))
		}
		if s.Unmasked(p) && len(s.Front(p)) > 0 && s.Players() > 2 {
			t.Fatalf("unmasked %s has items face up", s.Name(p))
		}
		tl := s.TokensLeft(p)
		if tl < 0 || tl > grimm.HintTokens {
			t.Fatalf("%s has %d tokens left", s.Name(p), tl)
		}
		for _, c := range grimm.Characters() {
			if s.HasToken(p, c) {
				if s.Broken(c) {
					t.Fatalf("%s's token on the broken %s", s.Name(p), grimm.CardName(c))
				}
				for _, sl := range s.CharSlotsOf(p) {
					if tab.Truth[sl] == c && s.Round() == roundOfTruth(tab) {
						t.Fatalf("%s's token on its own character %s", s.Name(p), grimm.CardName(c))
					}
				}
			}
		}
		for _, sl := range s.CharSlotsOf(p) {
			if k := s.Known(sl); k != 0 && k != tab.Truth[sl] && !s.Over() {
				t.Fatalf("slot %d known as %s, holds %s", sl, grimm.CardName(k), grimm.CardName(tab.Truth[sl]))
			}
		}
	}
	if len(seen) != grimm.NumItems {
		t.Fatalf("%d item slots accounted for, want %d: %v", len(seen), grimm.NumItems, s)
	}
}

// roundOfTruth returns the round the table's truth belongs to: the
// state's (the truth is re-dealt as soon as a round starts).
func roundOfTruth(tab *grimmtest.Table) int { return tab.State.Round() }

func TestRandomPlayouts(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	for players := 2; players <= 5; players++ {
		for seed := range uint64(n) {
			opts := grimm.Options{Players: names[:players]}
			if players > 2 && seed%3 == 1 {
				opts.Bets = true
			}
			if seed%2 == 1 {
				opts.Jewels = true
			}
			if seed%4 >= 2 {
				opts.Abilities = true
			}
			t.Run(fmt.Sprintf("%dp-seed%d", players, seed), func(t *testing.T) {
				tab := playout(t, opts, seed)
				s := tab.State
				if len(s.Winners()) == 0 {
					t.Fatal("a finished game without winners")
				}
				res := s.Results()
				if len(res) == 0 || len(res) > grimm.Rounds {
					t.Fatalf("%d rounds", len(res))
				}
				if len(res) < grimm.Rounds {
					ten := false
					for p := range engine.Seat(players) {
						ten = ten || s.Roses(p) >= grimm.RoseTarget
					}
					if !ten {
						t.Fatalf("the game ended after %d rounds without 10 roses", len(res))
					}
				}
			})
		}
	}
}
