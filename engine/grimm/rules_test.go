package grimm_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// Kristina is Red Riding Hood (boon Treats, bane Disguise), Alexander is
// Hansel (boon Cauldron, bane Treats), Maria is Cinderella (boon Glass
// Slipper, bane Clock); the character deck (slots 3-7) is Evil Queen,
// Beast, Sleeping Beauty, Rumpelstiltskin, Big Bad Wolf.
const kam = "game grimm players=Kristina,Alexander,Maria\n"

// danceItems and dancePrefix bring Kristina to her second turn's action
// step with Glass Slipper, Mirror, Cauldron, Glass Slipper in front of her;
// Alexander holds Crown, Treats, Cauldron, Clock and Maria Clock,
// Disguise, Spindle.
const danceItems = "GlassSlipper,Crown,Clock,Spindle,Spindle,Mirror,Treats,Cauldron,Disguise,Spindle,Cauldron,GlassSlipper,Clock"

const dancePrefix = `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina give Alexander
Alexander keep
Alexander give Maria
Maria keep
Maria give Kristina
Kristina keep
Kristina hint Beast
Kristina give Alexander
expect front=Kristina:GlassSlipper+Mirror+Cauldron+GlassSlipper,Alexander:Crown+Treats+Cauldron+Clock,Maria:Clock+Disguise+Spindle
`

func round1(items, actions string) string {
	return kam + "round 1 chars=RedRidingHood,Hansel,Cinderella items=" + items + " actions=" + actions + " first=Kristina\n"
}

// TestScenarios plays scripts whose expect lines check one rule each.
func TestScenarios(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"unmask-by-bane-rose-to-giver", round1("Treats,Crown,Clock,Spindle,Spindle,Treats,Cauldron,Clock", "toast,dance") + `
Kristina pick Crown
Alexander pick Treats
Maria pick Clock
Kristina give Alexander
Alexander unmask
expect unmasked=Alexander roses=Kristina:1,Alexander:0 broken=Hansel hand=Alexander:3 front=Alexander:-
# Kristina keeps the Cauldron; no pair. Alexander, unmasked, has drawn
# the Clock unseen (hand of 3) and gives it to Maria: her second Clock unmasks her, and
# the rose is his. Kristina is the last masked player: she wins round 1.
Alexander give Maria Clock
Maria unmask
expect round=2 lastwinner=Kristina roses=Kristina:2,Alexander:1,Maria:0 rewards=Kristina:1
# Round 2: the fewest roses (Maria) begins, with the draft.
expect next=Maria unmasked=none broken=none tokens=Kristina:-,Alexander:-,Maria:-
`},
		{"self-unmask-no-rose", round1("Disguise,Crown,Clock,Spindle,Spindle,Disguise,Mirror", "toast,dance") + `
Kristina pick Disguise
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina unmask
expect unmasked=Kristina roses=Kristina:0,Alexander:0,Maria:0 hand=Kristina:2
# She kept the first card: the second (public) must be given.
Kristina give Alexander
expect turn=Alexander front=Alexander:Crown+Mirror
`},
		{"mask-off-right", round1("GlassSlipper,Crown,Treats,Spindle,Spindle,GlassSlipper,Treats", "toast,dance") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Treats
Kristina keep
Kristina hint Beast
Kristina give Maria
Maria hint Hansel
expect tokens=Maria:Hansel
Kristina act maskoff GlassSlipper Alexander Hansel
Alexander unmask
# Two roses: one for the unmasking, one for the right guess. Maria's token
# on the broken portrait goes back to her.
expect roses=Kristina:2,Alexander:0,Maria:0 unmasked=Alexander broken=Hansel tokens=Maria:- hand=Alexander:2
`},
		{"talisman-win", round1("Crown,Mirror,GlassSlipper,Spindle,Spindle,GlassSlipper,Cauldron,GlassSlipper,Mirror", "toast,dance") + `
Kristina pick Crown
Alexander pick Mirror
Maria pick GlassSlipper
Kristina give Maria
# Two Glass Slippers: the Beast's curse, and Maria is not the Beast.
Maria hint Beast
Alexander give Maria
Maria win
expect round=2 lastwinner=Maria rewards=Maria:1 roses=Maria:1,Kristina:0,Alexander:0
# Fewest roses: Kristina and Alexander; Kristina sits closest clockwise
# after Maria (the most roses).
expect next=Kristina
`},
		{"toast-unmasks-rose-to-actor", round1("GlassSlipper,Crown,Mirror,Spindle,Spindle,GlassSlipper,Clock,Treats,Treats", "toast,dance") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Mirror
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act toast GlassSlipper
Kristina give Alexander Alexander
Alexander unmask
expect roses=Kristina:1 unmasked=Alexander turn=Alexander
`},
		{"dance-left", round1(danceItems, "toast,dance") + dancePrefix + `
random Alexander=Crown Maria=Spindle
Kristina act dance GlassSlipper left Mirror
expect front=Kristina:Cauldron+Spindle,Alexander:Treats+Cauldron+Clock+Mirror,Maria:Clock+Disguise+Crown turn=Alexander
`},
		{"dance-with-an-unmasked-player", kam[:len(kam)-1] + " variants=jewels\nround 1 chars=RedRidingHood,Hansel,Cinderella items=Crown,Treats,Clock,Spindle,Spindle,Treats,Cauldron actions=toast,dance first=Kristina\n" + `
Kristina pick Crown
Alexander pick Treats
Maria pick Clock
Kristina give Alexander
Alexander unmask
# Alexander's hand holds two Treats. Kristina dances left with her jewel:
# her Cauldron skips Alexander (unmasked) and goes to Maria; Alexander
# passes a random card of his hand (shown as it lands) to Maria; Maria
# passes her Clock to Kristina.
random Alexander=Treats Maria=Clock
Kristina act dance jewel+Crown left Cauldron
# (Alexander then draws his next card: a hand of 2.)
expect front=Kristina:Clock,Maria:Cauldron+Treats,Alexander:- hand=Alexander:2 turn=Alexander
`},
		{"exchange", round1(danceItems, "exchange,dance") + dancePrefix + `
random Alexander=Crown,Cauldron
Kristina act exchange GlassSlipper Alexander Mirror
# Kristina now has two Cauldrons (the Big Bad Wolf's curse).
Kristina hint BigBadWolf
expect front=Kristina:Cauldron+Cauldron+Crown,Alexander:Treats+Clock+Mirror tokens=Kristina:Beast+BigBadWolf turn=Alexander
`},
		{"search-belongings", round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror,Cauldron", "search,dance") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act search GlassSlipper
Kristina give Maria
expect front=Maria:Clock+Cauldron,Kristina:- turn=Alexander
`},
		{"eavesdrop-one", round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror", "eavesdrop,dance") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act eavesdrop GlassSlipper Maria
Maria hint Hansel
expect tokens=Maria:Hansel,Kristina:Beast roses=Maria:0 turn=Alexander
`},
		{"jewels", kam[:len(kam)-1] + " variants=jewels\nround 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,Mirror,Treats,Clock actions=toast,dance first=Kristina\n" + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina give Alexander
# A jewel and one item pay for an action.
Kristina act maskoff jewel+Mirror Alexander Hansel
Alexander unmask
expect roses=Kristina:2 front=Kristina:GlassSlipper
# Alexander (unmasked) gives Maria her second Clock: she is unmasked, the
# round ends; the unspent jewels of Alexander and Maria pay a rose each.
Alexander give Maria Clock
Maria unmask
expect round=2 lastwinner=Kristina roses=Kristina:3,Alexander:2,Maria:1
`},
		{"bets", kam[:len(kam)-1] + " variants=bets\nround 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror,Treats,Cauldron,Treats,Spindle,Disguise,Mirror,Clock actions=learnsecret,toast first=Kristina\n" + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act learnsecret GlassSlipper
Kristina bet RedRidingHood
Alexander keep
Alexander give Kristina
# Maria draws the Treats and gives it to Alexander (his bane): unmasked,
# with a rose to Maria. He may take his bet card at once ("немедленно
# после раскрытия"); he takes it on his next turn instead.
Maria give Alexander
Alexander unmask
expect next=Alexander
Alexander end
Kristina give Maria
Alexander bet
Alexander bet Cinderella
Alexander give Maria Clock
Maria unmask
expect round=2 lastwinner=Kristina rewards=Kristina:1 roses=Kristina:2,Alexander:1,Maria:1
`},
		// The same, but Alexander takes his bet card at once, in Maria's
		// turn (whose last card it was): then the game goes on, with
		// Kristina's turn, and on his own turn he has no bet left to take.
		{"bet-at-unmasking", kam[:len(kam)-1] + " variants=bets\nround 1 chars=RedRidingHood,Hansel,Cinderella items=GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Mirror,Treats,Cauldron,Treats,Spindle,Disguise,Mirror,Clock actions=learnsecret,toast first=Kristina\n" + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act learnsecret GlassSlipper
Kristina bet RedRidingHood
Alexander keep
Alexander give Kristina
Maria give Alexander
Alexander unmask
Alexander bet
Alexander bet Cinderella
expect bets=Alexander:1 turn=Kristina
Kristina give Maria
Alexander give Maria Clock
Maria unmask
expect round=2 lastwinner=Kristina rewards=Kristina:1 roses=Kristina:2,Alexander:1,Maria:1
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := run(t, tc.src)
			if err != nil {
				t.Fatalf("%v\nmoves: %v", err, tab.Moves)
			}
		})
	}
}

// TestRuleErrors checks that illegal lines are refused with the right
// rule (or as a false proof), and that the line before them played.
func TestRuleErrors(t *testing.T) {
	draft := round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Clock,Treats,Treats,Mirror", "toast,eavesdrop") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
`
	turn := draft + "Kristina keep\nKristina hint Beast\n"
	tests := []struct {
		name, src, line, rule string
	}{
		{"not-your-turn", draft, "Maria keep", grimm.RuleNotYourTurn},
		{"pick-not-in-row", kam + "round 1 items=GlassSlipper,Crown,Clock,Spindle,Spindle first=Kristina\n", "Kristina pick Mirror", grimm.RuleNotInRow},
		{"pick-twice-taken", draft[:strings.Index(draft, "Alexander pick")], "Alexander pick GlassSlipper", grimm.RuleNotInRow},
		{"keep-in-draft", kam + "round 1 first=Kristina\n", "Kristina keep", grimm.RuleWrongMove},
		{"give-to-self", draft, "Kristina give Kristina", grimm.RuleBadTarget},
		{"give-args", draft, "Kristina give Alexander Maria", grimm.RuleBadArgs},
		{"false-unmask", draft + "Kristina keep\n", "Kristina unmask", "false-proof"},
		{"hint-wrong-character", draft + "Kristina keep\n", "Kristina hint Hansel", grimm.RuleBadHint},
		{"move-before-hint", draft + "Kristina keep\n", "Kristina give Maria", grimm.RuleWrongMove},
		{"win-without-three", draft + "Kristina keep\n", "Kristina win", grimm.RuleWrongMove},
		{"keep-second-after-keeping-first", turn, "Kristina keep", grimm.RuleWrongMove},
		{"act-before-draw-done", turn, "Kristina act toast GlassSlipper", grimm.RuleWrongMove},
		{"no-pair", turn + "Kristina give Alexander\n", "Kristina act toast Crown", grimm.RuleNoPair},
		{"no-jewel", turn + "Kristina give Alexander\n", "Kristina act toast jewel+GlassSlipper", grimm.RuleNoJewel},
		{"unavailable", turn + "Kristina give Alexander\n", "Kristina act dance GlassSlipper left Crown", grimm.RuleNotAvailable},
		{"maskoff-target-token", round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Clock,Treats,Mirror,Disguise,Cauldron,Cauldron,Spindle", "toast,eavesdrop") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
Kristina act eavesdrop GlassSlipper Alexander
Alexander hint Cinderella
Alexander keep
Alexander give Maria
Maria keep
Maria give Kristina
Kristina keep
Kristina hint BigBadWolf
Kristina give Maria
`, "Kristina act maskoff Cauldron Alexander Cinderella", grimm.RuleBadGuess},
		{"maskoff-broken", turn + "Kristina give Maria\nMaria unmask\n", "Kristina act maskoff GlassSlipper Alexander Cinderella", grimm.RuleBadGuess},
		{"maskoff-unmasked", turn + "Kristina give Maria\nMaria unmask\n", "Kristina act maskoff GlassSlipper Maria Cinderella", grimm.RuleBadTarget},
		{"false-hint-maskoff", turn + "Kristina give Alexander\nKristina act maskoff GlassSlipper Alexander Hansel\n", "Alexander hint Hansel", "false-proof"},
		{"eavesdrop-self", turn + "Kristina give Alexander\n", "Kristina act eavesdrop GlassSlipper Kristina", grimm.RuleBadTarget},
		{"eavesdrop-broken", turn + "Kristina give Maria\nMaria unmask\nKristina act eavesdrop GlassSlipper Alexander\n", "Alexander hint Cinderella", grimm.RuleBadHint},
		{"eavesdrop-bad-open", turn + "Kristina give Alexander\nKristina act eavesdrop GlassSlipper Maria Alexander\nMaria commit Beast\nAlexander commit Beast\n", "Maria hint EvilQueen", grimm.RuleBadCommit},
		{"eavesdrop-commit-first", turn + "Kristina give Alexander\nKristina act eavesdrop GlassSlipper Maria Alexander\n", "Maria hint Beast", grimm.RuleWrongMove},
		{"eavesdrop-false", turn + "Kristina give Alexander\nKristina act eavesdrop GlassSlipper Maria\n", "Maria hint Cinderella", "false-proof"},
		{"unknown-action", turn + "Kristina give Alexander\n", "Kristina act learnsecret GlassSlipper", grimm.RuleNotAvailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := run(t, tc.src); err != nil {
				t.Fatalf("the lines before the tested one fail: %v", err)
			}
			_, err := run(t, tc.src+tc.line+"\n")
			if got := ruleOf(err); got != tc.rule {
				t.Fatalf("%q: got %q (%v), want %s", tc.line, got, err, tc.rule)
			}
		})
	}
}

// An Eavesdrop hint opening a commitment carries its nonce as 8 words of
// 16 bits: a word outside 0..65535 is refused (bad-args), so that a nonce
// has one encoding; the same hint with the words in range opens it.
func TestEavesdropNonceWords(t *testing.T) {
	turn := round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Treats,Cauldron", "eavesdrop,toast") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
`
	tab := mustRun(t, turn+"Kristina give Alexander\nKristina act eavesdrop GlassSlipper Maria Alexander\nMaria commit Beast\nAlexander commit Beast\n")
	maria, err := tab.State.SeatByName("Maria")
	if err != nil {
		t.Fatal(err)
	}
	if m := tab.State.Next(); m.Kind != engine.NeedMove || m.Seat != maria {
		t.Fatalf("the table waits for %+v, not Maria's hint", m)
	}
	// The script's commitments use grimm.ScriptNonce.
	words := grimm.NonceArgs(grimm.ScriptNonce(maria, 1))
	ok := engine.Move{Seat: maria, Kind: grimm.KindHint, Args: append([]int{int(grimm.Beast)}, words...)}
	bad := engine.Move{Seat: maria, Kind: grimm.KindHint, Args: append([]int{int(grimm.Beast)}, words...)}
	bad.Args[1] += 0x10000 // the same low 16 bits
	if _, _, err := tab.State.Apply(bad); ruleOf(err) != grimm.RuleBadArgs {
		t.Fatalf("a nonce word of 17 bits: %v, want rule %s", err, grimm.RuleBadArgs)
	}
	if _, _, err := tab.State.Apply(ok); err != nil {
		t.Fatalf("the same hint with its nonce in range: %v", err)
	}
}

// TestEffectsOfLooks checks what the table is asked to do for a look at
// the character deck and for an unmasked player's turn.
func TestEffectsOfLooks(t *testing.T) {
	base := round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Treats,Cauldron", "guestlist,search") + `
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Alexander
`
	deck := []engine.Slot{3, 4, 5, 6, 7}
	tab := mustRun(t, base+"Kristina act guestlist GlassSlipper\n")
	want := []engine.Effect{
		{Kind: engine.EffectPeek, By: 0, Slots: []engine.Slot{3}},
		{Kind: engine.EffectPeek, By: 0, Slots: []engine.Slot{4}},
		{Kind: engine.EffectShuffle, Slots: deck},
	}
	if !sameEffects(tab.Last[:3], want) {
		t.Errorf("guest list: %+v, want %+v first", tab.Last, want)
	}
	tab = mustRun(t, base+"Kristina act search GlassSlipper\n")
	if len(tab.Last) < 3 || !sameEffects(tab.Last[:2], []engine.Effect{want[0], want[2]}) || tab.Last[2].Kind != engine.EffectReveal {
		t.Errorf("search: %+v", tab.Last)
	}
	// Unmasked: Alexander's draw is a private look and a shuffle of his
	// hand by him alone.
	tab = mustRun(t, round1("Treats,Crown,Clock,Spindle,Spindle,Treats,Cauldron,Clock", "toast,dance")+`
Kristina pick Crown
Alexander pick Treats
Maria pick Clock
Kristina give Alexander
Alexander unmask
`)
	var got []engine.EffectKind
	for _, e := range tab.Last {
		got = append(got, e.Kind)
		if e.Kind == engine.EffectShuffle && !slices.Equal(e.Seats, []engine.Seat{1}) {
			t.Errorf("unmasked: a shuffle by %v, want Alexander alone", e.Seats)
		}
		if e.Kind == engine.EffectPeek && e.By != 1 {
			t.Errorf("unmasked: a peek by %d", e.By)
		}
		if e.Kind == engine.EffectProve && (e.Not || !slices.Equal(e.Cards, []engine.Card{grimm.Hansel})) {
			t.Errorf("unmasking proof: %+v", e)
		}
	}
	wantKinds := []engine.EffectKind{engine.EffectProve, engine.EffectShuffle, engine.EffectReveal, engine.EffectPeek, engine.EffectShuffle}
	if !slices.Equal(got, wantKinds) {
		t.Errorf("unmasking and the next turn: %v, want %v", got, wantKinds)
	}
}

func sameEffects(a, b []engine.Effect) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Kind != y.Kind || x.By != y.By || x.Not != y.Not || !slices.Equal(x.Slots, y.Slots) || !slices.Equal(x.Seats, y.Seats) || !slices.Equal(x.Cards, y.Cards) {
			return false
		}
	}
	return true
}
