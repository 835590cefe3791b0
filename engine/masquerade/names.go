package masquerade

import (
	"errors"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// ReservedNames are slot names (and the "none" of a target) a player may
// not take.
var ReservedNames = [...]string{"centre1", "centre2", "center1", "center2", "none"}

// ValidName reports whether s may be a player's name: the form every
// game's names share ([games.CheckNameForm]: 1-32 letters, digits, '_' or
// '-') and none of [ReservedNames] in any case ([Game.CheckName]).
func ValidName(s string) bool { return games.CheckNameForm(s) == nil && checkReserved(s) == nil }

// CheckName implements [games.NameChecker]: a player may take none of
// [ReservedNames], in any case.
func (Game[O, E]) CheckName(name string) error { return checkReserved(name) }

// checkReserved returns the rule a reserved name breaks, nil for any
// other.
func checkReserved(s string) error {
	for _, r := range ReservedNames {
		if strings.EqualFold(s, r) {
			return fmt.Errorf("%q is taken by the rules: a player may not be called centre1, centre2 (or center1, center2), the centre's cards, or none, the absent target", s)
		}
	}
	return nil
}

// CheckNames reports, through bad (constraint "name"), every player name
// that is not [ValidName] or is used twice (case-insensitively).
func CheckNames(players []string, bad func(constraint, format string, args ...any)) {
	seen := map[string]bool{}
	for i, name := range players {
		if !ValidName(name) {
			bad("name", "player %d: %q is not a valid name (1-32 letters, digits, '_' or '-'; not centre1, centre2 (or center1, center2) or none)", i+1, name)
			continue
		}
		k := strings.ToLower(name)
		if seen[k] {
			bad("name", "player %d: name %q is used twice", i+1, name)
		}
		seen[k] = true
	}
}

// SeatByName returns the seat of the player called name among players,
// matching case-insensitively; game prefixes the error.
func SeatByName(game string, players []string, name string) (engine.Seat, error) {
	for i, p := range players {
		if strings.EqualFold(p, name) {
			return engine.Seat(i), nil
		}
	}
	return 0, fmt.Errorf("%s: no player named %q", game, name)
}

// CheckTable checks a table's players (min to max, valid names) and its
// starting purse (1 to [WinCoins]-1, and for a valid player count within
// the box coins of the edition's box), calling bad for each broken
// constraint ("players", "name", "coins").
func CheckTable(players []string, coins, min, max, box int, bad func(constraint, format string, args ...any)) {
	p := len(players)
	count := p >= min && p <= max
	if !count {
		bad("players", "%d players; the game is for %d to %d", p, min, max)
	}
	CheckNames(players, bad)
	if coins < 1 || coins >= WinCoins {
		bad("coins", "starting coins %d; must be 1..%d", coins, WinCoins-1)
	} else if count && p*coins > box {
		bad("coins", "%d players with %d coins need more than the %d coins of the box", p, coins, box)
	}
}

// Constraints collects the broken constraints of an edition's options or
// set, one error each, made by New (the edition's *SetError).
type Constraints struct {
	New  func(constraint, msg string) error
	Errs []error
}

// Bad records a broken constraint.
func (c *Constraints) Bad(constraint, format string, args ...any) {
	c.Errs = append(c.Errs, c.New(constraint, fmt.Sprintf(format, args...)))
}

// Err returns the broken constraints, joined with [errors.Join], or nil.
func (c *Constraints) Err() error { return errors.Join(c.Errs...) }
