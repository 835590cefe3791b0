// Package fake holds what the games' fake tables (engine/grimm/grimmtest,
// engine/mafia/mafiatest) share: the true deal and each seat's view of
// it, set and revealed cards, statements checked against the truth, and
// the seeded stream shuffles and coins come from. A fake table carries
// out the rules' effects with plain values instead of cryptography, for
// tests and bot playouts.
package fake

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
)

// ProofError is a statement about one's own card that is false (or about
// a card the prover never saw): the table rejects the entry and names the
// prover.
type ProofError struct {
	Seat engine.Seat
	Msg  string
}

// Error describes the false statement.
func (e *ProofError) Error() string { return fmt.Sprintf("seat %d: false proof: %s", e.Seat, e.Msg) }

// Deal is the truth a fake table knows: every slot's card, and per seat
// the cards it knows.
type Deal struct {
	Truth map[engine.Slot]engine.Card   // every slot's card
	Views []map[engine.Slot]engine.Card // per seat: the cards it knows
}

// NewDeal returns an empty deal for seats seats.
func NewDeal(seats int) Deal {
	d := Deal{Truth: map[engine.Slot]engine.Card{}}
	for range seats {
		d.Views = append(d.Views, map[engine.Slot]engine.Card{})
	}
	return d
}

// Set carries out a set effect: the cards, face up, known to everyone.
func (d Deal) Set(e engine.Effect) error {
	if len(e.Cards) != len(e.Slots) {
		return errors.New("set: cards and slots differ in length")
	}
	for i, sl := range e.Slots {
		d.Truth[sl] = e.Cards[i]
		for _, v := range d.Views {
			v[sl] = e.Cards[i]
		}
	}
	return nil
}

// Reveal carries out a reveal effect: everyone learns its slots' cards,
// returned as the facts the rules wait for.
func (d Deal) Reveal(e engine.Effect) []engine.Fact {
	var facts []engine.Fact
	for _, sl := range e.Slots {
		facts = append(facts, engine.Fact{Slot: sl, Card: d.Truth[sl]})
		for _, v := range d.Views {
			v[sl] = d.Truth[sl]
		}
	}
	return facts
}

// CheckProof checks a prove effect's statement against the truth: its
// prover must have viewed the slot, and the card must (or, with Not, must
// not) be one of the statement's. A false statement is a *[ProofError];
// cardName names the cards in it.
func (d Deal) CheckProof(e engine.Effect, cardName func(engine.Card) string) error {
	if len(e.Slots) != 1 || len(e.Cards) == 0 {
		return &ProofError{e.By, "malformed statement"}
	}
	sl := e.Slots[0]
	truth := d.Truth[sl]
	if v, ok := d.Views[e.By][sl]; !ok || v != truth {
		return &ProofError{e.By, fmt.Sprintf("slot %d was not viewed by its prover", sl)}
	}
	if slices.Contains(e.Cards, truth) == e.Not {
		what := "is one of"
		if e.Not {
			what = "is none of"
		}
		names := make([]string, len(e.Cards))
		for i, c := range e.Cards {
			names[i] = cardName(c)
		}
		return &ProofError{e.By, fmt.Sprintf("slot %d %s %v: false", sl, what, names)}
	}
	return nil
}

// Batch is what a batch of effects carried out so far asks of the
// rules' next step: the facts its reveals gave, and whether it asked for
// a coin.
type Batch struct {
	Facts []engine.Fact
	Coin  bool
}

// Carry carries out e when it is of a kind every fake table carries out
// alike, and reports whether it was: a set, a shuffle (by shuffle, the
// table's own), a peek of one slot (by peek), a reveal (its facts
// gathered in b), a coin (asked in b) and a proof (the table checks
// statements before it carries a batch out).
func (d Deal) Carry(e engine.Effect, b *Batch, shuffle, peek func(engine.Effect)) (bool, error) {
	switch e.Kind {
	case engine.EffectSet:
		return true, d.Set(e)
	case engine.EffectShuffle:
		shuffle(e)
	case engine.EffectPeek:
		if len(e.Slots) != 1 {
			return true, errors.New("peek: want one slot")
		}
		peek(e)
	case engine.EffectReveal:
		b.Facts = append(b.Facts, d.Reveal(e)...)
	case engine.EffectCoin:
		b.Coin = true
	case engine.EffectProve:
	default:
		return false, nil
	}
	return true, nil
}

// Next empties b and returns the facts the rules get for it: waiting
// says whether they wait for facts (done is true when they do not, an
// error if the batch gave some); if they do, a coin drawn by coin when
// the batch asked for one, else its reveals' facts.
func (b *Batch) Next(waiting bool, coin func() ([32]byte, error)) (facts []engine.Fact, done bool, err error) {
	facts, asked := b.Facts, b.Coin
	*b = Batch{}
	if !waiting {
		if asked || len(facts) > 0 {
			return nil, true, errors.New("effects produced facts but the rules do not wait for them")
		}
		return nil, true, nil
	}
	switch {
	case asked && len(facts) > 0:
		return nil, false, errors.New("one batch asks for a coin and facts")
	case asked:
		c, err := coin()
		if err != nil {
			return nil, false, err
		}
		return []engine.Fact{{Slot: -1, Coin: c}}, false, nil
	case len(facts) == 0:
		return nil, false, errors.New("the rules wait for facts no effect asked for")
	}
	return facts, false, nil
}

// NewRand returns the seeded stream a fake table's shuffles and coins
// come from.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// Coin returns a coin drawn from rng: four words, little-endian.
func Coin(rng *rand.Rand) [32]byte {
	var c [32]byte
	for i := range 4 {
		x := rng.Uint64()
		for j := range 8 {
			c[8*i+j] = byte(x >> (8 * j))
		}
	}
	return c
}
