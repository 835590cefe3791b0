package mascarade2

import (
	"fmt"

	"github.com/masque-games/masque/engine"
)

// GameName is the game's name in rosters.
const GameName = "mascarade2"

// Game binds Mascarade (2nd edition) to the table layer (engine/table's
// Game interface): options travel as their canonical encoding
// ([Options.MarshalBinary]).
type Game struct{}

// Name returns [GameName].
func (Game) Name() string { return GameName }

// Kinds returns the number of card kinds: cards are 0..Kinds()-1, and the
// masks are 1..16 (kind 0 is never dealt).
func (Game) Kinds() int { return len(cardTable) + 1 }

// Deck returns the cards to deal, one per slot, in canonical (card value)
// order: the normalized set of the options.
func (Game) Deck(options []byte) ([]engine.Card, error) {
	o, err := UnmarshalOptions(options)
	if err != nil {
		return nil, err
	}
	return o.Normalize().Set, nil
}

// New returns the initial rules state for a deal (the card in each slot,
// a permutation of the deck).
func (Game) New(options []byte, deal []engine.Card) (engine.State, error) {
	o, err := UnmarshalOptions(options)
	if err != nil {
		return nil, err
	}
	s, err := NewGame(o, deal)
	if err != nil {
		return nil, fmt.Errorf("mascarade2: %w", err)
	}
	return s, nil
}
