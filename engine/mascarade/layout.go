package mascarade

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Positions of a card in front of a player, in the 2- and 3-player
// variants. In the standard game every player has one card, position Left.
const (
	Left  = 0
	Right = 1
	Guard = 2
)

// layout is the slot geometry of a table: players*per player slots (seat i
// owns slots i*per .. i*per+per-1), then the centre slots.
type layout struct {
	players int
	per     int // cards per player: 1, 2 or 3
	center  int
}

func layoutFor(players, center int) layout {
	switch players {
	case 2:
		return layout{players: 2, per: 3}
	case 3:
		return layout{players: 3, per: 2}
	}
	return layout{players: players, per: 1, center: center}
}

func (l layout) slots() int { return l.players*l.per + l.center }

// owner returns the seat owning slot s and the position within the seat,
// or ok=false for a centre slot.
func (l layout) owner(s engine.Slot) (seat engine.Seat, pos int, ok bool) {
	if int(s) < l.players*l.per {
		return engine.Seat(int(s) / l.per), int(s) % l.per, true
	}
	return 0, 0, false
}

func (l layout) slotOf(seat engine.Seat, pos int) engine.Slot {
	return engine.Slot(int(seat)*l.per + pos)
}

func (l layout) valid(s engine.Slot) bool { return s >= 0 && int(s) < l.slots() }

func (l layout) isGuard(s engine.Slot) bool {
	_, pos, ok := l.owner(s)
	return ok && l.per == 3 && pos == Guard
}

func (l layout) owns(seat engine.Seat, s engine.Slot) bool {
	o, _, ok := l.owner(s)
	return ok && o == seat
}

// claimable reports whether seat may claim (or be asked about) with slot s:
// its own card, never the guard.
func (l layout) claimable(seat engine.Seat, s engine.Slot) bool {
	return l.valid(s) && l.owns(seat, s) && !l.isGuard(s)
}

// swapTarget reports whether seat may swap one of its cards with slot t:
// any slot not its own, but never another player's guard.
func (l layout) swapTarget(seat engine.Seat, t engine.Slot) bool {
	return l.valid(t) && !l.owns(seat, t) && !l.isGuard(t)
}

// ownPair reports whether seat may swap its own cards a and b with each
// other: in the 3- and 2-player games (the Polish book: "z drugą swoją
// kartą"; with 2 players "z inną swoją kartą (nawet chronioną)"),
// docs/rules-mascarade.md #26-27.
func (l layout) ownPair(seat engine.Seat, a, b engine.Slot) bool {
	return l.per > 1 && a != b && l.valid(a) && l.valid(b) && l.owns(seat, a) && l.owns(seat, b)
}

var posNames = [...]string{"left", "right", "guard"}

// SlotName returns the script name of slot s: the player's name in the
// standard game, "Name.left"/"Name.right"/"Name.guard" in the variants,
// "centre1"/"centre2" for the centre.
func (s *State) SlotName(slot engine.Slot) string {
	l := s.layout
	if !l.valid(slot) {
		return fmt.Sprintf("slot(%d)", int(slot))
	}
	seat, pos, ok := l.owner(slot)
	if !ok {
		return fmt.Sprintf("centre%d", int(slot)-l.players*l.per+1)
	}
	if l.per == 1 {
		return s.opts.Players[seat]
	}
	return s.opts.Players[seat] + "." + posNames[pos]
}

// SeatByName returns the seat of a player, matching the name
// case-insensitively.
func (s *State) SeatByName(name string) (engine.Seat, error) {
	return masquerade.SeatByName(GameName, s.opts.Players, name)
}

// ParseSlot parses a slot name (see [State.SlotName]), case-insensitively.
// In the standard game a player's name names that player's card; in the
// variants the position is required ("Name.left").
func (s *State) ParseSlot(name string) (engine.Slot, error) {
	l := s.layout
	lower := strings.ToLower(name)
	rest, ok := strings.CutPrefix(lower, "centre")
	if !ok {
		rest, ok = strings.CutPrefix(lower, "center") // the American spelling works too
	}
	if ok {
		for i := range l.center {
			if rest == fmt.Sprint(i+1) {
				return engine.Slot(l.players*l.per + i), nil
			}
		}
		return 0, fmt.Errorf("mascarade: no centre slot %q (this table has %d)", name, l.center)
	}
	player, pos, hasPos := strings.Cut(name, ".")
	seat, err := s.SeatByName(player)
	if err != nil {
		return 0, err
	}
	if l.per == 1 {
		if hasPos {
			return 0, fmt.Errorf("mascarade: slot %q: players have one card each here; name the player", name)
		}
		return l.slotOf(seat, 0), nil
	}
	if !hasPos {
		return 0, fmt.Errorf("mascarade: slot %q: say which card (%s.left, %s.right%s)", name, player, player, map[bool]string{true: ", .guard", false: ""}[l.per == 3])
	}
	for i := range l.per {
		if strings.EqualFold(pos, posNames[i]) {
			return l.slotOf(seat, i), nil
		}
	}
	return 0, fmt.Errorf("mascarade: slot %q: no such card position", name)
}
