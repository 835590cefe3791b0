package mascarade2

import (
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// The book's constraints on a table and on its masks, which options and
// scenarios both satisfy.

// SetError is one broken constraint of the options or of a scenario.
type SetError struct {
	// Constraint is a stable identifier: "players", "name", "coins",
	// "set-size", "unknown-card", "copies", "judge-required", "bank-third",
	// "peasants-pair", "min-players", "scenario-players", "no-scenario".
	Constraint string
	Msg        string
}

func (e *SetError) Error() string {
	return "mascarade2: " + e.Constraint + ": " + e.Msg
}

// Validate checks normalized options against the book's constraints. It
// returns nil or one [*SetError] per broken constraint, joined with
// [errors.Join].
func (o Options) Validate() error {
	b := broken()
	p := len(o.Players)
	masquerade.CheckTable(o.Players, o.Coins, MinPlayers, MaxPlayers, BoxCoins, b.Bad)
	if len(o.Set) == 0 {
		b.Bad("no-scenario", "no default scenario for %d players; give a scenario or a set of masks", p)
		return b.Err()
	}
	checkSet(b, o.Set, p)
	return b.Err()
}

// SetSizes returns the smallest and largest number of masks a table of
// players may use: players + 2 with 4 or 5 players (two masks in the
// middle), players to players + 2 with more.
func SetSizes(players int) (lo, hi int) {
	if players <= 5 {
		return players + SmallTableCenter, players + SmallTableCenter
	}
	return players, players + MaxCenter
}

// checkSet checks a multiset of masks against the book's constraints for
// a custom scenario ("Власні сценарії") played by players players.
func checkSet(b *masquerade.Constraints, set []engine.Card, players int) {
	bad := b.Bad
	if lo, hi := SetSizes(players); len(set) < lo || len(set) > hi {
		if lo == hi {
			bad("set-size", "%d masks; with %d players there are exactly %d (one per player and %d in the middle)", len(set), players, lo, lo-players)
		} else {
			bad("set-size", "%d masks; %d players use %d to %d (one per player, up to %d in the middle)", len(set), players, lo, hi, MaxCenter)
		}
	}
	count, bank, bankNames := masks.CountSet(set, players, bad)
	if count[Judge] == 0 {
		bad("judge-required", "the Judge must always be in play")
	}
	if bank*3 < len(set) {
		bad("bank-third", "only %d of %d masks bring coins from the bank (%s); at least a third must", bank, len(set), strings.Join(bankNames, ", "))
	}
	if count[Peasant] == 1 {
		bad("peasants-pair", "both Peasants or none: the set has one")
	}
}

// CheckSet checks a custom set of masks against the book's constraints for
// the given number of players, returning one [*SetError] per broken
// constraint (joined), or nil.
func CheckSet(set []engine.Card, players int) error {
	b := broken()
	checkSet(b, set, players)
	return b.Err()
}

// broken returns an empty collection of broken constraints, one
// [*SetError] each.
func broken() *masquerade.Constraints {
	return &masquerade.Constraints{New: func(c, msg string) error { return &SetError{c, msg} }}
}
