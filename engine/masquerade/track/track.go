// Package track is a seat's knowledge of where the cards of a
// Mascarade-family game are, as the bots of every edition keep it: for each
// slot, the set of cards that may lie there, narrowed by what the seat sees
// (the face-up deal, its own swaps, its peeks, cards shown to it, reveals)
// and widened by the swaps it cannot see; and the choices every edition's
// bot makes the same way (answering a claim, naming its own card).
package track

import (
	"math/bits"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Mask is a set of cards: bit c is set if card c may be there. Cards 0..31
// fit.
type Mask uint32

// Has reports whether c is in the set.
func (m Mask) Has(c engine.Card) bool { return c >= 0 && c < 32 && m&(1<<uint(c)) != 0 }

// Count returns the number of cards in the set.
func (m Mask) Count() int { return bits.OnesCount32(uint32(m)) }

// Sure returns the only card in the set, if there is exactly one.
func (m Mask) Sure() (engine.Card, bool) {
	if m.Count() != 1 {
		return 0, false
	}
	return engine.Card(bits.TrailingZeros32(uint32(m))), true
}

// Cards returns the cards in the set, in card order.
func (m Mask) Cards() []engine.Card {
	var out []engine.Card
	for c := engine.Card(0); c < 32; c++ {
		if m.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

func maskOf(c engine.Card) Mask { return 1 << uint(c) }

// Observation is what one seat learnt in one completed step (the
// contract's).
type Observation = games.Observation

// Tracker is one seat's knowledge of where the cards are.
type Tracker struct {
	seat engine.Seat
	cand []Mask
}

// NewTracker starts from the face-up deal (one card per slot) for seat.
func NewTracker(deal []engine.Card, seat engine.Seat) *Tracker {
	t := &Tracker{seat: seat, cand: make([]Mask, len(deal))}
	for i, c := range deal {
		t.cand[i] = maskOf(c)
	}
	return t
}

// Candidates returns the cards that may be in slot.
func (t *Tracker) Candidates(slot engine.Slot) Mask { return t.cand[slot] }

// Observe updates the knowledge with one step: a swap by another seat
// mixes the two slots, the seat's own swap moves what it knew with the
// cards if it really swapped, and its peeks, the cards shown to it and
// every reveal pin slots down.
func (t *Tracker) Observe(o Observation) {
	facts, seen := o.Facts, o.Seen
	next := func() (engine.Fact, bool) {
		if len(seen) == 0 {
			return engine.Fact{}, false
		}
		f := seen[0]
		seen = seen[1:]
		return f, true
	}
	for _, e := range o.Effects {
		switch e.Kind {
		case engine.EffectSwap:
			a, b := e.Slots[0], e.Slots[1]
			switch {
			case e.By != t.seat:
				u := t.cand[a] | t.cand[b]
				t.cand[a], t.cand[b] = u, u
			case o.Swap:
				t.cand[a], t.cand[b] = t.cand[b], t.cand[a]
			}
		case engine.EffectPeek:
			if e.By == t.seat {
				if f, ok := next(); ok {
					t.learn(f)
				}
			}
		case engine.EffectShowOthers:
			if e.Except != t.seat {
				for range e.Slots {
					if f, ok := next(); ok {
						t.learn(f)
					}
				}
			}
		case engine.EffectReveal:
			for range e.Slots {
				if len(facts) > 0 {
					t.learn(facts[0])
					facts = facts[1:]
				}
			}
		}
	}
}

func (t *Tracker) learn(f engine.Fact) { t.cand[f.Slot] = maskOf(f.Card) }
