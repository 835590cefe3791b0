package mascarade

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Move kinds, shared by the Mascarade family ([masquerade.KindSwap] ...).
// See the package documentation for each kind's Args.
const (
	KindSwap      = masquerade.KindSwap      // Args: [own slot, target slot]
	KindPeek      = masquerade.KindPeek      // Args: [own slot]
	KindClaim     = masquerade.KindClaim     // Args: [character, own slot]
	KindChallenge = masquerade.KindChallenge // Args: [own slot]
	KindPass      = masquerade.KindPass      // Args: []
	KindUse       = masquerade.KindUse       // Args: depend on the power, see the package documentation
	KindGuess     = masquerade.KindGuess     // Args: [character]
)

// NoTarget is the Witch's "use target=none" argument: she keeps her own
// purse (the book: she "may" exchange it).
const NoTarget = -1

// Contender is a player taking part in a claim: the claimant (first) or a
// challenger, with the card they put forward.
type Contender = masquerade.Contender

// State is the public rules state of one game of Mascarade. It implements
// [engine.State]; values are immutable: every method that changes the game
// returns a new *State.
type State struct {
	opts   Options // normalized and valid
	layout layout
	deal   []engine.Card // the initial face-up deal, one card per slot

	// The purses, turn, claim and winners: a named field, not embedded, so
	// that its fields (the rules' working state) are not promoted and stay
	// out of reach of other packages. The accessors other packages use are
	// forwarded in core.go.
	core masquerade.Core
}

// NewGame starts a game. deal lists the card in each slot (see the package
// documentation for the slot layout); it must be a permutation of the set.
// In Mascarade the deal is face up, so it is public.
func NewGame(opts Options, deal []engine.Card) (*State, error) {
	o := opts.Normalize()
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("mascarade: new game: %w", err)
	}
	l := layoutFor(len(o.Players), o.Center)
	if len(deal) != l.slots() {
		return nil, fmt.Errorf("mascarade: new game: deal has %d cards, the table has %d slots", len(deal), l.slots())
	}
	sorted := slices.Clone(deal)
	slices.Sort(sorted)
	if !slices.Equal(sorted, o.Set) {
		return nil, fmt.Errorf("mascarade: new game: deal %s is not a permutation of the set %s", FormatCards(deal), FormatCards(o.Set))
	}
	n := len(o.Players)
	s := &State{
		opts:   o,
		layout: l,
		deal:   slices.Clone(deal),
		core:   masquerade.NewCore(n, o.Coins, BoxCoins),
	}
	return s, nil
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State) clone() *State {
	c := *s
	c.core = masquerade.CloneCore(&s.core)
	return &c
}

// Options returns the (normalized) options of the game.
func (s *State) Options() Options { return s.opts.Normalize() }

// Players returns the number of players.
func (s *State) Players() int { return len(s.opts.Players) }

// Name returns the name of seat p.
func (s *State) Name(p engine.Seat) string { return s.opts.Players[p] }

// Variant returns the table variant.
func (s *State) Variant() Variant { return s.opts.Variant() }

// Slots returns the number of slots on the table.
func (s *State) Slots() int { return s.layout.slots() }

// SlotsOf returns the slots in front of seat p (left, right, guard order).
func (s *State) SlotsOf(p engine.Seat) []engine.Slot {
	out := make([]engine.Slot, s.layout.per)
	for i := range out {
		out[i] = s.layout.slotOf(p, i)
	}
	return out
}

// CenterSlots returns the centre slots.
func (s *State) CenterSlots() []engine.Slot {
	out := make([]engine.Slot, s.layout.center)
	for i := range out {
		out[i] = engine.Slot(s.layout.players*s.layout.per + i)
	}
	return out
}

// SlotOwner returns the seat in front of which slot sits, or ok=false for
// a centre card.
func (s *State) SlotOwner(slot engine.Slot) (engine.Seat, bool) {
	p, _, ok := s.layout.owner(slot)
	return p, ok && s.layout.valid(slot)
}

// IsGuard reports whether slot is a guard (protected) card of the
// 2-player variant.
func (s *State) IsGuard(slot engine.Slot) bool { return s.layout.isGuard(slot) }

// Deal returns the initial face-up deal, one card per slot.
func (s *State) Deal() []engine.Card { return slices.Clone(s.deal) }

// Set returns the characters in play, sorted.
func (s *State) Set() []engine.Card { return slices.Clone(s.opts.Set) }

// InPlay reports whether character c is in the set.
func (s *State) InPlay(c engine.Card) bool { return slices.Contains(s.opts.Set, c) }

// TurnSeat returns whose turn it is.
func (s *State) TurnSeat() engine.Seat { return engine.Seat(s.core.TurnAt) }

// MustSwap reports whether seat p, if it were p's turn now, could only
// swap: during the preparatory turns, or because p's card was revealed
// during the previous turn.
func (s *State) MustSwap(p engine.Seat) bool {
	return s.Preparatory() || s.core.RevealedPrev[p]
}

// InquisitorTarget returns the seat that must guess its character, or
// ok=false.
func (s *State) InquisitorTarget() (engine.Seat, bool) { return s.Questioned() }

// Next reports what the rules wait for.
func (s *State) Next() engine.Need { return masquerade.Need(&s.core, rules{s}) }

// seatAfter returns the seat k places clockwise (to the left) of p.
func (s *State) seatAfter(p engine.Seat, k int) engine.Seat {
	n := len(s.opts.Players)
	return engine.Seat(((int(p)+k)%n + n) % n)
}

// String returns a one-line public summary, for logs and test failures.
func (s *State) String() string {
	out := fmt.Sprintf("turn %d (%s)", s.core.TurnNo, s.opts.Players[engine.Seat(s.core.TurnAt)])
	for i, p := range s.opts.Players {
		out += fmt.Sprintf(" %s=%d", p, s.core.Purse[i])
	}
	out += fmt.Sprintf(" court=%d bank=%d", s.core.CourtCoins, s.core.BankCoins)
	if s.Over() {
		out += " over winners="
		for i, w := range s.core.Won {
			if i > 0 {
				out += ","
			}
			out += s.opts.Players[w]
		}
	}
	return out
}
