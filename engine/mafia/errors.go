package mafia

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Stable rule identifiers of the [engine.RuleError] values returned by
// [State.Apply] and [State.Learn].
const (
	RuleGameOver      = "game-over"       // the game has ended
	RuleWaitingFacts  = "waiting-facts"   // a tally, a coin or a reveal is due, not a move
	RuleNoSeat        = "no-seat"         // no such seat
	RuleDead          = "dead"            // the seat is out of the game and acts no more
	RuleNotYourTurn   = "not-your-turn"   // another seat must act
	RuleWrongMove     = "wrong-move"      // this kind of move is not allowed now
	RuleBadArgs       = "bad-args"        // wrong number or range of arguments
	RuleBadTarget     = "bad-target"      // the seat named may not be named (itself, dead, no such seat)
	RuleNotInHand     = "not-in-hand"     // the slot is not one of the seat's incident cards
	RuleWrongCard     = "wrong-card"      // this incident card does not answer what happens now
	RuleNoFactsWanted = "no-facts-wanted" // facts arrived when none were due
	RuleBadFacts      = "bad-facts"       // facts do not match what was asked
)

func ruleErr(seat engine.Seat, rule, format string, args ...any) *engine.RuleError {
	return &engine.RuleError{Seat: seat, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

func factsErr(format string, args ...any) *engine.RuleError {
	return ruleErr(NoSeat, RuleBadFacts, format, args...)
}

func errNoPlayer(name string) error { return fmt.Errorf("no player named %q", name) }

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
