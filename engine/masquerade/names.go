package masquerade

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/masque-games/masque/engine"
)

// ReservedNames are slot names (and the "none" of a target) a player may
// not take.
var ReservedNames = [...]string{"centre1", "centre2", "center1", "center2", "none"}

// ValidName reports whether s may be a player's name: 1-32 letters, digits,
// '_' or '-', and none of [ReservedNames] in any case.
func ValidName(s string) bool {
	if s == "" || len(s) > 32 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '_' || r == '-':
		case r >= '0' && r <= '9':
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r > 127 && unicode.IsLetter(r):
		default:
			return false
		}
	}
	for _, r := range ReservedNames {
		if strings.EqualFold(s, r) {
			return false
		}
	}
	return true
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
