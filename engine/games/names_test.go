package games_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/games/toygame"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
)

// A player's name is checked by the game it is for: the form every game
// shares, then the game's own rule (Mascarade's slot names), so that
// "none" may play The Grimm Masquerade but not Mascarade.
func TestCheckNameIsTheGames(t *testing.T) {
	// The bare rules, and the registry's games (wrapped with their bots
	// and viewers).
	all := []games.Rules{mascarade.Game{}, mascarade2.Game{}, grimm.Game{}, mafia.Game{}, toygame.Game{}}
	for _, g := range registry.All() {
		all = append(all, g)
	}
	for _, tc := range []struct {
		name string
		// refused: the games that refuse it (by Name), "" for none; form:
		// refused by the shared form.
		refused string
		form    bool
	}{
		{"Anna", "", false},
		{"Zoë_2-b", "", false},
		{strings.Repeat("x", 32), "", false},
		{"", "all", true},
		{strings.Repeat("x", 33), "all", true},
		{"no spaces", "all", true},
		{"a,b", "all", true},
		{"bad\u202ename", "all", true}, // a bidi override
		{"tab\tname", "all", true},
		{"\xff", "all", true},
		{"none", "mascarade mascarade2", false},
		{"Centre1", "mascarade mascarade2", false},
		{"center2", "mascarade mascarade2", false},
	} {
		for _, g := range all {
			err := games.CheckName(g, tc.name)
			want := tc.refused == "all" || strings.Contains(" "+tc.refused+" ", " "+g.Name()+" ")
			if (err != nil) != want {
				t.Errorf("%s: CheckName(%q) = %v, want refused %v", g.Name(), tc.name, err, want)
				continue
			}
			if err != nil && errors.Is(err, games.ErrNameForm) != tc.form {
				t.Errorf("%s: CheckName(%q) = %v: the form's error %v, want %v", g.Name(), tc.name, err, !tc.form, tc.form)
			}
			if err != nil && !tc.form && !strings.Contains(err.Error(), g.Title()) {
				t.Errorf("%s: CheckName(%q) = %v: the game's own rule should name the game", g.Name(), tc.name, err)
			}
		}
	}
}
