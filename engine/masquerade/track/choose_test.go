package track

import (
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// A claim the seat knows to be false from public information (the audit:
// bots let a player claim the King again after the King was revealed in
// someone else's slot) is mostly challenged; a claim that may be true,
// with no card of the seat's that may be it, is mostly let go.
func TestRespondChallengesKnownLies(t *testing.T) {
	const king, queen, judge engine.Card = 3, 4, 1
	// Slots: 0 Anna, 1 Boris, 2 the bot (seat 2), 3 Dima.
	tr := NewTracker([]engine.Card{king, queen, judge, 5}, 2)
	pass := engine.Move{Seat: 2, Kind: masquerade.KindPass}
	challenges := []engine.Move{{Seat: 2, Kind: masquerade.KindChallenge, Args: []int{2}}}
	count := func(claimed engine.Slot) int {
		n := 0
		for seed := range uint64(200) {
			rng := rand.New(rand.NewPCG(seed, 1))
			if Respond(rng, tr, king, claimed, pass, challenges, 0.1).Kind == masquerade.KindChallenge {
				n++
			}
		}
		return n
	}
	// Boris (slot 1) claims the King, which everyone knows is in slot 0.
	if n := count(1); n < 140 {
		t.Errorf("a known-false claim challenged %d times in 200", n)
	}
	// Anna (slot 0) claims the King she holds: let it go.
	if n := count(0); n > 20 {
		t.Errorf("a true claim challenged %d times in 200", n)
	}
	// After Dima's unseen swap of slots 0 and 1, Boris may hold the King.
	tr.Observe(Observation{Effects: []engine.Effect{{Kind: engine.EffectSwap, By: 3, Slots: []engine.Slot{0, 1}}}})
	if n := count(1); n > 20 {
		t.Errorf("a claim that may be true challenged %d times in 200", n)
	}
}
