package games_test

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
)

// FormatMoveOf says a move of the game's own state with the game's words
// and anything else (nil, a typed nil, another game's state) neutrally;
// StateOf finds the game's own state only.
func TestFormatMoveOf(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima"}
	s, err := mascarade.NewGame(mascarade.Options{Players: names},
		[]engine.Card{mascarade.Queen, mascarade.King, mascarade.Judge, mascarade.Bishop, mascarade.Thief, mascarade.Cheat})
	if err != nil {
		t.Fatal(err)
	}
	o2 := mascarade2.Options{Players: names}
	other, err := mascarade2.NewGame(o2, o2.Normalize().Set)
	if err != nil {
		t.Fatal(err)
	}
	m := engine.Move{Seat: 0, Kind: mascarade.KindSwap, Args: []int{0, 1}}
	for _, tc := range []struct {
		name  string
		state engine.State
		want  string
		ok    bool
	}{
		{"its own state", s, "Anna swap Boris", true},
		{"nil", nil, "seat(0) swap [0 1]", false},
		{"a typed nil", (*mascarade.State)(nil), "seat(0) swap [0 1]", false},
		{"another game's state", other, "seat(0) swap [0 1]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := games.FormatMoveOf(tc.state, m, mascarade.FormatMove, mascarade.KindName); got != tc.want {
				t.Errorf("FormatMoveOf = %q, want %q", got, tc.want)
			}
			if _, ok := games.StateOf[*mascarade.State](tc.state); ok != tc.ok {
				t.Errorf("StateOf ok = %v, want %v", ok, tc.ok)
			}
		})
	}
}
