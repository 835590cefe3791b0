package masquerade

import (
	"fmt"

	"github.com/masque-games/masque/engine"
)

// Move kinds, the same in every edition. Each game documents the Args of
// each kind.
const (
	KindSwap      uint8 = 1 // swap your card with another (or pretend to)
	KindPeek      uint8 = 2 // look at your own card
	KindClaim     uint8 = 3 // announce a card
	KindChallenge uint8 = 4 // counter-claim in the challenge window
	KindPass      uint8 = 5 // let a claim go by
	KindUse       uint8 = 6 // choose how to use a power
	KindGuess     uint8 = 7 // name your card when questioned
)

// kindNames are the script verbs, indexed by move kind.
var kindNames = [...]string{
	KindSwap: "swap", KindPeek: "peek", KindClaim: "claim", KindChallenge: "challenge",
	KindPass: "pass", KindUse: "use", KindGuess: "guess",
}

// KindName returns the script verb of a move kind ("kind(N)" if unknown).
func KindName(k uint8) string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Contender is a player taking part in a claim: the claimant (first) or a
// challenger, with the card they put forward.
type Contender struct {
	Seat engine.Seat
	Slot engine.Slot
}

// Stable rule identifiers of the [engine.RuleError] values both games
// return; each game adds its own.
const (
	RuleGameOver      = "game-over"         // the game has ended
	RuleWaitingFacts  = "waiting-for-facts" // a reveal's facts are due, not a move
	RuleNotYourTurn   = "not-your-turn"     // another seat must act
	RuleWrongMove     = "wrong-move"        // this kind of move is not allowed now
	RuleBadArgs       = "bad-args"          // wrong number or range of arguments
	RuleNotYourSlot   = "not-your-slot"     // the own slot is not the mover's
	RuleBadTarget     = "bad-target"        // the target slot or seat is not allowed
	RulePreparatory   = "preparatory-swap"  // the opening turns may only swap
	RuleNotInPlay     = "not-in-play"       // the card is not in the set
	RuleNoFactsWanted = "no-facts-wanted"   // facts arrived when none were due
	RuleBadFacts      = "bad-facts"         // facts do not match the reveal
	RuleUnknownMove   = "unknown-move"      // no such move kind
)

// RuleErr returns an [engine.RuleError] for seat with a formatted message.
func RuleErr(seat engine.Seat, rule, format string, args ...any) *engine.RuleError {
	return &engine.RuleError{Seat: seat, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// WrongMove is the [RuleWrongMove] error for m, saying what is allowed.
func WrongMove(m engine.Move, what string) error {
	return RuleErr(m.Seat, RuleWrongMove, "%s move not allowed now: %s", KindName(m.Kind), what)
}

// ArgCount returns a [RuleBadArgs] error unless m has exactly n arguments.
func ArgCount(m engine.Move, n int) error {
	if len(m.Args) != n {
		return RuleErr(m.Seat, RuleBadArgs, "%s takes %d arguments, got %d", KindName(m.Kind), n, len(m.Args))
	}
	return nil
}

// Transfer moves up to k coins from *from to *to: who must pay more than
// they have pays all they have.
func Transfer(from, to *int, k int) {
	k = min(k, *from)
	*from -= k
	*to += k
}

// Richest returns the seats with the most coins, leaving out seat except,
// in seat order.
func Richest(coins []int, except engine.Seat) []engine.Seat {
	best := -1
	var out []engine.Seat
	for i, c := range coins {
		switch {
		case engine.Seat(i) == except:
		case c > best:
			best, out = c, []engine.Seat{engine.Seat(i)}
		case c == best:
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// Ending reports whether the purses end the game and who wins: everyone
// with at least win coins (several if they got there at once), or else,
// when someone has no coin left, the richest.
func Ending(coins []int, win int) ([]engine.Seat, bool) {
	var winners []engine.Seat
	for i, c := range coins {
		if c >= win {
			winners = append(winners, engine.Seat(i))
		}
	}
	if len(winners) > 0 {
		return winners, true
	}
	for _, c := range coins {
		if c == 0 {
			return Richest(coins, -1), true
		}
	}
	return nil, false
}
