package grimm

import (
	"fmt"

	"github.com/masque-games/masque/engine"
)

// Stable rule identifiers of the [engine.RuleError] values returned by
// [State.Apply] and [State.Learn].
const (
	RuleGameOver      = "game-over"          // the game has ended
	RuleWaitingFacts  = "waiting-facts"      // a reveal's facts or a coin are due, not a move
	RuleNotYourTurn   = "not-your-turn"      // another seat must act
	RuleWrongMove     = "wrong-move"         // this kind of move is not allowed now
	RuleBadArgs       = "bad-args"           // wrong number or range of arguments
	RuleUnknownMove   = "unknown-move"       // no such move kind
	RuleNotInRow      = "not-in-row"         // the draft row holds no such item
	RuleBadTarget     = "bad-target"         // the seat may not receive (itself, unmasked, or no such seat)
	RuleNoPair        = "no-pair"            // the items to discard are not in front of the player
	RuleNoJewel       = "no-jewel"           // no jewel to spend
	RuleNotAvailable  = "action-unavailable" // the action is not among the round's
	RuleNoItem        = "no-item"            // the item to pass is not in front of the player
	RuleBadGuess      = "bad-guess"          // Mask off! named a broken portrait or one with the target's token
	RuleBadHint       = "bad-hint"           // the hint names the wrong character or an illegal portrait
	RuleNotYourSlot   = "not-your-slot"      // the slot is not one of the seat's masked characters, or not in its hand
	RuleBadCommit     = "bad-commit"         // the opened hint does not match the commitment
	RuleBadBet        = "bad-bet"            // the bet slot is not in the bet deck
	RuleNoFactsWanted = "no-facts-wanted"    // facts arrived when none were due
	RuleBadFacts      = "bad-facts"          // facts do not match the reveal or the coin
)

func ruleErr(seat engine.Seat, rule, format string, args ...any) *engine.RuleError {
	return &engine.RuleError{Seat: seat, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
