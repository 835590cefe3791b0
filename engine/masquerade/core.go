package masquerade

import (
	"slices"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// Numbers that are the same in every edition.
const (
	// WinCoins ends the game at once with a win.
	WinCoins = 13
	// PreparatoryTurns is the number of opening turns that may only swap.
	PreparatoryTurns = 4
	// Fine is what each impostor pays to the courthouse.
	Fine = 1
	// GuessFine is what a wrong guess pays to the questioner (the
	// Inquisitor, the Guru).
	GuessFine = 4
	// ShareCoins and SharePairCoins are what the owners of a shared power
	// (the Peasants) take from the bank: one owner alone, or each of two.
	ShareCoins     = 1
	SharePairCoins = 2
)

// Phase is where the rules are inside a turn.
type Phase uint8

// The phases of a turn, the same in every edition (the values are part of
// the state encodings).
const (
	PhaseTurn        Phase = iota + 1 // the turn player acts
	PhaseRespond                      // challenge window: responders challenge or pass in turn
	PhaseReveal                       // waiting for the facts of the challenge reveal
	PhaseUse                          // an owner must choose how to use a power
	PhaseGuess                        // the questioner's target must name its card
	PhaseGuessReveal                  // waiting for the fact of the target's card
	PhaseOver                         // the game is over
	// PhaseSpySwap: the Spy has seen both cards (Pending holds the other
	// slot) and now swaps them or not.
	PhaseSpySwap
)

// Core is the part of a game's public state that is the same in every
// edition: the coins, the turn, the claim being resolved and the end of
// the game. [State] keeps it in an unexported, named (not embedded)
// field, so that the fields are not promoted to the State, and forwards
// the read-only accessors below; an edition's power hooks reach it
// through [Work.Core].
//
// The fields are the rules' working state: only the rules packages write
// them, and only on a state they have just cloned (see [CloneCore]).
type Core struct {
	Purse      []int // per seat
	CourtCoins int   // the courthouse
	BankCoins  int   // the bank

	TurnNo int   // 1-based turn number
	TurnAt int   // the turn player's place, 0..n-1: a seat, or a chair where players move
	Phase  Phase // where the rules are

	RevealedPrev []bool // seats whose card was revealed during the previous turn
	RevealedNow  []bool // seats whose card has been revealed during this turn

	// The current claim (phases respond .. guess-reveal).
	Claimed    engine.Card
	Contenders []Contender // claimant first, then challengers clockwise
	Responder  int         // PhaseRespond: the next responder sits Responder places left of the claimant
	Queue      []Contender // owners still to use the power, in order
	PairBonus  bool        // both owners of a shared power revealed at once
	Impostors  []engine.Seat
	User       Contender     // PhaseUse, PhaseGuess, PhaseSpySwap: the owner using the power
	Target     engine.Seat   // the questioner's target
	Guess      engine.Card   // the target's answer
	Pending    []engine.Slot // reveal slots (PhaseReveal, PhaseGuessReveal), the Spy's other slot

	Revealed []engine.Fact // the most recent reveal
	Won      []engine.Seat // the winners, once over
}

// Rules is what the core asks of an edition's state while it runs the
// shared parts of a turn.
type Rules interface {
	// Players returns the number of players.
	Players() int
	// Name returns the name of seat p.
	Name(p engine.Seat) string
	// TurnSeat returns whose turn it is.
	TurnSeat() engine.Seat
	// SeatAfter returns the seat k places clockwise (to the left) of p.
	SeatAfter(p engine.Seat, k int) engine.Seat
	// Owns reports whether slot t is one of seat p's cards.
	Owns(p engine.Seat, t engine.Slot) bool
	// CardOf returns the slot of the card a questioned seat p reveals.
	CardOf(p engine.Seat) engine.Slot
	// Cards returns the game's catalogue.
	Cards() *Catalogue
	// InPlay reports whether card c is in the set.
	InPlay(c engine.Card) bool
	// PlayTurn handles the turn player's move (PhaseTurn).
	PlayTurn(m engine.Move) ([]engine.Effect, error)
	// PlayUse handles an owner's choice for the power (PhaseUse).
	PlayUse(m engine.Move) ([]engine.Effect, error)
	// Shared reports whether the claimed power pays all its owners at
	// once (the Peasants).
	Shared() bool
	// Power applies owner o's power as far as it goes without a choice,
	// and reports whether o must now choose how to use it (PhaseUse).
	Power(o Contender) (choose bool)
}

// NewCore returns the core of a new game: n purses of coins each, the
// rest of box coins in the bank, turn 1 of seat (or chair) 0.
func NewCore(n, coins, box int) Core {
	c := Core{
		Purse:        make([]int, n),
		BankCoins:    box - n*coins,
		TurnNo:       1,
		Phase:        PhaseTurn,
		RevealedPrev: make([]bool, n),
		RevealedNow:  make([]bool, n),
	}
	for i := range c.Purse {
		c.Purse[i] = coins
	}
	return c
}

// CloneCore returns a deep copy of c.
func CloneCore(c *Core) Core {
	d := *c
	d.Purse = slices.Clone(c.Purse)
	d.RevealedPrev = slices.Clone(c.RevealedPrev)
	d.RevealedNow = slices.Clone(c.RevealedNow)
	d.Contenders = slices.Clone(c.Contenders)
	d.Queue = slices.Clone(c.Queue)
	d.Impostors = slices.Clone(c.Impostors)
	d.Pending = slices.Clone(c.Pending)
	d.Revealed = slices.Clone(c.Revealed)
	d.Won = slices.Clone(c.Won)
	return d
}

// Coins returns seat p's purse.
func (c *Core) Coins(p engine.Seat) int { return c.Purse[p] }

// AllCoins returns every seat's purse, in seat order.
func (c *Core) AllCoins() []int { return slices.Clone(c.Purse) }

// Court returns the coins in the courthouse.
func (c *Core) Court() int { return c.CourtCoins }

// Bank returns the coins in the bank.
func (c *Core) Bank() int { return c.BankCoins }

// Total returns bank + purses + court, which is always the coins of the
// box.
func (c *Core) Total() int {
	t := c.BankCoins + c.CourtCoins
	for _, k := range c.Purse {
		t += k
	}
	return t
}

// Turn returns the 1-based number of the current turn.
func (c *Core) Turn() int { return c.TurnNo }

// Preparatory reports whether the current turn is one of the opening
// turns, in which a player may only swap or pretend to.
func (c *Core) Preparatory() bool { return c.TurnNo <= PreparatoryTurns }

// Over reports whether the game has ended.
func (c *Core) Over() bool { return c.Phase == PhaseOver }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (c *Core) Winners() []engine.Seat { return slices.Clone(c.Won) }

// LastRevealed returns the cards of the most recent reveal (a challenge or
// a question), in reveal order.
func (c *Core) LastRevealed() []engine.Fact { return slices.Clone(c.Revealed) }

// Claim returns the card claimed in the current turn, with the claimant
// and challengers so far, or ok=false if no claim is open.
func (c *Core) Claim() (card engine.Card, contenders []Contender, ok bool) {
	switch c.Phase {
	case PhaseRespond, PhaseReveal, PhaseUse, PhaseGuess, PhaseGuessReveal, PhaseSpySwap:
		return c.Claimed, slices.Clone(c.Contenders), true
	}
	return 0, nil, false
}

// InChallengeWindow reports whether the rules wait for a responder to
// challenge or pass.
func (c *Core) InChallengeWindow() bool { return c.Phase == PhaseRespond }

// Resolving returns the owner who must now choose how to use the power
// (phase "use"), or ok=false.
func (c *Core) Resolving() (Contender, bool) { return c.User, c.Phase == PhaseUse }

// SpyDeciding returns the Spy and the other slot it looked at when the
// Spy, having seen both cards, must now swap them or not; ok=false
// otherwise.
func (c *Core) SpyDeciding() (spy Contender, other engine.Slot, ok bool) {
	if c.Phase != PhaseSpySwap {
		return Contender{}, 0, false
	}
	return c.User, c.Pending[0], true
}

// Questioned returns the seat that must name its card, or ok=false.
func (c *Core) Questioned() (engine.Seat, bool) { return c.Target, c.Phase == PhaseGuess }

// PendingReveal returns the slots whose facts the rules wait for, in
// order, or nil.
func (c *Core) PendingReveal() []engine.Slot {
	if c.Phase == PhaseReveal || c.Phase == PhaseGuessReveal {
		return slices.Clone(c.Pending)
	}
	return nil
}

// Need reports what the rules wait for.
func Need(c *Core, r Rules) engine.Need {
	switch c.Phase {
	case PhaseTurn:
		return engine.Need{Kind: engine.NeedMove, Seat: r.TurnSeat()}
	case PhaseRespond:
		return engine.Need{Kind: engine.NeedMove, Seat: responderSeat(c, r)}
	case PhaseUse, PhaseSpySwap:
		return engine.Need{Kind: engine.NeedMove, Seat: c.User.Seat}
	case PhaseGuess:
		return engine.Need{Kind: engine.NeedMove, Seat: c.Target}
	case PhaseReveal, PhaseGuessReveal:
		return engine.Need{Kind: engine.NeedFacts}
	}
	return engine.Need{Kind: engine.NeedNothing}
}

func responderSeat(c *Core, r Rules) engine.Seat {
	return r.SeatAfter(c.Contenders[0].Seat, c.Responder)
}

// CheckMove returns the error for a move that comes when no move is due,
// from the wrong seat, or of no known kind; nil if m may be played.
func CheckMove(c *Core, m engine.Move, r Rules) error {
	if c.Phase == PhaseOver {
		return RuleErr(m.Seat, RuleGameOver, "the game is over")
	}
	need := Need(c, r)
	if need.Kind == engine.NeedFacts {
		return RuleErr(m.Seat, RuleWaitingFacts, "the cards of a reveal are due before any move")
	}
	if m.Seat != need.Seat {
		if m.Seat < 0 || int(m.Seat) >= r.Players() {
			return RuleErr(m.Seat, RuleNotYourTurn, "no such seat")
		}
		return RuleErr(m.Seat, RuleNotYourTurn, "%s must act now (%s)", r.Name(need.Seat), doing(c, r))
	}
	if m.Kind < KindSwap || m.Kind > KindGuess {
		return RuleErr(m.Seat, RuleUnknownMove, "move kind %d", m.Kind)
	}
	return nil
}

// doing describes what the seat to act must do now, for errors.
func doing(c *Core, r Rules) string {
	switch c.Phase {
	case PhaseTurn:
		return "turn"
	case PhaseRespond:
		return "challenge or pass"
	case PhaseUse:
		return "use the " + r.Cards().Name(c.Claimed)
	case PhaseGuess:
		return "name your " + r.Cards().Noun
	case PhaseSpySwap:
		return "the Spy swaps the two cards or not"
	}
	return "waiting"
}

// PlayMove plays m, already checked by [CheckMove], on a state just
// cloned: the shared phases here, the turn and the powers' choices by r.
func PlayMove(c *Core, m engine.Move, r Rules) ([]engine.Effect, error) {
	switch c.Phase {
	case PhaseTurn:
		return r.PlayTurn(m)
	case PhaseRespond:
		return Respond(c, m, r)
	case PhaseUse:
		return r.PlayUse(m)
	case PhaseGuess:
		return TakeGuess(c, m, r)
	case PhaseSpySwap:
		return SpySwap(c, m, r)
	}
	return nil, nil
}

// Result turns the result of a concrete Play or Know into the result of
// [engine.State.Apply] or [engine.State.Learn] (no typed nil state).
func Result[S engine.State](s S, eff []engine.Effect, err error) (engine.State, []engine.Effect, error) {
	if err != nil {
		return nil, nil, err
	}
	return s, eff, nil
}

// OpenClaim opens the challenge window on claimant o's claim of card k.
func OpenClaim(c *Core, k engine.Card, o Contender) {
	c.Claimed = k
	c.Contenders = []Contender{o}
	c.Responder = 1
	c.Phase = PhaseRespond
}

// Respond handles a challenge or a pass in the challenge window. Once
// everyone has answered, it resolves an unchallenged claim or asks for
// the contenders' cards to be revealed.
func Respond(c *Core, m engine.Move, r Rules) ([]engine.Effect, error) {
	switch m.Kind {
	case KindPass:
		if err := ArgCount(m, 0); err != nil {
			return nil, err
		}
	case KindChallenge:
		if err := ArgCount(m, 1); err != nil {
			return nil, err
		}
		own := engine.Slot(m.Args[0])
		if !r.Owns(m.Seat, own) {
			return nil, RuleErr(m.Seat, RuleNotYourSlot, "slot %d is not your card", m.Args[0])
		}
		c.Contenders = append(c.Contenders, Contender{Seat: m.Seat, Slot: own})
	default:
		return nil, WrongMove(m, "challenge or pass")
	}
	c.Responder++
	if c.Responder < r.Players() {
		return nil, nil
	}
	// Everyone has answered.
	if len(c.Contenders) == 1 {
		c.Queue = []Contender{c.Contenders[0]}
		Resolve(c, r)
		return nil, nil
	}
	c.Phase = PhaseReveal
	c.Pending = make([]engine.Slot, len(c.Contenders))
	for i, o := range c.Contenders {
		c.Pending[i] = o.Slot
	}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: slices.Clone(c.Pending)}}, nil
}

// CheckFacts returns the error for facts that are not the pending
// reveal's, nil if they are.
func CheckFacts(c *Core, facts []engine.Fact, r Rules) error {
	if c.Phase != PhaseReveal && c.Phase != PhaseGuessReveal {
		return RuleErr(-1, RuleNoFactsWanted, "no reveal is pending")
	}
	if len(facts) != len(c.Pending) {
		return RuleErr(-1, RuleBadFacts, "%d facts for %d revealed slots", len(facts), len(c.Pending))
	}
	for i, f := range facts {
		if f.Slot != c.Pending[i] {
			return RuleErr(-1, RuleBadFacts, "fact %d is about slot %d, expected slot %d", i, f.Slot, c.Pending[i])
		}
		if !r.InPlay(f.Card) {
			return RuleErr(-1, RuleBadFacts, "fact %d: card %d is not in play", i, f.Card)
		}
	}
	return nil
}

// TakeFacts takes the facts of the pending reveal, already checked by
// [CheckFacts]: the contenders' cards (the owners use the power, the
// impostors will pay) or the questioned seat's card (a wrong guess pays
// [GuessFine] to the questioner).
func TakeFacts(c *Core, facts []engine.Fact, r Rules) {
	c.Revealed = slices.Clone(facts)
	c.Pending = nil
	if c.Phase == PhaseReveal {
		var owners []Contender
		for i, o := range c.Contenders {
			c.RevealedNow[o.Seat] = true
			if facts[i].Card == c.Claimed {
				owners = append(owners, o)
			} else {
				c.Impostors = append(c.Impostors, o.Seat)
			}
		}
		c.Queue = owners
		c.PairBonus = r.Shared() && len(owners) == 2
		Resolve(c, r)
		return
	}
	// The question.
	c.RevealedNow[c.Target] = true
	if facts[0].Card != c.Guess {
		Transfer(&c.Purse[c.Target], &c.Purse[c.User.Seat], GuessFine)
	}
	if CheckEnd(c) {
		return
	}
	Resolve(c, r)
}

// Resolve works through the owners still to use the power, then fines the
// impostors and ends the turn. It stops early when an owner must choose
// (phase "use") or the game ends.
func Resolve(c *Core, r Rules) {
	for len(c.Queue) > 0 {
		if r.Shared() {
			// All owners are paid at once: SharePairCoins each when both
			// were revealed together, else ShareCoins.
			k := ShareCoins
			if c.PairBonus {
				k = SharePairCoins
			}
			for _, o := range c.Queue {
				Transfer(&c.BankCoins, &c.Purse[o.Seat], k)
			}
			c.Queue = nil
			if CheckEnd(c) {
				return
			}
			continue
		}
		o := c.Queue[0]
		c.Queue = c.Queue[1:]
		choose := r.Power(o)
		if CheckEnd(c) {
			return
		}
		if choose {
			c.User = o
			c.Phase = PhaseUse
			return
		}
	}
	// Impostors pay their fine after the real owner's power (the books'
	// Judge, Witch and Widow examples), all at once.
	if len(c.Impostors) > 0 {
		for _, p := range c.Impostors {
			Transfer(&c.Purse[p], &c.CourtCoins, Fine)
		}
		c.Impostors = nil
		if CheckEnd(c) {
			return
		}
	}
	EndTurn(c)
}

// Continue goes on with the resolution after an owner's choice, unless the
// choice ended the game.
func Continue(c *Core, r Rules) {
	if !CheckEnd(c) {
		Resolve(c, r)
	}
}

// OtherSeat reports whether t is a seat other than me.
func (c *Core) OtherSeat(me, t engine.Seat) bool {
	return t >= 0 && int(t) < len(c.Purse) && t != me
}

// TakeFromRichest is the choice of an owner (the Bishop, the Swindler)
// who takes k coins from one of the richest other players, Args [seat];
// who names the power in errors, rule is the rule broken by another seat.
func TakeFromRichest(c *Core, m engine.Move, k int, who, rule string) error {
	if err := ArgCount(m, 1); err != nil {
		return err
	}
	u, t := c.User, engine.Seat(m.Args[0])
	if !slices.Contains(c.Richest(u.Seat), t) {
		return RuleErr(m.Seat, rule, "the %s takes from one of the richest other players", who)
	}
	Transfer(&c.Purse[t], &c.Purse[u.Seat], k)
	return nil
}

// ExchangePurses is the choice of an owner (the Witch, the Sorceress) who
// may exchange purses with another player, Args [seat or noTarget].
func ExchangePurses(c *Core, m engine.Move, noTarget int, who string) error {
	if err := ArgCount(m, 1); err != nil {
		return err
	}
	if m.Args[0] == noTarget {
		return nil
	}
	u, t := c.User, engine.Seat(m.Args[0])
	if !c.OtherSeat(u.Seat, t) {
		return RuleErr(m.Seat, RuleBadTarget, "the %s exchanges purses with another player (or none)", who)
	}
	c.Purse[t], c.Purse[u.Seat] = c.Purse[u.Seat], c.Purse[t]
	return nil
}

// Question is the choice of the questioner (the Inquisitor, the Guru),
// Args [seat]: that other player must now name its card.
func Question(c *Core, m engine.Move, who string) error {
	if err := ArgCount(m, 1); err != nil {
		return err
	}
	t := engine.Seat(m.Args[0])
	if !c.OtherSeat(c.User.Seat, t) {
		return RuleErr(m.Seat, RuleBadTarget, "the %s chooses another player", who)
	}
	c.Target = t
	c.Phase = PhaseGuess
	return nil
}

// SpyLook is the Spy's first choice, Args [slot]: it looks at its own
// card and at slot (which ok says it may choose), then decides in
// PhaseSpySwap.
func SpyLook(c *Core, m engine.Move, ok func(engine.Slot) bool, what string) ([]engine.Effect, error) {
	if err := ArgCount(m, 1); err != nil {
		return nil, err
	}
	u, t := c.User, engine.Slot(m.Args[0])
	if !ok(t) {
		return nil, RuleErr(m.Seat, RuleBadTarget, "the Spy %s", what)
	}
	// The Spy looks first and decides after (a second move), so the swap
	// can depend on what it saw.
	c.Pending = []engine.Slot{t}
	c.Phase = PhaseSpySwap
	return []engine.Effect{
		{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{u.Slot}},
		{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{t}},
	}, nil
}

// SpySwap takes the Spy's decision: a hidden swap (or not) of its card and
// the card it looked at.
func SpySwap(c *Core, m engine.Move, r Rules) ([]engine.Effect, error) {
	if m.Kind != KindUse {
		return nil, WrongMove(m, "swap the two cards or not")
	}
	if err := ArgCount(m, 0); err != nil {
		return nil, err
	}
	u, t := c.User, c.Pending[0]
	c.Pending = nil
	c.Phase = PhaseUse
	eff := []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{u.Slot, t}}}
	Continue(c, r)
	return eff, nil
}

// TakeGuess takes the questioned seat's answer and reveals its card.
func TakeGuess(c *Core, m engine.Move, r Rules) ([]engine.Effect, error) {
	if m.Kind != KindGuess {
		return nil, WrongMove(m, "name your "+r.Cards().Noun)
	}
	if err := ArgCount(m, 1); err != nil {
		return nil, err
	}
	k := engine.Card(m.Args[0])
	if !r.Cards().Valid(k) || !r.InPlay(k) {
		return nil, RuleErr(m.Seat, RuleNotInPlay, "%s is not in play", r.Cards().Name(k))
	}
	c.Guess = k
	c.Phase = PhaseGuessReveal
	c.Pending = []engine.Slot{r.CardOf(c.Target)}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: []engine.Slot{c.Pending[0]}}}, nil
}

// EndTurn passes the turn to the next place clockwise and rolls the
// "revealed during the previous turn" memory.
func EndTurn(c *Core) {
	c.RevealedPrev, c.RevealedNow = c.RevealedNow, c.RevealedPrev
	clear(c.RevealedNow)
	c.TurnNo++
	c.TurnAt = (c.TurnAt + 1) % len(c.Purse)
	c.Phase = PhaseTurn
	ClearClaim(c)
}

// ClearClaim forgets the current claim.
func ClearClaim(c *Core) {
	c.Claimed = 0
	c.Contenders = nil
	c.Responder = 0
	c.Queue = nil
	c.PairBonus = false
	c.Impostors = nil
	c.User = Contender{}
	c.Target = 0
	c.Guess = 0
	c.Pending = nil
}

// CheckEnd ends the game if someone has [WinCoins] (they win; several if
// they got there at once) or someone has none (the richest win). It
// reports whether the game is over.
func CheckEnd(c *Core) bool {
	if c.Phase == PhaseOver {
		return true
	}
	win, over := Ending(c.Purse, WinCoins)
	if !over {
		return false
	}
	Finish(c, win)
	return true
}

// Finish ends the game with the given winners.
func Finish(c *Core, win []engine.Seat) {
	ClearClaim(c)
	c.Phase = PhaseOver
	c.Won = win
}

// Richest returns the seats with the most coins, leaving out seat except,
// in seat order.
func (c *Core) Richest(except engine.Seat) []engine.Seat { return Richest(c.Purse, except) }

// AppendCore appends the canonical encoding of the core, in this order
// (integers big-endian, lists with a u8 count):
//
//	coins: u8 count, u16 per seat; u16 court; u16 bank
//	u32 turn; u8 turn place; u8 phase
//	revealed previous / this turn: u8 count, u8 (0/1) per seat
//	u8 claim; contenders: u8 count, (u8 seat, u8 slot) each
//	u8 responder; queue: like contenders; u8 pair bonus
//	impostors: u8 count, u8 each; user (u8 seat, u8 slot); u8 target; u8 guess
//	pending slots: u8 count, u8 each
//	last revealed: u8 count, (u8 slot, u8 card) each
//	winners: u8 count, u8 each
func AppendCore(c *Core, b *cryptobyte.Builder) {
	b.AddUint8(uint8(len(c.Purse)))
	for _, k := range c.Purse {
		b.AddUint16(uint16(k))
	}
	b.AddUint16(uint16(c.CourtCoins))
	b.AddUint16(uint16(c.BankCoins))
	b.AddUint32(uint32(c.TurnNo))
	b.AddUint8(uint8(c.TurnAt))
	b.AddUint8(uint8(c.Phase))
	AddBools(b, c.RevealedPrev)
	AddBools(b, c.RevealedNow)
	b.AddUint8(uint8(c.Claimed))
	AddContenders(b, c.Contenders)
	b.AddUint8(uint8(c.Responder))
	AddContenders(b, c.Queue)
	AddBools(b, []bool{c.PairBonus})
	AddU8s(b, c.Impostors)
	AddContenders(b, []Contender{c.User})
	b.AddUint8(uint8(c.Target))
	b.AddUint8(uint8(c.Guess))
	AddU8s(b, c.Pending)
	AddFacts(b, c.Revealed)
	AddU8s(b, c.Won)
}
