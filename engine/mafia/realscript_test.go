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
	head := "game mafia players=Anna,Boris,Clara,Dima roles=Mafioso,Civilian,Civilian,Civilian incidents=off\nAnna hold no\nBoris hold no\nClara hold no\nDima hold no\n"
	if _, err := localplay.Run(mafia.Game{}, []byte("game mafia players=Anna,Boris,Clara,Dima\ncoin Anna\n"), nil, false); !errors.Is(err, mafia.ErrCoinLine) {
		t.Fatalf("a coin line: %v", err)
	}
	for _, tc := range []struct {
		name, lines string
		line        int
		want        error
	}{
		{"not asked", "Boris kill Clara\nAnna kill Clara\nexpect day=2\n", 6, mafia.ErrNotAsked},
		{"missing choice", "expect day=2\n", 6, table.ErrNoChoice},
		{"self", "Anna kill Anna\n", 6, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := localplay.Run(mafia.Game{}, []byte(head+tc.lines), nil, false)
			var se *games.ScriptError
			if !errors.As(err, &se) || se.Line != tc.line || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("error %v: want line %d, %v", err, tc.line, tc.want)
			}
			if tc.want != mafia.ErrNotAsked && !strings.Contains(err.Error(), "Anna's night actions") {
				t.Fatalf("error %v does not name the player", err)
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
