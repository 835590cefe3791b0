package mascarade2

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// Options fixes everything a game of Mascarade (2nd edition) is played
// under.
//
// The zero values of Set and Coins mean "the default": [Options.Normalize]
// fills them in (Set from the default scenario for the player count, see
// [DefaultScenario]), and the canonical encoding ([Options.MarshalBinary])
// is always of the normalized value. The number of masks in the middle is
// not an option of its own: it is len(Set) - len(Players) ([Options.Center]).
type Options struct {
	// Players are the names, in seat (clockwise) order; seat 0 plays first.
	// A name is 1..32 bytes of letters, digits, '_' or '-', unique ignoring
	// case, and not a middle slot's name (centre1, centre2) nor "none".
	Players []string
	// Set is the multiset of masks in play (players' cards and the masks in
	// the middle). Nil selects the default scenario for the player count.
	Set []engine.Card
	// Coins is each player's starting purse, 1..12; 0 means [DefaultCoins].
	Coins int
}

// Normalize returns a copy of o with defaults filled in. Set is sorted by
// card value, the canonical order of a multiset.
func (o Options) Normalize() Options {
	n := Options{
		Players: slices.Clone(o.Players),
		Set:     slices.Clone(o.Set),
		Coins:   o.Coins,
	}
	if n.Coins == 0 {
		n.Coins = DefaultCoins
	}
	if len(n.Set) == 0 {
		if sc := DefaultScenario(len(n.Players)); sc != nil {
			n.Set = slices.Clone(sc.Masks)
		}
	}
	slices.Sort(n.Set)
	return n
}

// Center returns the number of masks in the middle of the table.
func (o Options) Center() int { return len(o.Set) - len(o.Players) }
