package grimm_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// A player who keeps the second copy of their own curse unmasks with
// nobody earning a rose (docs/rules-grimm.md item 22): the prompt must not
// promise them one, nor another player. Given the pair by another player,
// that player gets the rose, and the prompt says so.
func TestPromptSelfUnmaskNoRose(t *testing.T) {
	const players = "game grimm players=Kristina,Alexander,Maria\n"
	const round = "round 1 chars=Beast,Hansel,Cinderella actions=toast,dance first=Kristina items=GlassSlipper,Crown,Mirror,Clock,Treats,"
	const draft = "Kristina pick GlassSlipper\nAlexander pick Crown\nMaria pick Mirror\n"
	for _, tc := range []struct {
		src, want, not string
	}{
		// Kristina draws the second Glass Slipper and keeps it.
		{players + round + "GlassSlipper,Spindle,Cauldron,Disguise\n" + draft + "Kristina keep\n", "nobody gets a rose", "Kristina gets"},
		// Alexander draws it and gives it to her.
		{players + round + "Spindle,Cauldron,GlassSlipper,Disguise,Clock\n" + draft + "Kristina keep\nKristina give Maria\nAlexander give Kristina\n",
			"Alexander gets a rose", "nobody"},
	} {
		tab := mustRun(t, tc.src)
		seat, _, ok := tab.State.Pending()
		if !ok || seat != 0 {
			t.Fatalf("after %q: Kristina owes no response", tc.src)
		}
		got := grimm.Prompt(tab.State, engine.Seat(0), tab.Known(0))
		if !strings.Contains(got, "must unmask") || !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("after %q: prompt %q, want it to say %q and not %q", tc.src, got, tc.want, tc.not)
		}
	}
}

// Mask off!'s question to its target says who plays it on them, in a
// sentence ("Kristina plays Mask off! on you: are you Sleeping Beauty?"),
// not "Kristina asks with Mask off!: are you".
func TestPromptMaskOff(t *testing.T) {
	tab := mustRun(t, `game grimm players=Kristina,Alexander,Maria
round 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Mirror,Treats,Cauldron,GlassSlipper,Clock actions=toast,dance first=Kristina
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Mirror
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act maskoff GlassSlipper Maria SleepingBeauty
`)
	got := grimm.Prompt(tab.State, engine.Seat(2), tab.Known(2))
	if want := "Kristina plays Mask off! on you: are you Sleeping Beauty? If you are, you are unmasked; if not, you place a hint token and get a rose."; got != want {
		t.Errorf("Maria's prompt %q, want %q", got, want)
	}
}

// The Evil Queen's ability (True reflection) asks for a hint as an
// Eavesdrop does, but nobody listens in: the prompt said "Someone listens
// in" and the log "(overheard)". It names the ability and the giver; an
// Eavesdrop still says who listens in.
func TestPromptTrueReflectionIsNotEavesdrop(t *testing.T) {
	const row = "Crown,Mirror,Spindle,Clock,Clock,"
	src := quickRound1(grimm.EvilQueen, "abilities") + round2(grimm.EvilQueen, row+"Mirror,Treats") +
		"Maria pick Crown\nKristina pick Mirror\nAlexander pick Spindle\nMaria give Kristina\nKristina hint EvilQueen\n"
	tab := mustRun(t, src)
	if seat, _, ok := tab.State.Pending(); !ok || seat != 0 {
		t.Fatal("Kristina owes no response")
	}
	got := grimm.Prompt(tab.State, 0, tab.Known(0))
	if strings.Contains(got, "listens in") || !strings.Contains(got, "True reflection") || !strings.Contains(got, "Maria") {
		t.Errorf("True reflection's prompt %q", got)
	}
	said := grimm.SayMove(tab.State, engine.Move{Seat: 0, Kind: grimm.KindHint, Args: []int{int(grimm.SleepingBeauty)}}, -1)
	if strings.Contains(said, "overheard") || !strings.Contains(said, "True reflection") {
		t.Errorf("True reflection's hint in the log: %q", said)
	}

	eaves := mustRun(t, "game grimm players=Kristina,Alexander,Maria\nround 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror actions=eavesdrop,dance first=Kristina\n"+
		"Kristina pick GlassSlipper\nAlexander pick Crown\nMaria pick Clock\nKristina keep\nKristina hint Beast\nKristina give Alexander\nKristina act eavesdrop GlassSlipper Maria\n")
	if got := grimm.Prompt(eaves.State, 2, eaves.Known(2)); !strings.Contains(got, "Kristina listens in") {
		t.Errorf("Eavesdrop's prompt %q", got)
	}
	if said := grimm.SayMove(eaves.State, engine.Move{Seat: 2, Kind: grimm.KindHint, Args: []int{int(grimm.Hansel)}}, -1); !strings.Contains(said, "(overheard)") {
		t.Errorf("Eavesdrop's hint in the log: %q", said)
	}
}
