package grimm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/table"
)

// Refusals name the player, the rule and the cards in words: a false hint
// through the real stack names the character (not "none of [1]"), and a
// bad round line is reported at its own line (not the header's).
func TestRefusalsInWords(t *testing.T) {
	const head = "game grimm players=Kristina,Alexander,Maria\n"
	for _, tc := range []struct {
		name, src string
		line      int
		says      string
	}{
		{"false hint", head + "round 1 chars=Beast,Hansel,Cinderella actions=toast,dance first=Kristina items=GlassSlipper,Crown,Mirror,Clock,Treats,Spindle,Cauldron,GlassSlipper,Disguise,Clock\n" +
			"Kristina pick GlassSlipper\nAlexander pick Crown\nMaria pick Mirror\nKristina keep\nKristina give Maria\nAlexander give Kristina\nKristina hint Beast\n",
			9, `Kristina cannot hint the Beast: a hint proves "I am not the Beast", and Kristina is the Beast`},
		{"round actions", "game grimm players=Kristina,Alexander\nround 1 actions=toast,dance\nKristina pick Crown\n",
			2, "drawn from the action deck of 2 players: eavesdrop, toast, search, exchange"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := localplay.Run(grimm.Game{}, []byte(tc.src), nil, false)
			var se *games.ScriptError
			if !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v; want line %d saying %q", err, tc.line, tc.says)
			}
			if strings.Contains(err.Error(), "none of [") {
				t.Errorf("card numbers: %v", err)
			}
			if tc.name == "false hint" && !errors.Is(err, table.ErrFalseStatement) {
				t.Errorf("%v does not wrap ErrFalseStatement", err)
			}
		})
	}
}
