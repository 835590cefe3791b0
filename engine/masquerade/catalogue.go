package masquerade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
)

// CardInfo describes one card kind of a game's catalogue.
type CardInfo struct {
	Card       engine.Card
	Name       string // English name, as used in scripts (and scenario files)
	Copies     int    // copies in the box (2 for the Peasant)
	Bank       bool   // the power brings coins from the bank into play
	MinPlayers int    // the corner "N+" mark: the card needs this many players (0: none)
}

// Catalogue is a game's list of card kinds, in card-value order starting
// at card 1, with what the game calls them in messages.
type Catalogue struct {
	Game   string     // the error prefix, e.g. "mascarade"
	Noun   string     // what a card is called in messages, e.g. "character"
	Cards  []CardInfo // card i+1 at index i; never written to
	Counts bool       // list entries may carry a count, "Peasant x2"
}

// All returns a fresh copy of the catalogue's entries.
func (c *Catalogue) All() []CardInfo { return append([]CardInfo(nil), c.Cards...) }

// Info returns the entry of card k.
func (c *Catalogue) Info(k engine.Card) (CardInfo, bool) {
	if k < 1 || int(k) > len(c.Cards) {
		return CardInfo{}, false
	}
	return c.Cards[k-1], true
}

// Valid reports whether k is a card of the catalogue.
func (c *Catalogue) Valid(k engine.Card) bool {
	_, ok := c.Info(k)
	return ok
}

// Name returns the English name of k ("card(N)" if k is unknown).
func (c *Catalogue) Name(k engine.Card) string {
	if i, ok := c.Info(k); ok {
		return i.Name
	}
	return fmt.Sprintf("card(%d)", int(k))
}

// Parse parses a card's English name, case-insensitively.
func (c *Catalogue) Parse(s string) (engine.Card, error) {
	for _, i := range c.Cards {
		if strings.EqualFold(i.Name, s) {
			return i.Card, nil
		}
	}
	var names []string
	for _, i := range c.Cards {
		if !slices.Contains(names, i.Name) {
			names = append(names, i.Name)
		}
	}
	return 0, fmt.Errorf("%s: unknown %s %q (one of %s)", c.Game, c.Noun, s, strings.Join(names, ", "))
}

// ParseList parses a comma-separated list of card names. With
// [Catalogue.Counts], an entry may carry a count: "Peasant x2" (x1..x9).
func (c *Catalogue) ParseList(s string) ([]engine.Card, error) {
	if s == "" || (c.Counts && strings.TrimSpace(s) == "") {
		return nil, fmt.Errorf("%s: empty list of %ss", c.Game, c.Noun)
	}
	var out []engine.Card
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		k := 1
		if name, count, ok := strings.Cut(p, " "); ok && c.Counts {
			count = strings.ToLower(strings.TrimSpace(count))
			n := 0
			if _, err := fmt.Sscanf(count, "x%d", &n); err != nil || n < 1 || n > 9 || fmt.Sprintf("x%d", n) != count {
				return nil, fmt.Errorf("%s: %q: expected NAME or NAME xN", c.Game, p)
			}
			p, k = strings.TrimSpace(name), n
		}
		card, err := c.Parse(p)
		if err != nil {
			return nil, err
		}
		for range k {
			out = append(out, card)
		}
	}
	return out, nil
}

// Format joins card names with commas.
func (c *Catalogue) Format(cs []engine.Card) string {
	names := make([]string, len(cs))
	for i, k := range cs {
		names[i] = c.Name(k)
	}
	return strings.Join(names, ",")
}

// BringsCoins reports whether k's power brings coins from the bank.
func (c *Catalogue) BringsCoins(k engine.Card) bool {
	i, ok := c.Info(k)
	return ok && i.Bank
}

// CountSet counts a multiset of cards against the catalogue and reports,
// through bad, the constraints every edition shares: "unknown-card" (not a
// card of the catalogue), "copies" (more than the box holds) and
// "min-players" (a card marked for more players). It returns the count of
// each card, how many bring coins from the bank, and the names of the
// cards that do, in card order.
func (c *Catalogue) CountSet(set []engine.Card, players int, bad func(constraint, format string, args ...any)) (count map[engine.Card]int, bank int, bankNames []string) {
	count = map[engine.Card]int{}
	for _, k := range set {
		if !c.Valid(k) {
			bad("unknown-card", "card value %d is not a %s", int(k), c.Noun)
			continue
		}
		count[k]++
	}
	for _, info := range c.Cards {
		k := count[info.Card]
		if k > info.Copies {
			bad("copies", "%s appears %d times; the box has %d", info.Name, k, info.Copies)
		}
		if info.Bank {
			bank += k
			bankNames = append(bankNames, info.Name)
		}
		if k > 0 && players < info.MinPlayers {
			bad("min-players", "%s needs at least %d players, not %d", info.Name, info.MinPlayers, players)
		}
	}
	return count, bank, bankNames
}
