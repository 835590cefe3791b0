package mascarade

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// characters is the family's card machinery ([masquerade.Catalogue]) over
// cardTable.
var characters = &masquerade.Catalogue{Game: GameName, Noun: "character", Cards: cardTable[:]}

// Cards returns the catalogue, one entry per character kind in card-value
// order. The slice is a fresh copy.
func Cards() []CardInfo { return characters.All() }

// Info returns the catalogue entry of c.
func Info(c engine.Card) (CardInfo, bool) { return characters.Info(c) }

// ValidCard reports whether c is a character of the catalogue.
func ValidCard(c engine.Card) bool { return characters.Valid(c) }

// CardName returns the English name of c ("card(N)" if c is unknown).
func CardName(c engine.Card) string { return characters.Name(c) }

// ParseCard parses a character's English name, case-insensitively.
func ParseCard(s string) (engine.Card, error) { return characters.Parse(s) }

// ParseCards parses a comma-separated list of character names.
func ParseCards(s string) ([]engine.Card, error) { return characters.ParseList(s) }

// FormatCards joins card names with commas.
func FormatCards(cs []engine.Card) string { return characters.Format(cs) }

// BringsCoins reports whether c's power brings coins from the bank (Queen,
// King, Widow, Fool, Peasant).
func BringsCoins(c engine.Card) bool { return characters.BringsCoins(c) }

// RecommendedSet returns the book's recommended set for players players
// and center centre cards, or nil if the book has none. With 2 and 3
// players it is the variants' set; with 4 and 5 players the book's column
// for that count (six cards, two of them in the centre); with 6+ players and
// c centre cards it is the book's column for players+c cards (see
// docs/rules-mascarade.md: the set may still be refused by [Options.Validate],
// e.g. Peasants with fewer than 8 players).
func RecommendedSet(players, center int) []engine.Card {
	n := players
	if players >= 6 {
		n = players + center
	}
	if n < 2 || n >= len(recommendedTable) {
		return nil
	}
	return append([]engine.Card(nil), recommendedTable[n]...)
}
