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

// phase is where the rules are inside a turn.
type phase uint8

const (
	phaseTurn        phase = iota + 1 // the turn player acts
	phaseRespond                      // challenge window: responders challenge or pass in turn
	phaseReveal                       // waiting for the facts of the challenge reveal
	phaseUse                          // an owner must choose how to use a power
	phaseGuess                        // the Guru's target must name its mask
	phaseGuessReveal                  // waiting for the fact of the target's card
	phaseOver                         // the game is over
	// phaseSpySwap: the Spy has seen both cards (pendingSlot holds the
	// other slot) and now swaps them or not.
	phaseSpySwap
)

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

	coins []int // per seat: the purse in front of the seat's chair
	court int
	bank  int

	turn  int // 1-based turn number
	chair int // whose turn it is: the chair of the turn player
	phase phase

	revealedPrev []bool // seats whose card was revealed during the previous turn
	revealedNow  []bool // seats whose card has been revealed during this turn

	// The current claim (phases respond .. guess-reveal).
	claim       engine.Card
	contenders  []Contender // claimant first, then challengers clockwise
	responder   int         // phaseRespond: the next responder sits responder chairs left of the claimant
	queue       []Contender // owners still to use the power, in order
	pairBonus   bool        // both Peasants revealed as owners at once
	impostors   []engine.Seat
	user        Contender   // phaseUse, phaseGuess: the owner using the power
	target      engine.Seat // the Guru's target
	guess       engine.Card // the target's answer
	pendingSlot []engine.Slot

	lastRevealed []engine.Fact // the most recent reveal
	winners      []engine.Seat
}

// NewGame starts a game. deal lists the card in each slot (slot i is the
// card of seat i, then center1 and center2); it must be a permutation of
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
		opts:         o,
		deal:         slices.Clone(deal),
		seatAt:       make([]engine.Seat, n),
		chairOf:      make([]int, n),
		coins:        make([]int, n),
		bank:         BoxCoins - n*o.Coins,
		turn:         1,
		phase:        phaseTurn,
		revealedPrev: make([]bool, n),
		revealedNow:  make([]bool, n),
	}
	for i := range n {
		s.seatAt[i] = engine.Seat(i)
		s.chairOf[i] = i
		s.coins[i] = o.Coins
	}
	return s, nil
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State) clone() *State {
	c := *s
	c.seatAt = slices.Clone(s.seatAt)
	c.chairOf = slices.Clone(s.chairOf)
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

// Coins returns seat p's purse.
func (s *State) Coins(p engine.Seat) int { return s.coins[p] }

// AllCoins returns every seat's purse, in seat order.
func (s *State) AllCoins() []int { return slices.Clone(s.coins) }

// Court returns the coins on the courthouse board.
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
func (s *State) TurnSeat() engine.Seat { return s.seatAt[s.chair] }

// Preparatory reports whether the current turn is one of the four opening
// turns, in which a player may only swap or pretend to.
func (s *State) Preparatory() bool { return s.turn <= PreparatoryTurns }

// MustSwap reports whether seat p, if it were p's turn now, could only
// swap: during the preparatory turns.
func (s *State) MustSwap(p engine.Seat) bool { return s.Preparatory() }

// MayClaim reports whether seat p, if it were p's turn now, could claim:
// not during the preparatory turns, and not if p's card was revealed
// during the previous turn.
func (s *State) MayClaim(p engine.Seat) bool { return !s.Preparatory() && !s.revealedPrev[p] }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == phaseOver }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (s *State) Winners() []engine.Seat { return slices.Clone(s.winners) }

// LastRevealed returns the cards of the most recent reveal (a challenge or
// the Guru's question), in reveal order.
func (s *State) LastRevealed() []engine.Fact { return slices.Clone(s.lastRevealed) }

// Claim returns the mask claimed in the current turn, with the claimant
// and challengers so far, or ok=false if no claim is open.
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

// GuruTarget returns the seat that must name its mask, or ok=false.
func (s *State) GuruTarget() (engine.Seat, bool) {
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
		return engine.Need{Kind: engine.NeedMove, Seat: s.TurnSeat()}
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

// seatAfter returns the seat sitting k chairs clockwise (to the left) of
// seat p.
func (s *State) seatAfter(p engine.Seat, k int) engine.Seat {
	n := len(s.opts.Players)
	return s.seatAt[((s.chairOf[p]+k)%n+n)%n]
}

// String returns a one-line public summary, for logs and test failures.
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d (%s)", s.turn, s.opts.Players[s.TurnSeat()])
	for c := range s.seatAt {
		p := s.seatAt[c]
		fmt.Fprintf(&b, " %s=%d", s.opts.Players[p], s.coins[p])
	}
	fmt.Fprintf(&b, " court=%d bank=%d", s.court, s.bank)
	if s.Over() {
		b.WriteString(" over winners=")
		for i, w := range s.winners {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(s.opts.Players[w])
		}
	}
	return b.String()
}
