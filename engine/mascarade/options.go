package mascarade

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Options fixes everything a game of Mascarade is played under.
//
// The zero values of Set, Coins and Center mean "the book's default";
// [Options.Normalize] fills them in, and the canonical encoding
// ([Options.MarshalBinary]) is always of the normalized value.
type Options struct {
	// Players are the names, in seat (clockwise) order; seat 0 plays first.
	// A name is 1..32 bytes of letters, digits, '_' or '-', unique ignoring
	// case, and not a centre slot's name.
	Players []string
	// Set is the multiset of characters in play (players' cards and centre
	// cards). Nil selects the recommended set ([RecommendedSet]).
	Set []engine.Card
	// Coins is each player's starting purse, 1..12; 0 means [DefaultCoins].
	Coins int
	// Center is the number of centre cards: with 4 or 5 players the game
	// uses 6 cards, so 2 or 1 lie in the centre (0 is read as that number);
	// 0..2 with 6+ players; 0 in the 2- and 3-player variants.
	Center int
}

// Variant is the table layout implied by the number of players.
type Variant uint8

// The variants of the book.
const (
	// VariantStandard: 4..13 players, one card each, optional centre cards.
	VariantStandard Variant = iota + 1
	// VariantThree: 3 players, two cards each (left, right).
	VariantThree
	// VariantTwo: 2 players, three cards each (left, right, guard).
	VariantTwo
)

// String returns the variant's name.
func (v Variant) String() string {
	switch v {
	case VariantStandard:
		return "standard"
	case VariantThree:
		return "three-player"
	case VariantTwo:
		return "two-player"
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// VariantFor returns the variant for a number of players.
func VariantFor(players int) Variant {
	switch players {
	case 2:
		return VariantTwo
	case 3:
		return VariantThree
	}
	return VariantStandard
}

// Variant returns the variant implied by the number of players.
func (o Options) Variant() Variant { return VariantFor(len(o.Players)) }

// Normalize returns a copy of o with defaults filled in: Coins, Center
// (6 - players with 4-5 players) and Set (the recommended set, if one exists). Set is
// sorted by card value, the canonical order of a multiset.
func (o Options) Normalize() Options {
	n := Options{
		Players: slices.Clone(o.Players),
		Set:     slices.Clone(o.Set),
		Coins:   o.Coins,
		Center:  o.Center,
	}
	if n.Coins == 0 {
		n.Coins = DefaultCoins
	}
	if p := len(n.Players); (p == 4 || p == 5) && n.Center == 0 {
		n.Center = 6 - p
	}
	if len(n.Set) == 0 {
		n.Set = RecommendedSet(len(n.Players), n.Center)
	}
	slices.Sort(n.Set)
	return n
}

// Cards returns the number of cards in play for o (normalized).
func (o Options) Cards() int {
	switch len(o.Players) {
	case 2, 3:
		return 6
	}
	return len(o.Players) + o.Center
}

// SetError is one broken constraint of the options or of a custom set.
type SetError struct {
	// Constraint is a stable identifier: "players", "name", "coins",
	// "center", "set-size", "unknown-card", "copies", "judge-required",
	// "bank-third", "peasants-pair", "min-players", "no-recommended-set".
	Constraint string
	Msg        string
}

func (e *SetError) Error() string {
	return "mascarade: " + e.Constraint + ": " + e.Msg
}

// Validate checks normalized options against the book's constraints. It
// returns nil or one [*SetError] per broken constraint, joined with
// [errors.Join].
func (o Options) Validate() error {
	b := broken()
	p := len(o.Players)
	masquerade.CheckTable(o.Players, o.Coins, MinPlayers, MaxPlayers, BoxCoins, b.Bad)
	switch {
	case p == 2 || p == 3:
		if o.Center != 0 {
			b.Bad("center", "the %d-player variant has no centre cards, not %d", p, o.Center)
		}
	case p == 4 || p == 5:
		if o.Center != 6-p {
			b.Bad("center", "with %d players 6 cards are used, so %d lie in the centre, not %d", p, 6-p, o.Center)
		}
	default:
		if o.Center < 0 || o.Center > 2 {
			b.Bad("center", "with 6+ players 0, 1 or 2 cards may lie in the centre, not %d", o.Center)
		}
	}
	if len(o.Set) == 0 {
		b.Bad("no-recommended-set", "the book recommends no set for %d players with %d centre cards; give a custom set", p, o.Center)
		return b.Err()
	}
	checkSet(b, o.Set, p, o.Cards())
	return b.Err()
}

// checkSet checks a multiset of characters against the book's constraints
// for a set used by players players with cards cards in play.
func checkSet(b *masquerade.Constraints, set []engine.Card, players, cards int) {
	bad := b.Bad
	if len(set) != cards {
		if players == 4 || players == 5 {
			bad("set-size", "%d cards; with %d players there are exactly 6 (one per player, the rest in the centre)", len(set), players)
		} else {
			bad("set-size", "%d cards; %d players need %d (players + centre cards)", len(set), players, cards)
		}
	}
	count, bank, _ := characters.CountSet(set, players, bad)
	if count[Judge] == 0 {
		bad("judge-required", "the Judge must be in play")
	}
	if bank*3 < len(set) {
		bad("bank-third", "only %d of %d characters bring coins from the bank (Queen, King, Widow, Fool, Peasants); at least a third must", bank, len(set))
	}
	if k := count[Peasant]; k == 1 {
		bad("peasants-pair", "both Peasants or none: the set has one")
	}
}

// CheckSet checks a custom set against the book's constraints for the
// given number of players and centre cards, returning one [*SetError] per
// broken constraint (joined), or nil.
func CheckSet(set []engine.Card, players, center int) error {
	o := Options{Players: make([]string, players), Set: set, Center: center}
	b := broken()
	checkSet(b, set, players, o.Cards())
	return b.Err()
}

// broken returns an empty collection of broken constraints, one
// [*SetError] each.
func broken() *masquerade.Constraints {
	return &masquerade.Constraints{New: func(c, msg string) error { return &SetError{c, msg} }}
}
