package mascarade2

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// masks is the family's card machinery ([masquerade.Catalogue]) over
// cardTable.
var masks = &masquerade.Catalogue{Game: GameName, Noun: "mask", Cards: cardTable[:], Counts: true}

// Cards returns the catalogue, one entry per mask kind in card-value
// order. The slice is a fresh copy.
func Cards() []CardInfo { return masks.All() }

// Info returns the catalogue entry of c.
func Info(c engine.Card) (CardInfo, bool) { return masks.Info(c) }

// ValidCard reports whether c is a mask of the catalogue.
func ValidCard(c engine.Card) bool { return masks.Valid(c) }

// CardName returns the English name of c ("card(N)" if c is unknown).
func CardName(c engine.Card) string { return masks.Name(c) }

// ParseCard parses a mask's English name, case-insensitively.
func ParseCard(s string) (engine.Card, error) { return masks.Parse(s) }

// ParseCards parses a comma-separated list of mask names. An entry may
// carry a count, "Peasant x2".
func ParseCards(s string) ([]engine.Card, error) { return masks.ParseList(s) }

// FormatCards joins mask names with commas.
func FormatCards(cs []engine.Card) string { return masks.Format(cs) }

// BringsCoins reports whether c's power brings coins from the bank.
func BringsCoins(c engine.Card) bool { return masks.BringsCoins(c) }
