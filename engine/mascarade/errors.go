package mascarade

// Stable rule identifiers of the 1st edition's own rules, in the
// [engine.RuleError] values [State.Apply] returns; the rules every
// edition shares have the family's ([masquerade.RuleGameOver],
// [masquerade.RuleNotYourTurn], [masquerade.RuleBadTarget] ...).
const (
	RuleRevealedSwap = "revealed-must-swap" // revealed during the previous turn: swap this turn
	RuleNotRichest   = "bishop-not-richest" // the Bishop must take from a richest player
)
