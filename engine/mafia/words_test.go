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

const off5 = "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian incidents=off\n"

// The move that ends the first day's question or the day's vote without
// condemning anyone says so; one that does not end it says nothing more.
func TestSayDayEnd(t *testing.T) {
	say := func(src string, m engine.Move) string {
		t.Helper()
		header := five
		if h, rest, ok := strings.Cut(src, "\n"); ok && strings.HasPrefix(h, "game ") {
			header, src = h+"\n", rest
		}
		tab, err := run(t, header+src)
		if err != nil {
			t.Fatal(err)
		}
		return mafia.SayMove(tab.State, m, -1)
	}
	hold := func(seat, yes int) engine.Move {
		return engine.Move{Seat: engine.Seat(seat), Kind: mafia.MoveHold, Args: []int{yes}}
	}
	vote := func(seat, target int) engine.Move {
		return engine.Move{Seat: engine.Seat(seat), Kind: mafia.MoveVote, Args: []int{target}}
	}
	fourNo := "Anna hold no\nBoris hold no\nClara hold no\nDima hold no\n"
	fourYes := "Anna hold yes\nBoris hold yes\nClara hold yes\nDima hold no\n"
	for _, tc := range []struct {
		src  string
		m    engine.Move
		want string
	}{
		{"Anna hold no\n", hold(1, 0), "Boris wants no vote today."},
		{fourNo, hold(4, 0), "Egor wants no vote today. No vote today: most of the living did not want one."},
		{fourYes, hold(4, 0), "Egor wants no vote today. Most of the living want a vote: the vote begins."},
		{fourYes + "Egor hold no\nAnna vote Boris\nBoris vote Anna\nClara vote Dima\nDima vote Clara\n", vote(4, -1),
			"Egor abstains. Nobody is eliminated today: no player has the most votes."},
		{fourYes + "Egor hold no\nAnna vote Boris\nBoris vote Anna\nClara vote Boris\nDima vote Boris\n", vote(4, -1),
			"Egor abstains. Boris has the most votes."},
		// Without a card to answer with, the vote eliminates at once: it
		// must not be told as a vote that eliminated nobody.
		{off5 + fourYes + "Egor hold no\nAnna vote Boris\nBoris vote Anna\nClara vote Boris\nDima vote Boris\n", vote(4, -1),
			"Egor abstains. Boris has the most votes and is eliminated."},
		// A player leaving during the vote does not end it.
		{fourYes + "Egor hold no\nAnna vote Boris\n", engine.Move{Seat: 2, Kind: mafia.MoveLeave}, "Clara leaves the game."},
	} {
		if got := say(tc.src, tc.m); got != tc.want {
			t.Errorf("after %q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

// tell plays src and returns every line the facts were told in, to
// nobody in particular.
func tell(t *testing.T, src string) []string {
	t.Helper()
	sc, err := mafia.ParseScript([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := mafiatest.New(sc.Options, 1)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	tab.OnFacts = func(before, after *mafia.State, facts []engine.Fact) {
		lines = append(lines, mafia.SayFacts(before, after, facts, -1)...)
	}
	for _, l := range sc.Lines {
		if err := tab.Line(l); err != nil {
			t.Fatalf("line %d: %v", l.LineNo, err)
		}
	}
	return lines
}

// Without incident cards the Commissar's elimination deals none
// ("карты «Случайностей» не раздаются"), and the words say so.
func TestSayCommissarOutNoIncidents(t *testing.T) {
	const vote = "Anna hold yes\nBoris hold yes\nClara hold yes\nDima hold yes\nEgor hold yes\nFedor hold yes\n" +
		"Anna vote Boris\nBoris vote Anna\nClara vote Boris\nDima vote Boris\nEgor vote Boris\nFedor vote Boris\n"
	const players = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor roles=Mafioso,Commissar,Mafioso,Civilian,Civilian,Civilian"
	for _, tc := range []struct {
		header, answer string
		draws          bool
	}{{players + " incidents=off\n", "", false}, {players + "\n", "Boris pass\n", true}} {
		lines := strings.Join(tell(t, tc.header+vote+tc.answer), "\n")
		if !strings.Contains(lines, "Boris is out of the game: they were the Commissar.") {
			t.Fatalf("%s: the elimination is not told: %s", tc.header, lines)
		}
		if got := strings.Contains(lines, "draws an incident card"); got != tc.draws {
			t.Errorf("%s: told a draw %v, want %v:\n%s", tc.header, got, tc.draws, lines)
		}
	}
}
