package mascarade2

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
	RuleNotYourSlot   = "not-your-slot"     // the own slot is not the mover's card
	RuleBadTarget     = "bad-target"        // the target slot or seat is not allowed
	RulePreparatory   = "preparatory-swap"  // turns 1-4 may only swap
	RuleRevealedClaim = "revealed-no-claim" // revealed during the previous turn: no claim this turn
	RuleNotInPlay     = "not-in-play"       // the mask is not in the scenario
	RuleNotRichest    = "swindler-not-richest"
	RuleNoFactsWanted = "no-facts-wanted" // facts arrived when none were due
	RuleBadFacts      = "bad-facts"       // facts do not match the reveal
	RuleUnknownMove   = "unknown-move"    // no such move kind
)

func ruleErr(seat engine.Seat, rule, format string, args ...any) *engine.RuleError {
	return &engine.RuleError{Seat: seat, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
