package grimmview

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
	"github.com/masque-games/masque/engine/seatview"
)

// playTo plays a Grimm script among Kristina, Alexander and Maria and
// returns the state and seat p's view of it.
func playTo(t *testing.T, src string, p engine.Seat) seatview.Table {
	t.Helper()
	sc, err := grimm.ParseScript([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := grimmtest.Run(sc, 1)
	if err != nil {
		t.Fatal(err)
	}
	need := tab.State.Next()
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: p, Names: sc.Options.Players, Known: tab.Known(p),
		MyTurn: need.Kind == engine.NeedMove && need.Seat == p})
	if !ok {
		t.Fatal("no view")
	}
	return tb
}

const threeRound1 = "game grimm players=Kristina,Alexander,Maria\n" +
	"round 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Clock,Treats,Treats,Mirror actions=toast,eavesdrop first=Kristina\n"

// In the draft every player takes an item in turn from the first player:
// the turn mark (▶) is on the one who takes an item now, and nobody is
// marked as answering (the draft is a move, not an answer to someone
// else's turn). The screen said "▶ Kristina" and "Alexander ← to answer"
// while Alexander drafted.
func TestGrimmDraftMarksTheDrafter(t *testing.T) {
	src := threeRound1 + "Kristina pick GlassSlipper\n"
	for p := range engine.Seat(3) {
		tb := playTo(t, src, p)
		for _, s := range tb.Seats {
			if s.Turn != (s.Name == "Alexander") {
				t.Errorf("seat %d's view: %s marked turn=%v; Alexander drafts now", p, s.Name, s.Turn)
			}
			if s.Answers {
				t.Errorf("seat %d's view: %s marked as answering during the draft", p, s.Name)
			}
		}
	}
}

// An eavesdropped player's sealed choice of portrait is a response the
// rules wait for and the player cannot skip, as the hint it opens into:
// the screen heads it "Only you can answer" (it said "Your move" in the
// middle of another player's turn).
func TestGrimmEavesdropChoiceIsForced(t *testing.T) {
	src := threeRound1 + "Kristina pick GlassSlipper\nAlexander pick Crown\nMaria pick Clock\n" +
		"Kristina keep\nKristina hint Beast\nKristina give Alexander\nKristina act eavesdrop GlassSlipper Alexander Maria\n"
	tb := playTo(t, src, 1)
	if tb.Question == nil {
		t.Fatal("Alexander has no question")
	}
	if !tb.Question.Forced {
		t.Errorf("Alexander's sealed portrait choice %q is not marked forced", tb.Question.Text)
	}
}
