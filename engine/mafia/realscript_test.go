package mafia_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// The book's whole 5-player game, night lines included, plays through the
// real stack (every night's ballots proven, tallies of shares) to the
// end the script expects, and its transcript replays.
func TestScriptThroughRealStack(t *testing.T) {
	src, err := os.ReadFile("testdata/game-5.txt")
	if err != nil {
		t.Fatal(err)
	}
	lt, err := localplay.Run(mafia.Game{}, src, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.Replay(lt.Transcript(), mafia.Game{}); err != nil {
		t.Fatalf("replay: %v", err)
	}
}

// Through the real stack a night line of a seat without the power, a
// missing choice of a seat that holds one, and a coin line are refused,
// naming their line.
func TestRealScriptNightErrors(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	head := "game mafia players=Anna,Boris,Clara,Dima roles=Mafioso,Civilian,Civilian,Civilian incidents=off\nAnna hold no\nBoris hold no\nClara hold no\nDima hold no\n"
	if _, err := localplay.Run(mafia.Game{}, []byte("game mafia players=Anna,Boris,Clara,Dima\ncoin Anna\n"), nil, false); !errors.Is(err, mafia.ErrCoinLine) {
		t.Fatalf("a coin line: %v", err)
	}
	for _, tc := range []struct {
		name, lines string
		line        int
		want        error
		says        string // the player, the rule and the right move, in words
	}{
		{"not asked", "Boris kill Clara\nAnna kill Clara\nexpect day=2\n", 6, mafia.ErrNotAsked,
			"line 6: Boris cannot kill tonight: only the mafia choose the night's victim"},
		{"missing choice", "expect day=2\n", 6, table.ErrNoChoice,
			`line 6: Anna must choose whom to kill tonight (a mafia vote): add a line "Anna kill NAME"`},
		{"self", "Anna kill Anna\n", 6, table.ErrNoChoice, "line 6: Anna cannot kill themselves: a night choice names one other living player"},
		// The first night is the recognition night: nobody acts in it,
		// and day 1 comes before night 2.
		{"first night", "", 2, mafia.ErrNotAsked, "line 2: Anna cannot kill now: it is day 1; night 1, the recognition night, came before it"},
		// A move of the wrong kind says which move is due.
		{"wrong move", "Anna kill Boris\nAnna hold no\n", 7, nil, "Anna cannot hold now: it is day 2's vote (vote NAME, or vote abstain)"},
		// A card not in hand is said so, not as a syntax error.
		{"not in hand", "Anna kill Clara\nClara play RicochetLeft\n", 7, nil, "Clara holds no Ricochet (left)"},
		// A dead player's vote is refused as such, not as "not your turn".
		{"the dead", "Anna kill Clara\nClara vote Anna\n", 7, nil, "Clara is out of the game and acts no more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.lines
			if tc.name == "not in hand" {
				src = strings.Replace(head, " incidents=off", " deck=Misfire,Alibi,Misfire,Alibi", 1) + tc.lines
			}
			if tc.name == "first night" {
				src = "game mafia players=Anna,Boris,Clara,Dima roles=Mafioso,Civilian,Civilian,Civilian incidents=off\nAnna kill Boris\nAnna hold no\n"
			}
			_, err := localplay.Run(mafia.Game{}, []byte(src), nil, false)
			var se *games.ScriptError
			if !errors.As(err, &se) || se.Line != tc.line || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("error %v: want line %d, %v", err, tc.line, tc.want)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %q does not say %q", err, tc.says)
			}
		})
	}
}

// The dead may read the table chat but not write in it; once the game
// is over everyone may.
func TestMayChat(t *testing.T) {
	src := "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian incidents=off\n" +
		"Anna hold no\nBoris hold no\nClara hold no\nDima hold no\nEgor hold no\nAnna kill Clara\nexpect alive=Anna,Boris,Dima,Egor\n"
	lt, err := localplay.Run(mafia.Game{}, []byte(src), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	st := lt.View().Rules().(*mafia.State)
	for p, want := range []bool{true, true, false, true, true} {
		if got := st.MayChat(engine.Seat(p)); got != want {
			t.Errorf("seat %d may chat: %v, want %v", p, got, want)
		}
	}
}

// The Madman's join in the step that ends the game asks no views and no
// tag round through the real stack either, and the transcript replays.
func TestRealJoinAtTheEnd(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	src := "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya " +
		"roles=Mafioso,Mafioso,Madman,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian incidents=off\n" +
		"Anna hold no\nBoris hold no\nClara hold no\nDima hold no\nEgor hold no\nFedor hold no\nGalya hold no\nIgor hold no\nKatya hold no\n" +
		"Anna kill Dima\nBoris kill Dima\nClara kill Egor\n" +
		"Anna vote Fedor\nBoris vote Fedor\nClara vote Fedor\nFedor vote Anna\nGalya vote Fedor\nIgor vote Fedor\nKatya vote Fedor\n" +
		"Anna kill Galya\nBoris kill Galya\nClara kill Galya\n" +
		"expect alive=Anna,Boris,Clara,Igor,Katya joined=no\n" +
		"Anna vote abstain\nBoris vote abstain\nClara vote abstain\nIgor vote abstain\nKatya vote abstain\n" +
		"Anna kill Igor\nBoris kill Igor\nClara kill Anna\nexpect joined=yes over=yes side=mafia\n"
	lt, err := localplay.Run(mafia.Game{}, []byte(src), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	if _, err := table.Replay(tr, mafia.Game{}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	// MAFIA_DUMP_JOIN_END=FILE writes the transcript, for .ci/pyverify.
	if f := os.Getenv("MAFIA_DUMP_JOIN_END"); f != "" {
		data, err := tr.MarshalBinary()
		if err == nil {
			err = os.WriteFile(f, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// Actions entries: the deal's recognition (9 seats), nights 1, 2 and
	// 3 (9, 6 and 5 living seats); a join tag round would add 3.
	actions := 0
	for i, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if b.Kind == table.BodyActions {
			actions++
		}
	}
	if actions != 9+9+6+5 {
		t.Fatalf("%d actions entries, want %d (no join tag round)", actions, 9+9+6+5)
	}
	t.Logf("%d entries", len(tr.Entries))
}
