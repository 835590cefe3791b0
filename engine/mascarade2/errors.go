package mascarade2

// Stable rule identifiers of the 2nd edition's own rules, in the
// [engine.RuleError] values [State.Apply] returns; the rules every
// edition shares have the family's ([masquerade.RuleGameOver],
// [masquerade.RuleNotYourTurn], [masquerade.RuleBadTarget] ...).
const (
	RuleRevealedClaim = "revealed-no-claim"    // revealed during the previous turn: no claim this turn
	RuleNotRichest    = "swindler-not-richest" // the Swindler must take from a richest player
)
