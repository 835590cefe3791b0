package mascarade_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// edition is the 1st edition, for the family's tests.
var edition = scripttest.NewEdition(mascarade.ParseScript, mascarade.ParseCard, mascarade.BoxCoins,
	func(players []string) mascarade.Options { return mascarade.Options{Players: players} },
	mascarade.UnmarshalOptions)

// TestScripts plays every testdata/*.txt script with the oracle and checks
// the outcome stated in its "# expect:" lines (see [scripttest.Edition.Scripts]).
func TestScripts(t *testing.T) { edition.Scripts(t, "testdata/*.txt") }

// The script mistakes the audit found: each is an error naming the line
// and what is wrong, or (a BOM, a capitalised keyword) simply works.
func TestScriptMistakes(t *testing.T) {
	const hdr = "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\n"
	run := func(src string) error {
		sc, err := mascarade.ParseScript([]byte(src))
		if err != nil {
			return err
		}
		tab, err := mascaradetest.New(sc.Options, mascaradetest.ScriptDeal(sc))
		if err != nil {
			return err
		}
		for _, ln := range sc.Lines {
			if err := tab.PlayLine(ln); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"swap without yes or no", hdr + "Anna swap Boris\n", "line 2"},
		{"swap maybe", hdr + "Anna swap Boris maybe\n", `yes (exchange the cards) or no (only pretend to), got "maybe"`},
		{"coins too large", "game mascarade players=Anna,Boris,Sasha,Dima coins=99999999999999999999\n", "coins=99999999999999999999: want a whole number"},
		{"coins not a number", "game mascarade players=Anna,Boris,Sasha,Dima coins=six\n", "coins=six"},
	} {
		err := run(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		if c.name == "swap maybe" && err != nil && strings.Contains(err.Error(), "Boris") && strings.Contains(err.Error(), "no such") {
			t.Errorf("swap maybe blames the target: %v", err)
		}
	}
	for _, c := range []struct{ name, src string }{
		{"a byte order mark", "\ufeff" + hdr + "Anna swap Boris yes\n"},
		{"GAME in capitals", "GAME Mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\nAnna swap Boris yes\n"},
		{"players named Yes and No", "game mascarade players=Yes,No,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\nYes swap No no\nNo swap Yes yes\n"},
	} {
		if err := run(c.src); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
