package grimm

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// GameName is the game's name in rosters.
const GameName = "grimm"

// Game binds The Grimm Masquerade to the table layer (engine/table's Game
// interface): options travel as their canonical encoding
// ([Options.MarshalBinary]). The deal is hidden: the state implements
// [engine.Opening].
type Game struct{}

// Name returns [GameName].
func (Game) Name() string { return GameName }

// Kinds returns the number of card kinds ([NumKinds]).
func (Game) Kinds() int { return NumKinds }

// Deck returns the cards laid out face up before the opening, one per
// slot, in canonical order: the 8 characters (slots 0-7), the 48 items
// (slots 8-55, six of each kind in item order) and, with bets, the 8 bet
// cards (slots 56-63).
func (Game) Deck(options []byte) ([]engine.Card, error) { return hiddenDeal.Deck(options) }

// hiddenDeal is the table binding The Grimm Masquerade shares with the
// other games whose deal is hidden.
var hiddenDeal = games.HiddenDeal[Options, *State]{
	Game: GameName, Unmarshal: UnmarshalOptions, Layout: deckFor, NewGame: NewGame,
	Players: func(o Options) []string { return o.Players },
}

func deckFor(o Options) []engine.Card {
	d := append(Characters(), canonicalItems()...)
	if o.Bets {
		d = append(d, canonicalBets()...)
	}
	return d
}

// New returns the initial rules state. The deal must be nil (hidden) or
// the canonical deck of [Game.Deck] (the face-up layout the opening
// shuffles).
func (Game) New(options []byte, deal []engine.Card) (engine.State, error) {
	return hiddenDeal.New(options, deal)
}
