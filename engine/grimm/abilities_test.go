package grimm_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// quickRound1 is a round 1 that Kristina wins fast, with Maria (who played
// character x) left with the fewest roses, so that in round 2 she holds
// x's ability and plays first.
func quickRound1(x engine.Card, variants string) string {
	ch := grimm.DefaultCharms()
	a := grimm.Hansel
	if x == a {
		a = grimm.BigBadWolf
	}
	k := grimm.RedRidingHood
	for _, c := range []engine.Card{grimm.RedRidingHood, grimm.Beast, grimm.EvilQueen} {
		if c != x && c != a {
			k = c
			break
		}
	}
	bA, bX := ch.Bane[a], ch.Bane[x]
	var fill []string
	for _, it := range grimm.Items() {
		if it != bA && it != bX && len(fill) < 4 {
			fill = append(fill, grimm.CardName(it))
		}
	}
	n := grimm.CardName
	header := "game grimm players=Kristina,Alexander,Maria"
	if variants != "" {
		header += " variants=" + variants
	}
	src := fmt.Sprintf(`%s
round 1 chars=%s,%s,%s items=%s,%s,%s,%s,%s,%s,%s,%s actions=toast,dance first=Kristina
Kristina pick %s
Alexander pick %s
Maria pick %s
Kristina give Alexander
Alexander unmask
Alexander give Maria %s
Maria unmask
expect round=2 roses=Kristina:2,Alexander:1,Maria:0 ability=Maria:%s,Kristina:-,Alexander:- next=Maria
`, header, n(k), n(a), n(x), n(bA), fill[0], n(bX), fill[1], fill[2], n(bA), fill[3], n(bX),
		fill[0], n(bA), n(bX), n(bX), n(x))
	if strings.Contains(variants, "bets") {
		// Unmasked in Kristina's turn, Alexander takes his bet card later.
		src = strings.Replace(src, "Alexander unmask\n", "Alexander unmask\nAlexander end\n", 1)
	}
	return src
}

// Round 2: Kristina is Cinderella, Alexander Hansel, Maria the Beast (or,
// when Maria's ability is the Beast's, Red Riding Hood).
func round2(x engine.Card, items string) string {
	m := "Beast"
	if x == grimm.Beast {
		m = "RedRidingHood"
	}
	return "round 2 chars=Cinderella,Hansel," + m + " items=" + items + " actions=eavesdrop,guestlist\n"
}

func TestAbilities(t *testing.T) {
	const row = "Crown,Mirror,Spindle,Clock,Clock,"
	tests := []struct {
		name    string
		x       engine.Card
		items   string
		lines   string
		effects func(*testing.T, []engine.Effect)
	}{
		{"true-reflection", grimm.EvilQueen, row + "Mirror,Treats", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria give Kristina
# Two Mirrors (the Evil Queen's curse), then True reflection: two tokens.
Kristina hint EvilQueen
Kristina hint SleepingBeauty
expect tokens=Kristina:EvilQueen+SleepingBeauty turn=Kristina
`, nil},
		{"curiosity", grimm.RedRidingHood, row + "Treats,Disguise", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria give Kristina
`, lookedAt(2)},
		{"big-eyes", grimm.BigBadWolf, row + "Crown,Treats", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria keep
Maria hint Rumpelstiltskin
Maria give Kristina
Maria act maskoff Crown Kristina Hansel
Kristina hint Hansel
`, lookedAt(2)},
		{"sly-accusation", grimm.Rumpelstiltskin, row + "Crown,Treats,Disguise", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria keep
Maria hint Rumpelstiltskin
Maria give Kristina
Maria act maskoff Crown Kristina Hansel
Kristina hint Hansel
expect next=Maria
Maria draw
Maria keep
expect front=Maria:Disguise turn=Kristina roses=Kristina:3
`, nil},
		{"sly-accusation-declined", grimm.Rumpelstiltskin, row + "Crown,Treats,Disguise", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria keep
Maria hint Rumpelstiltskin
Maria give Kristina
Maria act maskoff Crown Kristina Hansel
Kristina hint Hansel
Maria end
expect front=Maria:- turn=Kristina
`, nil},
		{"modest-gifts", grimm.Cinderella, row + "Disguise,Treats,Cauldron", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
expect next=Maria front=Maria:Crown
Maria draw
Maria give Alexander
# Then her turn as usual.
Maria keep
Maria give Kristina
expect front=Maria:Crown+Treats,Alexander:Spindle+Disguise,Kristina:Mirror+Cauldron turn=Kristina
`, nil},
		{"master-of-the-game", grimm.Beast, row + "Crown,Treats,Disguise", `
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria keep
Maria hint Rumpelstiltskin
Maria give Kristina
Maria end
# She placed a token this turn: a draw at its end.
expect next=Maria
Maria give Alexander
expect front=Alexander:Spindle+Disguise turn=Kristina
`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := quickRound1(tc.x, "abilities") + round2(tc.x, tc.items) + tc.lines
			tab, err := run(t, src)
			if err != nil {
				t.Fatalf("%v\nmoves: %v", err, tab.Moves)
			}
			if tc.effects != nil {
				tc.effects(t, tab.Last)
			}
		})
	}
}

// lookedAt checks that seat p viewed a card of the character deck, which
// every seat then reshuffled.
func lookedAt(p engine.Seat) func(*testing.T, []engine.Effect) {
	deck := []engine.Slot{3, 4, 5, 6, 7}
	return func(t *testing.T, eff []engine.Effect) {
		t.Helper()
		for i, e := range eff {
			if e.Kind == engine.EffectPeek && e.By == p && len(e.Slots) == 1 && slices.Contains(deck, e.Slots[0]) {
				if i+1 < len(eff) && eff[i+1].Kind == engine.EffectShuffle && slices.Equal(eff[i+1].Slots, deck) && len(eff[i+1].Seats) == 0 {
					return
				}
			}
		}
		t.Errorf("no look at the character deck by seat %d: %+v", p, eff)
	}
}

func TestAbilityWithoutVariant(t *testing.T) {
	src := quickRound1(grimm.EvilQueen, "")
	src = strings.Replace(src, "ability=Maria:EvilQueen", "ability=Maria:-", 1)
	mustRun(t, src+round2(grimm.EvilQueen, "Crown,Mirror,Spindle,Clock,Clock,Mirror,Treats")+`
Maria pick Crown
Kristina pick Mirror
Alexander pick Spindle
Maria give Kristina
Kristina hint EvilQueen
expect tokens=Kristina:EvilQueen turn=Kristina
`)
}

func TestGambler(t *testing.T) {
	mustRun(t, quickRound1(grimm.Hansel, "abilities,bets")+"expect bets=Maria:1,Kristina:0\n")
	mustRun(t, quickRound1(grimm.Hansel, "abilities")+"expect bets=Maria:0\n")
}

// With 2 players the seat with the fewest roses chooses one of its two
// characters' abilities.
func TestTwoPlayerAbilityChoice(t *testing.T) {
	src := strings.Replace(round1two(twoItems, "toast,search"), ab, "game grimm players=Anna,Boris variants=abilities\n", 1) +
		twoPrefix + "Anna end\nBoris give Anna\nAnna unmask left\nexpect round=2 next=Anna\n"
	if _, err := run(t, src+"Anna choose Cinderella\n"); ruleOf(err) != grimm.RuleBadArgs {
		t.Errorf("choosing a character Anna did not play: %v", err)
	}
	mustRun(t, src+"Anna choose Beast\nexpect ability=Anna:Beast,Boris:-\n")
}
