package mascarade2

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Cards returns the catalogue, one entry per mask kind in card-value
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

// ValidCard reports whether c is a mask of the catalogue.
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

// ParseCard parses a mask's English name, case-insensitively.
func ParseCard(s string) (engine.Card, error) {
	for _, i := range cardTable {
		if strings.EqualFold(i.Name, s) {
			return i.Card, nil
		}
	}
	return 0, fmt.Errorf("mascarade2: unknown mask %q", s)
}

// ParseCards parses a comma-separated list of mask names. An entry may
// carry a count, "Peasant x2".
func ParseCards(s string) ([]engine.Card, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("mascarade2: empty list of masks")
	}
	var out []engine.Card
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		k := 1
		if name, count, ok := strings.Cut(p, " "); ok {
			count = strings.ToLower(strings.TrimSpace(count))
			n := 0
			if _, err := fmt.Sscanf(count, "x%d", &n); err != nil || n < 1 || n > 9 || fmt.Sprintf("x%d", n) != count {
				return nil, fmt.Errorf("mascarade2: %q: expected NAME or NAME xN", p)
			}
			p, k = strings.TrimSpace(name), n
		}
		c, err := ParseCard(p)
		if err != nil {
			return nil, err
		}
		for range k {
			out = append(out, c)
		}
	}
	return out, nil
}

// FormatCards joins mask names with commas.
func FormatCards(cs []engine.Card) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = CardName(c)
	}
	return strings.Join(names, ",")
}

// BringsCoins reports whether c's power brings coins from the bank.
func BringsCoins(c engine.Card) bool {
	i, ok := Info(c)
	return ok && i.Bank
}
