package mascarade

import (
	"github.com/masque-games/masque/engine/masquerade"
)

// Stable rule identifiers of the [engine.RuleError] values returned by
// [State.Apply] and [State.Learn].
const (
	RuleGameOver      = masquerade.RuleGameOver      // the game has ended
	RuleWaitingFacts  = masquerade.RuleWaitingFacts  // a reveal's facts are due, not a move
	RuleNotYourTurn   = masquerade.RuleNotYourTurn   // another seat must act
	RuleWrongMove     = masquerade.RuleWrongMove     // this kind of move is not allowed now
	RuleBadArgs       = masquerade.RuleBadArgs       // wrong number or range of arguments
	RuleNotYourSlot   = masquerade.RuleNotYourSlot   // the own slot is not the mover's (or is the guard when claiming)
	RuleBadTarget     = masquerade.RuleBadTarget     // the target slot or seat is not allowed
	RulePreparatory   = masquerade.RulePreparatory   // turns 1-4 may only swap
	RuleRevealedSwap  = "revealed-must-swap"         // revealed during the previous turn: swap this turn
	RuleNotInPlay     = masquerade.RuleNotInPlay     // the character is not in the set
	RuleNotRichest    = "bishop-not-richest"         // the Bishop must take from a richest player
	RuleNoFactsWanted = masquerade.RuleNoFactsWanted // facts arrived when none were due
	RuleBadFacts      = masquerade.RuleBadFacts      // facts do not match the reveal
	RuleUnknownMove   = masquerade.RuleUnknownMove   // no such move kind
)
