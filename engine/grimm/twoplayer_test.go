package grimm_test

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// Anna plays the Evil Queen (boon Crown, bane Mirror; slot 0, "left")
// and the Beast (boon Mirror, bane Glass Slipper; slot 1, "right"): the
// Beast's talisman is the Queen's curse, the book's 2-player note. Boris
// plays Cinderella (boon Glass Slipper, bane Clock; slot 2) and Hansel
// (boon Cauldron, bane Treats; slot 3).
const ab = "game grimm players=Anna,Boris\n"

func round1two(items, actions string) string {
	return ab + "round 1 chars=EvilQueen,Beast,Cinderella,Hansel items=" + items + " actions=" + actions + " first=Anna\n"
}

// twoPrefix brings the game to Anna's third turn's action step: her Beast
// is unmasked (Boris's Glass Slippers), she holds two Glass Slippers.
const twoItems = "Crown,Clock,Spindle,Treats,Disguise,Disguise,Cauldron,Disguise,GlassSlipper,Crown,Spindle,Treats,GlassSlipper,Mirror,Cauldron,Mirror,Mirror"

const twoPrefix = `
Anna pick Crown
Boris pick Clock
Anna pick Spindle
Boris pick Treats
expect front=Anna:Crown+Spindle,Boris:Clock+Treats
Anna give Boris
Boris give Anna
Anna give Boris
Boris give Anna
Anna unmask right
expect roses=Boris:1,Anna:0 unmasked=none broken=Beast front=Anna:Crown+Spindle+Disguise+GlassSlipper+Treats+GlassSlipper
Anna give Boris
# Two Cauldrons: the Big Bad Wolf's curse, and neither of Boris's is him.
Boris hint BigBadWolf
expect next=Anna
`

func TestTwoPlayers(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"talisman-that-is-the-other-bane", round1two("Mirror,Crown,Mirror,Clock,Spindle,Spindle,Mirror", "toast,search") + `
Anna pick Mirror
Boris pick Crown
Anna pick Mirror
# Two Mirrors: the Evil Queen's curse. Anna unmasks her Queen (no rose:
# she did it herself) and plays on with the Beast.
Anna unmask left
Boris pick Clock
expect unmasked=none broken=EvilQueen roses=Anna:0,Boris:0
# The third Mirror is the Beast's talisman: Anna wins the round.
Anna keep
Anna win right
expect round=2 lastwinner=Anna rewards=Anna:1 actions=eavesdrop,exchange
`},
		{"both-unmasked-opponent-wins", round1two(twoItems, "toast,search") + twoPrefix + `
Anna end
Boris give Anna
Anna unmask left
expect round=2 lastwinner=Boris roses=Boris:3,Anna:0 rewards=Boris:1
`},
		{"action-rose", round1two(twoItems, "toast,search") + twoPrefix + `
Anna act search GlassSlipper
Anna keep
expect roses=Anna:1,Boris:1
`},
		{"mask-off-either-character", round1two(twoItems, "toast,search") + twoPrefix + `
Anna act maskoff GlassSlipper Boris Hansel
Boris unmask right
# Two roses for the guess, none for the action.
expect roses=Anna:2,Boris:1 broken=Beast,Hansel unmasked=none
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

// A hint with two masked characters proves "not X" for each of them.
func TestTwoPlayerHintProvesBoth(t *testing.T) {
	// The Beast (Anna's own, unmasked) cannot be named.
	if _, err := run(t, round1two(twoItems, "toast,search")+twoPrefix+"Anna act maskoff GlassSlipper Boris Beast\n"); ruleOf(err) != grimm.RuleBadGuess {
		t.Fatalf("naming a broken portrait: %v", err)
	}
	tab := mustRun(t, round1two(twoItems, "toast,search")+twoPrefix+"Anna act maskoff GlassSlipper Boris EvilQueen\nBoris hint EvilQueen\n")
	var proofs []engine.Slot
	for _, e := range tab.Last {
		if e.Kind == engine.EffectProve {
			if !e.Not || e.By != 1 || len(e.Cards) != 1 || e.Cards[0] != grimm.EvilQueen {
				t.Errorf("proof %+v", e)
			}
			proofs = append(proofs, e.Slots...)
		}
	}
	if len(proofs) != 2 || proofs[0] != 2 || proofs[1] != 3 {
		t.Errorf("proofs on slots %v, want [2 3]", proofs)
	}
	// With one character unmasked, only the masked one is proven.
	tab = mustRun(t, round1two(twoItems, "toast,search")+twoPrefix+"Anna act maskoff GlassSlipper Boris Hansel\nBoris unmask right\n")
	if tab.State.Unmasked(1) || len(tab.State.MaskedSlots(1)) != 1 {
		t.Fatalf("Boris: masked slots %v", tab.State.MaskedSlots(1))
	}
}

// The 2-player action schedule: two of the four cards, then the other
// two, then two of the four again.
func TestTwoPlayerSchedule(t *testing.T) {
	basic := []grimm.Action{grimm.Eavesdrop, grimm.Toast, grimm.Search, grimm.Exchange}
	// Rounds 1 and 2 use all four cards between them, whatever the coins.
	for seed := range uint64(10) {
		src := round1two(twoItems, "toast,search") + twoPrefix + "Anna end\nBoris give Anna\nAnna unmask left\n"
		sc, err := grimm.ParseScript([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tab, err := runSeed(sc, seed)
		if err != nil {
			t.Fatal(err)
		}
		a := tab.State.Actions()
		got := map[grimm.Action]bool{a[0]: true, a[1]: true, grimm.Toast: true, grimm.Search: true}
		for _, x := range basic {
			if !got[x] {
				t.Fatalf("seed %d: round 2's actions %v do not complete round 1's", seed, a)
			}
		}
	}
}
