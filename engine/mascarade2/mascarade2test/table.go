package mascarade2test

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
)

// Table is the omniscient oracle: the public rules state plus the true
// card in every slot.
type Table struct {
	State *mascarade2.State
	Cards []engine.Card // the true card in each slot
	Steps []Step        // every move played, in order
}

// Step records one move and everything that followed from it.
type Step struct {
	Move    engine.Move
	Swap    bool            // the secret bit, for swap-like moves
	Effects []engine.Effect // the effects of the move and of any reveals it led to, in order
	Facts   []engine.Fact   // the cards revealed to all
	Peeks   []Peek          // what each peek (and each show-others, once per viewer) showed, privately
	Hash    [32]byte        // SHA-256 of the state encoding after the step
}

// Peek is a card seen privately by one seat.
type Peek struct {
	By   engine.Seat
	Slot engine.Slot
	Card engine.Card
}

// New starts a game with the given deal (the true cards, one per slot).
func New(opts mascarade2.Options, deal []engine.Card) (*Table, error) {
	s, err := mascarade2.NewGame(opts, deal)
	if err != nil {
		return nil, err
	}
	return &Table{State: s, Cards: slices.Clone(deal)}, nil
}

// HashState returns the SHA-256 of the canonical encoding of s.
func HashState(s engine.State) [32]byte {
	b, err := s.AppendBinary(nil)
	if err != nil {
		panic(err) // the encoding of a valid state cannot fail
	}
	return sha256.Sum256(b)
}

// Play applies m with the secret swap bit swap (ignored by moves without
// a swap) and carries out the resulting effects. On error the table is
// unchanged.
func (t *Table) Play(m engine.Move, swap bool) (Step, error) {
	s, eff, err := t.State.Play(m)
	if err != nil {
		return Step{}, err
	}
	cards := slices.Clone(t.Cards)
	st := Step{Move: m, Swap: swap}
	for len(eff) > 0 {
		e := eff[0]
		eff = eff[1:]
		st.Effects = append(st.Effects, e)
		switch e.Kind {
		case engine.EffectSwap:
			if swap {
				a, b := e.Slots[0], e.Slots[1]
				cards[a], cards[b] = cards[b], cards[a]
			}
		case engine.EffectPeek:
			st.Peeks = append(st.Peeks, Peek{By: e.By, Slot: e.Slots[0], Card: cards[e.Slots[0]]})
		case engine.EffectShowOthers:
			for p := range engine.Seat(s.Players()) {
				if p != e.Except {
					for _, sl := range e.Slots {
						st.Peeks = append(st.Peeks, Peek{By: p, Slot: sl, Card: cards[sl]})
					}
				}
			}
		case engine.EffectReveal:
			facts := make([]engine.Fact, len(e.Slots))
			for i, sl := range e.Slots {
				facts[i] = engine.Fact{Slot: sl, Card: cards[sl]}
			}
			st.Facts = append(st.Facts, facts...)
			var more []engine.Effect
			s, more, err = s.Know(facts)
			if err != nil {
				return Step{}, fmt.Errorf("mascarade2test: learning %v: %w", facts, err)
			}
			eff = append(eff, more...)
		default:
			return Step{}, fmt.Errorf("mascarade2test: unexpected effect %v", e.Kind)
		}
	}
	t.State, t.Cards = s, cards
	st.Hash = HashState(s)
	t.Steps = append(t.Steps, st)
	return st, nil
}

// PassResponders makes every remaining responder of an open challenge
// window pass until the window closes or it is seat's turn to respond.
// Pass -1 to close the window.
func (t *Table) PassResponders(seat engine.Seat) error {
	for t.State.InChallengeWindow() {
		next := t.State.Next().Seat
		if next == seat {
			return nil
		}
		if _, err := t.Play(engine.Move{Seat: next, Kind: mascarade2.KindPass}, false); err != nil {
			return err
		}
	}
	return nil
}
