package masquerade

import (
	"encoding"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// State is the public rules state of one game of an edition of
// Mascarade (E names it, O is its options type). It implements
// [engine.State]; values are immutable: every method that changes the
// game returns a new *State.
//
// The table: the players sit on chairs numbered clockwise (at the start
// seat i on chair i; only a power like the Puppeteer's moves them); chair
// c holds slots c*per .. c*per+per-1, per = 1 but in the 1st edition's 2-
// and 3-player variants (3 and 2 cards each: left, right, guard), then
// come the centre cards.
type State[O encoding.BinaryMarshaler, E Of[O]] struct {
	opts O // normalized and valid
	// optsEnc is the options' encoding, made once by NewState: the state
	// hash encodes the state at every entry, and the options never
	// change. Shared by the clones, never modified.
	optsEnc []byte
	board
}

// board is the part of a state its methods share with the edition's hooks
// ([Work]): everything but the options value.
type board struct {
	ed    *Spec
	names []string      // per seat
	set   []engine.Card // sorted
	per   int           // cards per player
	// center is the number of centre slots.
	center  int
	deal    []engine.Card // the initial face-up deal, one card per slot
	seatAt  []engine.Seat // chair -> seat
	chairOf []int         // seat -> chair (the inverse of seatAt)

	// The purses (per seat: the purse in front of the seat's chair), the
	// turn (its place is the turn player's chair), claim and winners.
	core Core
}

// edition returns the edition E names.
func edition[O encoding.BinaryMarshaler, E Of[O]]() *Edition[O] {
	var e E
	return e.Edition()
}

// NewState starts a game of the edition E names. deal lists the card in
// each slot; it must be a permutation of the set. The deal is face up, so
// it is public.
func NewState[O encoding.BinaryMarshaler, E Of[O]](opts O, deal []engine.Card) (*State[O, E], error) {
	ed := edition[O, E]()
	o := ed.Normalize(opts)
	if err := ed.Validate(o); err != nil {
		return nil, fmt.Errorf("%s: new game: %w", ed.Game, err)
	}
	names, set, coins, center := ed.Parts(o)
	n := len(names)
	per := 1
	if ed.Variants && n <= 3 {
		per, center = 5-n, 0 // 2 players: 3 cards each; 3 players: 2
	}
	if len(deal) != n*per+center {
		return nil, fmt.Errorf("%s: new game: deal has %d cards, the table has %d slots", ed.Game, len(deal), n*per+center)
	}
	sorted := slices.Clone(deal)
	slices.Sort(sorted)
	if !slices.Equal(sorted, set) {
		return nil, fmt.Errorf("%s: new game: deal %s is not a permutation of the set %s", ed.Game, ed.Cards.Format(deal), ed.Cards.Format(set))
	}
	s := &State[O, E]{opts: o, optsEnc: ed.Append(o, nil), board: board{
		ed:      &ed.Spec,
		names:   names,
		set:     set,
		per:     per,
		center:  center,
		deal:    slices.Clone(deal),
		seatAt:  make([]engine.Seat, n),
		chairOf: make([]int, n),
		core:    NewCore(n, coins, ed.BoxCoins),
	}}
	for i := range n {
		s.seatAt[i] = engine.Seat(i)
		s.chairOf[i] = i
	}
	return s, nil
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State[O, E]) clone() *State[O, E] {
	c := *s
	c.seatAt = slices.Clone(s.seatAt)
	c.chairOf = slices.Clone(s.chairOf)
	c.core = CloneCore(&s.core)
	return &c
}

// Options returns the (normalized) options of the game.
func (s *State[O, E]) Options() O { return edition[O, E]().Normalize(s.opts) }

// Players returns the number of players.
func (t *board) Players() int { return len(t.names) }

// Name returns the name of seat p.
func (t *board) Name(p engine.Seat) string { return t.names[p] }

// Slots returns the number of slots on the table (players' cards and
// centre cards).
func (t *board) Slots() int { return len(t.names)*t.per + t.center }

// slotOf returns the slot of seat p's card at position pos.
func (t *board) slotOf(p engine.Seat, pos int) engine.Slot {
	return engine.Slot(t.chairOf[p]*t.per + pos)
}

// SlotOf returns the slot of the card in front of seat p (its first card
// in the 1st edition's variants).
func (t *board) SlotOf(p engine.Seat) engine.Slot { return t.slotOf(p, 0) }

// SlotsOf returns the slots in front of seat p (left, right, guard order).
func (t *board) SlotsOf(p engine.Seat) []engine.Slot {
	out := make([]engine.Slot, t.per)
	for i := range out {
		out[i] = t.slotOf(p, i)
	}
	return out
}

// ChairOf returns the chair (0..n-1, clockwise) seat p sits on.
func (t *board) ChairOf(p engine.Seat) int { return t.chairOf[p] }

// SeatAt returns the seat sitting on chair c.
func (t *board) SeatAt(c int) engine.Seat { return t.seatAt[c] }

// Seating returns the seat on each chair, in chair order.
func (t *board) Seating() []engine.Seat { return slices.Clone(t.seatAt) }

// CenterSlots returns the centre slots.
func (t *board) CenterSlots() []engine.Slot {
	var out []engine.Slot
	for i := len(t.names) * t.per; i < t.Slots(); i++ {
		out = append(out, engine.Slot(i))
	}
	return out
}

// owner returns the seat in front of which slot sl sits and its position
// there, or ok=false for a centre or invalid slot.
func (t *board) owner(sl engine.Slot) (p engine.Seat, pos int, ok bool) {
	if sl < 0 || int(sl) >= len(t.names)*t.per {
		return 0, 0, false
	}
	return t.seatAt[int(sl)/t.per], int(sl) % t.per, true
}

// SlotOwner returns the seat in front of which slot sits, or ok=false for
// a centre card or an invalid slot.
func (t *board) SlotOwner(slot engine.Slot) (engine.Seat, bool) {
	p, _, ok := t.owner(slot)
	return p, ok
}

// IsGuard reports whether slot is a guard (protected) card of the 1st
// edition's 2-player variant.
func (t *board) IsGuard(slot engine.Slot) bool {
	_, pos, ok := t.owner(slot)
	return ok && t.per == 3 && pos == guardPos
}

// guardPos is the guard's position in front of a player.
const guardPos = 2

func (t *board) validSlot(sl engine.Slot) bool { return sl >= 0 && int(sl) < t.Slots() }

// owns reports whether slot sl is one of seat p's cards.
func (t *board) owns(p engine.Seat, sl engine.Slot) bool {
	o, _, ok := t.owner(sl)
	return ok && o == p
}

// claimable reports whether seat p may claim (or challenge) with slot sl:
// its own card, never the guard.
func (t *board) claimable(p engine.Seat, sl engine.Slot) bool {
	return t.owns(p, sl) && !t.IsGuard(sl)
}

// swapTarget reports whether seat p may swap one of its cards with slot
// sl: any slot not its own, but never another player's guard.
func (t *board) swapTarget(p engine.Seat, sl engine.Slot) bool {
	return t.validSlot(sl) && !t.owns(p, sl) && !t.IsGuard(sl)
}

// ownPair reports whether seat p may swap its own cards a and b with each
// other: in the 1st edition's 3- and 2-player games (the Polish book: "z
// drugą swoją kartą"; with 2 players "z inną swoją kartą (nawet
// chronioną)"), docs/rules-mascarade.md #26-27.
func (t *board) ownPair(p engine.Seat, a, b engine.Slot) bool {
	return t.per > 1 && a != b && t.owns(p, a) && t.owns(p, b)
}

// spyTarget reports whether the Spy at seat p may look at slot sl.
func (t *board) spyTarget(p engine.Seat, sl engine.Slot) bool {
	if t.ed.SpyCentre {
		return t.swapTarget(p, sl)
	}
	o, ok := t.SlotOwner(sl)
	return ok && o != p
}

// foolPair reports whether the Fool at seat p may swap slots a and b: two
// distinct player cards, neither the Fool's nor a guard, and of two
// different players whenever the Fool has two or more opponents.
func (t *board) foolPair(p engine.Seat, a, b engine.Slot) bool {
	if a == b || t.IsGuard(a) || t.IsGuard(b) {
		return false
	}
	oa, _, okA := t.owner(a)
	ob, _, okB := t.owner(b)
	if !okA || !okB || oa == p || ob == p {
		return false
	}
	return oa != ob || len(t.names) == 2
}

// Deal returns the initial face-up deal, one card per slot.
func (t *board) Deal() []engine.Card { return slices.Clone(t.deal) }

// Set returns the cards in play, sorted.
func (t *board) Set() []engine.Card { return slices.Clone(t.set) }

// InPlay reports whether card c is in the set.
func (t *board) InPlay(c engine.Card) bool { return slices.Contains(t.set, c) }

// TurnSeat returns whose turn it is.
func (t *board) TurnSeat() engine.Seat { return t.seatAt[t.core.TurnAt] }

// MustSwap reports whether seat p, if it were p's turn now, could only
// swap: during the preparatory turns, or (in the 1st edition) because p's
// card was revealed during the previous turn.
func (t *board) MustSwap(p engine.Seat) bool {
	return t.core.Preparatory() || (t.ed.RevealedMustSwap && t.core.RevealedPrev[p])
}

// MayClaim reports whether seat p, if it were p's turn now, could claim:
// not during the preparatory turns, and not if p's card was revealed
// during the previous turn.
func (t *board) MayClaim(p engine.Seat) bool {
	return !t.core.Preparatory() && !t.core.RevealedPrev[p]
}

// Next reports what the rules wait for.
func (t *board) Next() engine.Need { return Need(&t.core, rules{t}) }

// seatAfter returns the seat sitting k chairs clockwise (to the left) of
// seat p.
func (t *board) seatAfter(p engine.Seat, k int) engine.Seat {
	n := len(t.names)
	return t.seatAt[((t.chairOf[p]+k)%n+n)%n]
}

// String returns a one-line public summary, for logs and test failures.
func (t *board) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d (%s)", t.core.TurnNo, t.names[t.TurnSeat()])
	for _, p := range t.seatAt {
		fmt.Fprintf(&b, " %s=%d", t.names[p], t.core.Purse[p])
	}
	fmt.Fprintf(&b, " court=%d bank=%d", t.core.CourtCoins, t.core.BankCoins)
	if t.core.Over() {
		b.WriteString(" over winners=")
		for i, w := range t.core.Won {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(t.names[w])
		}
	}
	return b.String()
}

// stateVersion tags the state encoding.
const stateVersion = 1

// AppendBinary implements [engine.State]: it appends the canonical
// encoding of the whole public state, used for the state hash after every
// entry. Every field that can influence a later move is encoded, in a
// fixed order; integers are big-endian, lists carry a u8 count. The
// encoding is deterministic and depends only on the state's value.
//
//	u8 version (1), u16-prefixed options (see the edition's
//	Options.MarshalBinary)
//	deal: u8 count, u8 per card
//	seating, where players may change chairs (the 2nd edition): u8
//	count, u8 seat per chair
//	the core (see [AppendCore]), whose turn place is the turn chair
func (s *State[O, E]) AppendBinary(dst []byte) ([]byte, error) {
	b := cryptobyte.NewBuilder(dst)
	b.AddUint8(stateVersion)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.optsEnc) })
	AddU8s(b, s.deal)
	if s.ed.Chairs {
		AddU8s(b, s.seatAt)
	}
	AppendCore(&s.core, b)
	return b.Bytes()
}

// The public accessors of the core: State keeps its core in an
// unexported field, so that the core's fields (the rules' working state)
// cannot be reached, let alone written, from other packages. Those
// returning slices return copies.

// Coins returns seat p's purse.
func (t *board) Coins(p engine.Seat) int { return t.core.Coins(p) }

// AllCoins returns every seat's purse, in seat order.
func (t *board) AllCoins() []int { return t.core.AllCoins() }

// Court returns the coins in the courthouse.
func (t *board) Court() int { return t.core.Court() }

// Bank returns the coins in the bank.
func (t *board) Bank() int { return t.core.Bank() }

// Total returns bank + purses + court, which is always the coins of the
// box.
func (t *board) Total() int { return t.core.Total() }

// Turn returns the 1-based number of the current turn.
func (t *board) Turn() int { return t.core.Turn() }

// Preparatory reports whether the current turn is one of the opening
// turns, in which a player may only swap or pretend to.
func (t *board) Preparatory() bool { return t.core.Preparatory() }

// Over reports whether the game has ended.
func (t *board) Over() bool { return t.core.Over() }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (t *board) Winners() []engine.Seat { return t.core.Winners() }

// LastRevealed returns the cards of the most recent reveal (a challenge or
// a question), in reveal order.
func (t *board) LastRevealed() []engine.Fact { return t.core.LastRevealed() }

// Claim returns the card claimed in the current turn, with the claimant
// and challengers so far, or ok=false if no claim is open.
func (t *board) Claim() (card engine.Card, contenders []Contender, ok bool) {
	return t.core.Claim()
}

// InChallengeWindow reports whether the rules wait for a responder to
// challenge or pass.
func (t *board) InChallengeWindow() bool { return t.core.InChallengeWindow() }

// Resolving returns the owner who must now choose how to use the power
// (phase "use"), or ok=false.
func (t *board) Resolving() (Contender, bool) { return t.core.Resolving() }

// SpyDeciding returns the Spy and the other slot it looked at when the
// Spy, having seen both cards, must now swap them or not; ok=false
// otherwise.
func (t *board) SpyDeciding() (spy Contender, other engine.Slot, ok bool) {
	return t.core.SpyDeciding()
}

// Questioned returns the seat that must name its card (to the
// Inquisitor, the Guru), or ok=false.
func (t *board) Questioned() (engine.Seat, bool) { return t.core.Questioned() }

// PendingReveal returns the slots whose facts the rules wait for, in
// order, or nil.
func (t *board) PendingReveal() []engine.Slot { return t.core.PendingReveal() }

// OtherSeat reports whether t is a seat other than me.
func (t *board) OtherSeat(me, other engine.Seat) bool { return t.core.OtherSeat(me, other) }

// Richest returns the seats with the most coins, leaving out seat except,
// in seat order.
func (t *board) Richest(except engine.Seat) []engine.Seat { return t.core.Richest(except) }
