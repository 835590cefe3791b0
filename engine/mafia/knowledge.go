package mafia

import (
	"maps"
	"slices"

	"github.com/masque-games/masque/engine"
)

// Knowledge is what one seat knows privately: its role and team, the
// players it recognised by their tags, the Commissar's results and its
// incident hand. A table fills it from the seat's private views (the fake
// table mafiatest does so with plain values; the real table will from its
// decryptions); the bot and the screen read it.
type Knowledge struct {
	Seat engine.Seat
	Role engine.Card // -1 unknown
	// Mafia: the seat's viewed team says "mafia" (the Madman's turns so
	// when he joins and views his tuple's component 4).
	Mafia bool
	// Mates are the other seats whose tags this seat recognised (the
	// mafia's, once they hold the group secret), in seat order.
	Mates []engine.Seat
	// Checks are the Commissar's results: seat checked → its team was
	// "mafia".
	Checks map[engine.Seat]bool
	// Hand is the seat's incident cards, by slot.
	Hand map[engine.Slot]engine.Card
}

// NewKnowledge returns the empty knowledge of seat p.
func NewKnowledge(p engine.Seat) *Knowledge {
	return &Knowledge{Seat: p, Role: -1, Checks: map[engine.Seat]bool{}, Hand: map[engine.Slot]engine.Card{}}
}

// Clone returns a deep copy.
func (k *Knowledge) Clone() *Knowledge {
	c := *k
	c.Mates = slices.Clone(k.Mates)
	c.Checks = maps.Clone(k.Checks)
	c.Hand = maps.Clone(k.Hand)
	return &c
}

// Holds returns the slot of a card of kind c in the seat's hand as the
// state lists it, or -1.
func (k *Knowledge) Holds(s *State, c engine.Card) engine.Slot {
	for _, sl := range s.Hand(k.Seat) {
		if v, ok := k.Hand[sl]; ok && v == c {
			return sl
		}
	}
	return -1
}
