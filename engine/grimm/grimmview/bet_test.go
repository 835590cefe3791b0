package grimmview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
	"github.com/masque-games/masque/engine/seatview"
)

// A player just unmasked in another player's turn is asked, on the
// screen, whether to take their bet card now or later.
func TestGrimmBetAtUnmasking(t *testing.T) {
	src := "game grimm players=Kristina,Alexander,Maria variants=bets\n" +
		"round 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror,Treats,Cauldron,Treats,Spindle,Disguise,Mirror,Clock actions=learnsecret,toast first=Kristina\n" +
		"Kristina pick GlassSlipper\nAlexander pick Crown\nMaria pick Clock\nKristina keep\nKristina hint Beast\nKristina give Alexander\n" +
		"Kristina act learnsecret GlassSlipper\nKristina bet RedRidingHood\nAlexander keep\nAlexander give Kristina\nMaria give Alexander\nAlexander unmask\n"
	sc, err := grimm.ParseScript([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := grimmtest.Run(sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: 1, Names: sc.Options.Players, Known: tab.Known(1), MyTurn: true})
	if !ok || tb.Question == nil {
		t.Fatalf("no question: %+v", tb)
	}
	var words []string
	for _, c := range tb.Question.Choices {
		words = append(words, c.Words)
	}
	if !strings.Contains(tb.Question.Text, "take a bet card now") || len(words) != 2 ||
		!strings.Contains(strings.Join(words, "|"), "look at the bet cards and take one") || !strings.Contains(strings.Join(words, "|"), "later") {
		t.Errorf("question %q, choices %q", tb.Question.Text, words)
	}
}
