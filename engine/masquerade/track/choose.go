package track

import (
	"math/rand/v2"

	"github.com/masque-games/masque/engine"
)

// The choices below are the ones every edition's bot makes the same way;
// each game's bot keeps its own taste for turns and powers. All randomness
// comes from the bot's own rng, drawn in a fixed order, so a bot stays
// deterministic given its seed.

// Chance reports true with probability p.
func Chance(rng *rand.Rand, p float64) bool { return rng.Float64() < p }

// Pick returns one of ms (not empty) at random.
func Pick(rng *rand.Rand, ms []engine.Move) engine.Move { return ms[rng.IntN(len(ms))] }

// ByKind groups moves by their kind (kinds 0..7), keeping their order.
func ByKind(ms []engine.Move) [8][]engine.Move {
	var kinds [8][]engine.Move
	for _, m := range ms {
		kinds[m.Kind] = append(kinds[m.Kind], m)
	}
	return kinds
}

// Respond answers a claim of card c: it challenges (with 90% chance) with a
// card the tracker is sure is c, else (with chance doubt) with one that may
// be c, else passes. challenges are the legal challenges, whose first
// argument is the slot put forward.
func Respond(rng *rand.Rand, t *Tracker, c engine.Card, pass engine.Move, challenges []engine.Move, doubt float64) engine.Move {
	var sure, maybe []engine.Move
	for _, m := range challenges {
		cand := t.Candidates(engine.Slot(m.Args[0]))
		if got, ok := cand.Sure(); ok && got == c {
			sure = append(sure, m)
		} else if cand.Has(c) {
			maybe = append(maybe, m)
		}
	}
	if len(sure) > 0 && Chance(rng, 0.9) {
		return Pick(rng, sure)
	}
	if len(maybe) > 0 && Chance(rng, doubt) {
		return Pick(rng, maybe)
	}
	return pass
}

// Guess names a card the seat may hold (cand is what may lie in its own
// slot), at random among the legal guesses that fit, or among all of them.
func Guess(rng *rand.Rand, cand Mask, guesses []engine.Move) engine.Move {
	var likely []engine.Move
	for _, m := range guesses {
		if cand.Has(engine.Card(m.Args[0])) {
			likely = append(likely, m)
		}
	}
	if len(likely) > 0 {
		return Pick(rng, likely)
	}
	return Pick(rng, guesses)
}
