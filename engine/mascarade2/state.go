package mascarade2

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Move kinds, shared by the Mascarade family ([masquerade.KindSwap] ...).
// See the package documentation for each kind's Args.
const (
	KindSwap      = masquerade.KindSwap      // Args: [own slot, target slot]
	KindPeek      = masquerade.KindPeek      // Args: [own slot]
	KindClaim     = masquerade.KindClaim     // Args: [mask, own slot]
	KindChallenge = masquerade.KindChallenge // Args: [own slot]
	KindPass      = masquerade.KindPass      // Args: []
	KindUse       = masquerade.KindUse       // Args: depend on the power, see the package documentation
	KindGuess     = masquerade.KindGuess     // Args: [mask]
)

// NoTarget is the Sorceress's "use target=none" argument: she keeps her
// purse.
const NoTarget = -1

// Contender is a player taking part in a claim: the claimant (first) or a
// challenger, with the card they put forward.
type Contender = masquerade.Contender

// State is the public rules state of one game of Mascarade (2nd edition).
// It implements [engine.State]; values are immutable: every method that
// changes the game returns a new *State.
//
// Chairs: the table has one chair per player, numbered clockwise; chair i
// holds slot i (the card in front of it). seatAt maps chairs to the seats
// (players) sitting there; it starts as the identity and only the
// Puppeteer changes it. Turn order and neighbours follow the chairs.
type State struct {
	opts Options // normalized and valid
	deal []engine.Card

	seatAt  []engine.Seat // chair -> seat
	chairOf []int         // seat -> chair (the inverse of seatAt)

	// The purses (per seat: the purse in front of the seat's chair), the
	// turn (its place is the turn player's chair), claim and winners: a
	// named field, not embedded, so that its fields (the rules' working
	// state) are not promoted and stay out of reach of other packages. The
	// accessors other packages use are forwarded in core.go.
	core masquerade.Core
}

// NewGame starts a game. deal lists the card in each slot (slot i is the
// card of seat i, then centre1 and centre2); it must be a permutation of
// the set. The deal is face up, so it is public.
func NewGame(opts Options, deal []engine.Card) (*State, error) {
	o := opts.Normalize()
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("mascarade2: new game: %w", err)
	}
	if len(deal) != len(o.Set) {
		return nil, fmt.Errorf("mascarade2: new game: deal has %d cards, the table has %d slots", len(deal), len(o.Set))
	}
	sorted := slices.Clone(deal)
	slices.Sort(sorted)
	if !slices.Equal(sorted, o.Set) {
		return nil, fmt.Errorf("mascarade2: new game: deal %s is not a permutation of the set %s", FormatCards(deal), FormatCards(o.Set))
	}
	n := len(o.Players)
	s := &State{
		opts:    o,
		deal:    slices.Clone(deal),
		seatAt:  make([]engine.Seat, n),
		chairOf: make([]int, n),
		core:    masquerade.NewCore(n, o.Coins, BoxCoins),
	}
	for i := range n {
		s.seatAt[i] = engine.Seat(i)
		s.chairOf[i] = i
	}
	return s, nil
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State) clone() *State {
	c := *s
	c.seatAt = slices.Clone(s.seatAt)
	c.chairOf = slices.Clone(s.chairOf)
	c.core = masquerade.CloneCore(&s.core)
	return &c
}

// Options returns the (normalized) options of the game.
func (s *State) Options() Options { return s.opts.Normalize() }

// Players returns the number of players.
func (s *State) Players() int { return len(s.opts.Players) }

// Name returns the name of seat p.
func (s *State) Name(p engine.Seat) string { return s.opts.Players[p] }

// Slots returns the number of slots on the table (players + middle).
func (s *State) Slots() int { return len(s.opts.Set) }

// SlotOf returns the slot of the card in front of seat p (the slot of p's
// chair).
func (s *State) SlotOf(p engine.Seat) engine.Slot { return engine.Slot(s.chairOf[p]) }

// SlotsOf returns the slots in front of seat p: one, [State.SlotOf].
func (s *State) SlotsOf(p engine.Seat) []engine.Slot { return []engine.Slot{s.SlotOf(p)} }

// ChairOf returns the chair (0..n-1, clockwise) seat p sits on.
func (s *State) ChairOf(p engine.Seat) int { return s.chairOf[p] }

// SeatAt returns the seat sitting on chair c.
func (s *State) SeatAt(c int) engine.Seat { return s.seatAt[c] }

// Seating returns the seat on each chair, in chair order.
func (s *State) Seating() []engine.Seat { return slices.Clone(s.seatAt) }

// CenterSlots returns the slots of the masks in the middle.
func (s *State) CenterSlots() []engine.Slot {
	var out []engine.Slot
	for i := s.Players(); i < s.Slots(); i++ {
		out = append(out, engine.Slot(i))
	}
	return out
}

// SlotOwner returns the seat in front of which slot sits, or ok=false for
// a middle card or an invalid slot.
func (s *State) SlotOwner(slot engine.Slot) (engine.Seat, bool) {
	if slot < 0 || int(slot) >= s.Players() {
		return 0, false
	}
	return s.seatAt[slot], true
}

func (s *State) validSlot(t engine.Slot) bool { return t >= 0 && int(t) < s.Slots() }

// owns reports whether slot t is the card in front of seat p.
func (s *State) owns(p engine.Seat, t engine.Slot) bool {
	o, ok := s.SlotOwner(t)
	return ok && o == p
}

// swapTarget reports whether seat p may swap its card with slot t: any
// other player's card or a middle card.
func (s *State) swapTarget(p engine.Seat, t engine.Slot) bool {
	return s.validSlot(t) && !s.owns(p, t)
}

// playerCard reports whether t is the card of a player other than p.
func (s *State) playerCard(p engine.Seat, t engine.Slot) bool {
	o, ok := s.SlotOwner(t)
	return ok && o != p
}

// Deal returns the initial face-up deal, one card per slot.
func (s *State) Deal() []engine.Card { return slices.Clone(s.deal) }

// Set returns the masks in play, sorted.
func (s *State) Set() []engine.Card { return slices.Clone(s.opts.Set) }

// InPlay reports whether mask c is in the set.
func (s *State) InPlay(c engine.Card) bool { return slices.Contains(s.opts.Set, c) }

// TurnSeat returns whose turn it is.
func (s *State) TurnSeat() engine.Seat { return s.seatAt[s.core.TurnAt] }

// MustSwap reports whether seat p, if it were p's turn now, could only
// swap: during the preparatory turns.
func (s *State) MustSwap(p engine.Seat) bool { return s.Preparatory() }

// MayClaim reports whether seat p, if it were p's turn now, could claim:
// not during the preparatory turns, and not if p's card was revealed
// during the previous turn.
func (s *State) MayClaim(p engine.Seat) bool { return !s.Preparatory() && !s.core.RevealedPrev[p] }

// GuruTarget returns the seat that must name its mask, or ok=false.
func (s *State) GuruTarget() (engine.Seat, bool) { return s.Questioned() }

// Next reports what the rules wait for.
func (s *State) Next() engine.Need { return masquerade.Need(&s.core, rules{s}) }

// seatAfter returns the seat sitting k chairs clockwise (to the left) of
// seat p.
func (s *State) seatAfter(p engine.Seat, k int) engine.Seat {
	n := len(s.opts.Players)
	return s.seatAt[((s.chairOf[p]+k)%n+n)%n]
}

// String returns a one-line public summary, for logs and test failures.
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d (%s)", s.core.TurnNo, s.opts.Players[s.TurnSeat()])
	for c := range s.seatAt {
		p := s.seatAt[c]
		fmt.Fprintf(&b, " %s=%d", s.opts.Players[p], s.core.Purse[p])
	}
	fmt.Fprintf(&b, " court=%d bank=%d", s.core.CourtCoins, s.core.BankCoins)
	if s.Over() {
		b.WriteString(" over winners=")
		for i, w := range s.core.Won {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(s.opts.Players[w])
		}
	}
	return b.String()
}
