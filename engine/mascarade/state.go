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

// phase is where the rules are inside a turn.
type phase uint8

const (
	phaseTurn        phase = iota + 1 // the turn player acts
	phaseRespond                      // challenge window: responders challenge or pass in turn
	phaseReveal                       // waiting for the facts of the challenge reveal
	phaseUse                          // an owner must choose how to use a power
	phaseGuess                        // the Inquisitor's target must guess
	phaseGuessReveal                  // waiting for the fact of the target's card
	phaseOver                         // the game is over
	// phaseSpySwap: the Spy has seen both cards (pendingSlot holds the
	// other slot) and now swaps them or not. Appended last so the other
	// phases keep their encodings.
	phaseSpySwap
)

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

	coins []int
	court int
	bank  int

	turn  int         // 1-based turn number
	seat  engine.Seat // whose turn it is
	phase phase

	revealedPrev []bool // seats whose card was revealed during the previous turn
	revealedNow  []bool // seats whose card has been revealed during this turn

	// The current claim (phases respond .. guess-reveal).
	claim       engine.Card
	contenders  []Contender // claimant first, then challengers clockwise
	responder   int         // phaseRespond: the next responder is seat+responder
	queue       []Contender // owners still to use the power, in order
	pairBonus   bool        // both Peasants revealed as owners at once
	impostors   []engine.Seat
	user        Contender   // phaseUse, phaseGuess: the owner using the power
	target      engine.Seat // the Inquisitor's target
	guess       engine.Card // the target's guess
	pendingSlot []engine.Slot

	lastRevealed []engine.Fact // the most recent reveal
	winners      []engine.Seat
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
		opts:         o,
		layout:       l,
		deal:         slices.Clone(deal),
		coins:        make([]int, n),
		bank:         BoxCoins - n*o.Coins,
		turn:         1,
		phase:        phaseTurn,
		revealedPrev: make([]bool, n),
		revealedNow:  make([]bool, n),
	}
	for i := range s.coins {
		s.coins[i] = o.Coins
	}
	return s, nil
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State) clone() *State {
	c := *s
	c.coins = slices.Clone(s.coins)
	c.revealedPrev = slices.Clone(s.revealedPrev)
	c.revealedNow = slices.Clone(s.revealedNow)
	c.contenders = slices.Clone(s.contenders)
	c.queue = slices.Clone(s.queue)
	c.impostors = slices.Clone(s.impostors)
	c.pendingSlot = slices.Clone(s.pendingSlot)
	c.lastRevealed = slices.Clone(s.lastRevealed)
	c.winners = slices.Clone(s.winners)
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

// Coins returns seat p's purse.
func (s *State) Coins(p engine.Seat) int { return s.coins[p] }

// AllCoins returns every seat's purse, in seat order.
func (s *State) AllCoins() []int { return slices.Clone(s.coins) }

// Court returns the coins in the courthouse.
func (s *State) Court() int { return s.court }

// Bank returns the coins in the bank.
func (s *State) Bank() int { return s.bank }

// Total returns bank + purses + court, which is always [BoxCoins].
func (s *State) Total() int {
	t := s.bank + s.court
	for _, c := range s.coins {
		t += c
	}
	return t
}

// Turn returns the 1-based number of the current turn.
func (s *State) Turn() int { return s.turn }

// TurnSeat returns whose turn it is.
func (s *State) TurnSeat() engine.Seat { return s.seat }

// Preparatory reports whether the current turn is one of the four opening
// turns, in which a player may only swap or pretend to.
func (s *State) Preparatory() bool { return s.turn <= PreparatoryTurns }

// MustSwap reports whether seat p, if it were p's turn now, could only
// swap: during the preparatory turns, or because p's card was revealed
// during the previous turn.
func (s *State) MustSwap(p engine.Seat) bool {
	return s.Preparatory() || s.revealedPrev[p]
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == phaseOver }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (s *State) Winners() []engine.Seat { return slices.Clone(s.winners) }

// LastRevealed returns the cards of the most recent reveal (a challenge or
// the Inquisitor's question), in reveal order.
func (s *State) LastRevealed() []engine.Fact { return slices.Clone(s.lastRevealed) }

// Claim returns the character claimed in the current turn, with the
// claimant and challengers so far, or ok=false if no claim is open.
func (s *State) Claim() (c engine.Card, contenders []Contender, ok bool) {
	switch s.phase {
	case phaseRespond, phaseReveal, phaseUse, phaseGuess, phaseGuessReveal, phaseSpySwap:
		return s.claim, slices.Clone(s.contenders), true
	}
	return 0, nil, false
}

// InChallengeWindow reports whether the rules wait for a responder to
// challenge or pass.
func (s *State) InChallengeWindow() bool { return s.phase == phaseRespond }

// Resolving returns the owner who must now choose how to use the power
// (phase "use"), or ok=false.
func (s *State) Resolving() (Contender, bool) {
	return s.user, s.phase == phaseUse
}

// SpyDeciding returns the Spy and the other slot it looked at when the
// Spy, having seen both cards, must now swap them or not; ok=false
// otherwise.
func (s *State) SpyDeciding() (spy Contender, other engine.Slot, ok bool) {
	if s.phase != phaseSpySwap {
		return Contender{}, 0, false
	}
	return s.user, s.pendingSlot[0], true
}

// InquisitorTarget returns the seat that must guess its character, or
// ok=false.
func (s *State) InquisitorTarget() (engine.Seat, bool) {
	return s.target, s.phase == phaseGuess
}

// PendingReveal returns the slots whose facts the rules wait for, in
// order, or nil.
func (s *State) PendingReveal() []engine.Slot {
	if s.phase == phaseReveal || s.phase == phaseGuessReveal {
		return slices.Clone(s.pendingSlot)
	}
	return nil
}

// Next reports what the rules wait for.
func (s *State) Next() engine.Need {
	switch s.phase {
	case phaseTurn:
		return engine.Need{Kind: engine.NeedMove, Seat: s.seat}
	case phaseRespond:
		return engine.Need{Kind: engine.NeedMove, Seat: s.responderSeat()}
	case phaseUse, phaseSpySwap:
		return engine.Need{Kind: engine.NeedMove, Seat: s.user.Seat}
	case phaseGuess:
		return engine.Need{Kind: engine.NeedMove, Seat: s.target}
	case phaseReveal, phaseGuessReveal:
		return engine.Need{Kind: engine.NeedFacts}
	}
	return engine.Need{Kind: engine.NeedNothing}
}

func (s *State) responderSeat() engine.Seat {
	return s.seatAfter(s.contenders[0].Seat, s.responder)
}

// seatAfter returns the seat k places clockwise (to the left) of p.
func (s *State) seatAfter(p engine.Seat, k int) engine.Seat {
	n := len(s.opts.Players)
	return engine.Seat(((int(p)+k)%n + n) % n)
}

// String returns a one-line public summary, for logs and test failures.
func (s *State) String() string {
	out := fmt.Sprintf("turn %d (%s)", s.turn, s.opts.Players[s.seat])
	for i, p := range s.opts.Players {
		out += fmt.Sprintf(" %s=%d", p, s.coins[i])
	}
	out += fmt.Sprintf(" court=%d bank=%d", s.court, s.bank)
	if s.Over() {
		out += " over winners="
		for i, w := range s.winners {
			if i > 0 {
				out += ","
			}
			out += s.opts.Players[w]
		}
	}
	return out
}
