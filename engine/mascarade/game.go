package mascarade

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
)

// GameName is the game's name in rosters.
const GameName = "mascarade"

// Game binds Mascarade to the table layer (engine/table's Game interface):
// options travel as their canonical encoding ([Options.MarshalBinary]). It
// also implements the game contract ([games.Rules]); the bot package adds
// the bot.
type Game struct{}

var (
	_ table.Game  = Game{}
	_ games.Rules = Game{}
)

// Name returns [GameName].
func (Game) Name() string { return GameName }

// Kinds returns the number of card kinds: cards are 0..Kinds()-1, and the
// characters are 1..12 (kind 0 is never dealt).
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
		return nil, fmt.Errorf("mascarade: %w", err)
	}
	return s, nil
}

// Title returns the game's name for people.
func (Game) Title() string { return "Mascarade" }

// Players returns [MinPlayers] and [MaxPlayers].
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Table returns the game itself: its binding to the table layer.
func (g Game) Table() table.Game { return g }

// SetupHelp says that the 1st edition takes no setup.
func (Game) SetupHelp() games.SetupHelp {
	return games.SetupHelp{Default: "the 1st edition plays the book's recommended characters for the player count"}
}

// Configure returns the book's setup for players; the 1st edition takes
// no other (choice must be "").
func (Game) Configure(players int, choice string, _ games.Loader) (games.Setup, error) {
	if choice != "" {
		return nil, fmt.Errorf("mascarade: setup %q: the 1st edition takes none", choice)
	}
	return Setup{}, nil
}

// Setup is a table's setup: the characters in play and the purse.
type Setup struct {
	Set   []engine.Card // nil: the book's recommended set for the player count
	Coins int           // 0: the book's purse
}

// Options returns the canonical options for the seated names, checked
// against the book's constraints.
func (su Setup) Options(names []string) ([]byte, error) {
	o := Options{Players: names, Set: su.Set, Coins: su.Coins}
	if err := o.Normalize().Validate(); err != nil {
		return nil, err
	}
	return o.MarshalBinary()
}

// FixedDeal returns false: the game's options fix no part of the deal
// (a scripted table fixes it with the table options' Deal instead, which
// [games.DealFixed] reports).
func (Game) FixedDeal([]byte) bool { return false }

// PlayerNames reads the player names back from canonical options.
func (Game) PlayerNames(options []byte) ([]string, error) {
	o, err := UnmarshalOptions(options)
	if err != nil {
		return nil, err
	}
	return o.Players, nil
}

// ParseScript implements [games.Rules] with [ParseScript] (a 1st edition
// script names no files).
func (Game) ParseScript(src []byte, _ games.Loader) (games.Script, error) {
	sc, err := ParseScript(src)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// FormatMove is [FormatMove] for a state of this game.
func (Game) FormatMove(s engine.State, m engine.Move) string {
	return games.FormatMoveOf(s, m, FormatMove, KindName)
}

// CardName is [CardName].
func (Game) CardName(c engine.Card) string { return CardName(c) }

// Summarize returns the public result of a state of this game.
func (Game) Summarize(s engine.State) (games.Summary, bool) {
	return masquerade.SummarizeOf[*State](s, Game{}.Title())
}

// Seats returns the script's player names (the contract's [games.Script]).
func (sc *Script) Seats() []string { return sc.Options.Players }

// Table returns the script's table options: its game options and deal.
func (sc *Script) Table() (table.Options, error) { return masquerade.ScriptTable(sc.Options, sc.Deal) }

// Play plays the script's lines on t (see [masquerade.LinePlayer]).
func (sc *Script) Play(t games.Table) error {
	return masquerade.LinePlayer[*State]{ParseMove: ParseMove, HasSecretSwap: HasSecretSwap}.Play(t, sc.Lines)
}
