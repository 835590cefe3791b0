package mascarade

import (
	"fmt"

	"github.com/masque-games/masque/engine"
)

// Stable rule identifiers of the [engine.RuleError] values returned by
// [State.Apply] and [State.Learn].
const (
	RuleGameOver      = "game-over"         // the game has ended
	RuleWaitingFacts  = "waiting-for-facts" // a reveal's facts are due, not a move
	RuleNotYourTurn   = "not-your-turn"     // another seat must act
	RuleWrongMove     = "wrong-move"        // this kind of move is not allowed now
	RuleBadArgs       = "bad-args"          // wrong number or range of arguments
	RuleNotYourSlot   = "not-your-slot"     // the own slot is not the mover's (or is the guard when claiming)
	RuleBadTarget     = "bad-target"        // the target slot or seat is not allowed
	RulePreparatory   = "preparatory-swap"  // turns 1-4 may only swap
	RuleRevealedSwap  = "revealed-must-swap"
	RuleNotInPlay     = "not-in-play"        // the character is not in the set
	RuleNotRichest    = "bishop-not-richest" // the Bishop must take from a richest player
	RuleNoFactsWanted = "no-facts-wanted"    // facts arrived when none were due
	RuleBadFacts      = "bad-facts"          // facts do not match the reveal
	RuleUnknownMove   = "unknown-move"       // no such move kind
)

func ruleErr(seat engine.Seat, rule, format string, args ...any) *engine.RuleError {
	return &engine.RuleError{Seat: seat, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
