package mafia_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

// plain checks that a log line is plain words, not script syntax.
func plain(t *testing.T, line string) {
	t.Helper()
	if line == "" || strings.Contains(line, "slot=") || strings.Contains(line, "kind(") || strings.Contains(line, "card(") ||
		strings.Contains(line, "seat(") || strings.Contains(line, "nobody was") {
		t.Fatalf("not plain words: %q", line)
	}
}

func TestWords(t *testing.T) {
	for seed := range uint64(30) {
		n := 4 + int(seed%15)
		tab, err := mafiatest.New(mafia.Options{Players: names(n)}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		tab.OnFacts = func(before, after *mafia.State, facts []engine.Fact) {
			for _, you := range []engine.Seat{-1, 0} {
				for _, l := range mafia.SayFacts(before, after, facts, you) {
					plain(t, l)
					lines = append(lines, l)
				}
			}
		}
		var players []mafiatest.Player
		for p := range engine.Seat(n) {
			players = append(players, newBot(p, seed))
		}
		for range 5000 {
			if !tab.Waiting() && tab.State.Next().Kind == engine.NeedMove {
				p := tab.State.Turn()
				m, _ := players[p].Move(tab.State, tab.Knowledge(p))
				for _, you := range []engine.Seat{-1, p} {
					plain(t, mafia.SayMove(tab.State, m, you))
				}
				if you := mafia.SayMove(tab.State, m, p); !strings.HasPrefix(you, "You ") {
					t.Fatalf("second person: %q", you)
				}
				if mafia.Prompt(tab.State, p) == "" {
					t.Fatalf("no prompt for the seat to move in %v", tab.State.Phase())
				}
			}
			more, err := tab.Step(players)
			if err != nil {
				t.Fatal(err)
			}
			if !more {
				break
			}
		}
		if !tab.State.Over() || !strings.Contains(strings.Join(lines, "\n"), "win") && tab.State.Result() != mafia.SideDraw {
			t.Fatalf("seed %d: the end is not told: %v", seed, lines)
		}
	}
}

func TestSayMoveExamples(t *testing.T) {
	tab, err := run(t, five+noVote5+"Anna kill Dima\n")
	if err != nil {
		t.Fatal(err)
	}
	s := tab.State
	m := engine.Move{Seat: 3, Kind: mafia.MoveCard, Args: []int{int(mafia.RicochetLeft), int(s.Hand(3)[0]), 0}}
	if got, want := mafia.SayMove(s, m, -1), "Dima plays a Ricochet (left): the attack moves to Egor."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, want := mafia.SayMove(s, m, 3), "You play a Ricochet (left): the attack moves to Egor."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, want := mafia.SayMove(s, m, 4), "Dima plays a Ricochet (left): the attack moves to you."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
