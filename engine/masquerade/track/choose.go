package track

import (
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// The choices below are the ones the bot ([Bot]) makes the same way in
// every edition; its [Taste] holds what differs. All randomness
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

// Respond answers a claim of card c from slot claimed: it challenges (with
// 90% chance) with a card the tracker is sure is c, else (with chance
// doubt) with one that may be c. A claim the seat knows to be false from
// what it saw, public reveals included (the claimant's card cannot be c),
// is challenged too (with 80% chance), as a person would stop it: with a
// card that may be c if there is one, else with any. Otherwise it passes.
// challenges are the legal challenges, whose first argument is the slot
// put forward.
func Respond(rng *rand.Rand, t *Tracker, c engine.Card, claimed engine.Slot, pass engine.Move, challenges []engine.Move, doubt float64) engine.Move {
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
	if claimed >= 0 && int(claimed) < len(t.cand) && !t.Candidates(claimed).Has(c) && len(challenges) > 0 && Chance(rng, 0.8) {
		if len(maybe) > 0 {
			return Pick(rng, maybe)
		}
		return Pick(rng, challenges)
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

// Edition is what a game's bot decides its own way: the turn player's
// action and the use of a power, from the legal moves grouped by kind.
type Edition interface {
	Turn(kinds [8][]engine.Move) (engine.Move, bool)
	Use(uses []engine.Move) (engine.Move, bool)
}

// Choose returns a move among legal (not empty) and its secret swap bit:
// it answers a claim of card claim from slot claimed ([Respond]) and a
// question about the seat's card, whose candidates are own ([Guess]), and
// leaves the turn and the powers to e.
func Choose(rng *rand.Rand, t *Tracker, legal []engine.Move, claim engine.Card, claimed engine.Slot, own Mask, doubt float64, e Edition) (engine.Move, bool) {
	kinds := ByKind(legal)
	switch {
	case len(kinds[masquerade.KindPass]) > 0:
		return Respond(rng, t, claim, claimed, kinds[masquerade.KindPass][0], kinds[masquerade.KindChallenge], doubt), false
	case len(kinds[masquerade.KindGuess]) > 0:
		return Guess(rng, own, kinds[masquerade.KindGuess]), false
	case len(kinds[masquerade.KindUse]) > 0:
		return e.Use(kinds[masquerade.KindUse])
	}
	return e.Turn(kinds)
}

// Claim picks a claim among claims (Args [card, slot]), if the bot makes
// one: with 90% chance one the tracker is sure of and that is useful now,
// else with chance bluff a claim of a card in bluffable that the claimed
// slot is known not to hold. ok=false: no claim this turn.
func Claim(rng *rand.Rand, t *Tracker, claims []engine.Move, useful func(engine.Card) bool, bluffable []engine.Card, bluff float64) (engine.Move, bool) {
	var sure, bluffs []engine.Move
	for _, m := range claims {
		c, slot := engine.Card(m.Args[0]), engine.Slot(m.Args[1])
		if got, ok := t.Candidates(slot).Sure(); ok && got == c && useful(c) {
			sure = append(sure, m)
		}
		if slices.Contains(bluffable, c) && !t.Candidates(slot).Has(c) {
			bluffs = append(bluffs, m)
		}
	}
	if len(sure) > 0 && Chance(rng, 0.9) {
		return Pick(rng, sure), true
	}
	if len(bluffs) > 0 && Chance(rng, bluff) {
		return Pick(rng, bluffs), true
	}
	return engine.Move{}, false
}

// RichestPurse picks among the uses of a power that exchanges purses
// (Args [seat], or noTarget to keep its own, listed first) the richest
// purse if it holds more than mine, else keeping its own.
func RichestPurse(uses []engine.Move, noTarget, mine int, coins func(engine.Seat) int) engine.Move {
	best, most := uses[0], mine
	for _, m := range uses {
		if m.Args[0] != noTarget && coins(engine.Seat(m.Args[0])) > most {
			best, most = m, coins(engine.Seat(m.Args[0]))
		}
	}
	return best
}
