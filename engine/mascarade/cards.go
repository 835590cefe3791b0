package mascarade

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Cards returns the catalogue, one entry per character kind in card-value
// order. The slice is a fresh copy.
func Cards() []CardInfo {
	return append([]CardInfo(nil), cardTable[:]...)
}

// Info returns the catalogue entry of c.
func Info(c engine.Card) (CardInfo, bool) {
	if c < 1 || int(c) > len(cardTable) {
		return CardInfo{}, false
	}
	return cardTable[c-1], true
}

// ValidCard reports whether c is a character of the catalogue.
func ValidCard(c engine.Card) bool {
	_, ok := Info(c)
	return ok
}

// CardName returns the English name of c ("card(N)" if c is unknown).
func CardName(c engine.Card) string {
	if i, ok := Info(c); ok {
		return i.Name
	}
	return fmt.Sprintf("card(%d)", int(c))
}

// ParseCard parses a character's English name, case-insensitively.
func ParseCard(s string) (engine.Card, error) {
	for _, i := range cardTable {
		if strings.EqualFold(i.Name, s) {
			return i.Card, nil
		}
	}
	return 0, fmt.Errorf("mascarade: unknown character %q", s)
}

// ParseCards parses a comma-separated list of character names.
func ParseCards(s string) ([]engine.Card, error) {
	if s == "" {
		return nil, fmt.Errorf("mascarade: empty list of characters")
	}
	parts := strings.Split(s, ",")
	out := make([]engine.Card, 0, len(parts))
	for _, p := range parts {
		c, err := ParseCard(strings.TrimSpace(p))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// FormatCards joins card names with commas.
func FormatCards(cs []engine.Card) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = CardName(c)
	}
	return strings.Join(names, ",")
}

// BringsCoins reports whether c's power brings coins from the bank (Queen,
// King, Widow, Fool, Peasant).
func BringsCoins(c engine.Card) bool {
	i, ok := Info(c)
	return ok && i.Bank
}

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
