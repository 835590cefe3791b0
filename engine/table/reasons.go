package table

import "strings"

// The reasons a [Fault] gives: a closed list, plus "rule:" and the game's
// own rule id when the rules refuse a move. They are stable: transcripts,
// verdicts and 'masque verify --json' carry them, and docs/protocol.md and
// docs/security.md list them.
const (
	ReasonUnknownSeat         = "unknown-seat"           // the entry names a seat the roster does not have
	ReasonBadSignature        = "bad-signature"          // no roster key signed the entry (damage or forgery: nobody is blamed)
	ReasonSignedByAnotherSeat = "signed-by-another-seat" // seat X signed an entry naming seat Y
	ReasonWrongPosition       = "wrong-position"         // the entry's position is not the next one
	ReasonWrongPreviousHash   = "wrong-previous-hash"    // the entry does not extend this log
	ReasonLogClosed           = "log-closed"             // nothing more may be appended
	ReasonNotYourTurn         = "not-your-turn"          // another seat must author this entry
	ReasonMalformedBody       = "malformed-body"         // the body does not decode strictly
	ReasonWrongBodyKind       = "wrong-body-kind"        // a body of the wrong kind for the phase
	ReasonBadSwapProof        = "bad-swap-proof"         // a swap proof does not verify
	ReasonSwapCount           = "swap-count"             // more or fewer swap payloads than the move causes
	ReasonBadShare            = "bad-share"              // a (encrypted) decryption share does not verify
	ReasonShareCount          = "share-count"            // the number or kind of shares does not match the request
	ReasonBadShuffle          = "bad-shuffle"            // a shuffle proof does not verify, or the deck's size is wrong
	ReasonCoinMismatch        = "coin-mismatch"          // a deal coin does not match its commitment
	ReasonKeyMismatch         = "key-mismatch"           // a published key is not the seat's card key
	ReasonInvalid             = "invalid"                // anything else (internal inconsistencies)
	ReasonStatementCount      = "statement-count"        // more or fewer statement proofs than the move causes
	ReasonBadStatement        = "bad-statement"          // a statement proof does not verify, or is of another kind or size than the statement
	ReasonNotViewed           = "not-viewed"             // a statement about a slot the prover never viewed privately
	ReasonStaleView           = "stale-view"             // a statement about a slot whose card changed since the prover viewed it
	ReasonBadSeatKeys         = "bad-seat-keys"          // the roster: a seat's keys fail (key proof, weak key, a viewing key reused); blames that seat
	ReasonActionCount         = "action-count"           // an actions entry carries more or fewer parts than the request has
	ReasonBadBallot           = "bad-ballot"             // a powered ballot does not decode or verify against its statement
	ReasonBadCheck            = "bad-check"              // a check does not decode or verify against its statement
	ReasonBadTag              = "bad-tag"                // a tag is not 32 bytes
	ReasonBadBlind            = "bad-blind"              // a step of a blinded identity test does not verify (mental SPEC §9.8)
	ReasonBadLookup           = "bad-lookup"             // a count lookup does not verify (mental SPEC §9.9)
	// ReasonRulePrefix starts a reason naming the game's rule ("rule:not-your-slot").
	ReasonRulePrefix = "rule:"
)

// Reasons lists every fixed Fault reason, in the order above.
func Reasons() []string {
	return []string{ReasonUnknownSeat, ReasonBadSignature, ReasonSignedByAnotherSeat, ReasonWrongPosition,
		ReasonWrongPreviousHash, ReasonLogClosed, ReasonNotYourTurn, ReasonMalformedBody, ReasonWrongBodyKind,
		ReasonBadSwapProof, ReasonSwapCount, ReasonBadShare, ReasonShareCount, ReasonBadShuffle,
		ReasonCoinMismatch, ReasonKeyMismatch, ReasonInvalid, ReasonStatementCount, ReasonBadStatement,
		ReasonNotViewed, ReasonStaleView, ReasonBadSeatKeys, ReasonActionCount, ReasonBadBallot, ReasonBadCheck,
		ReasonBadTag, ReasonBadBlind, ReasonBadLookup}
}

// KnownReason reports whether r is one of [Reasons] or "rule:" followed by
// a rule id.
func KnownReason(r string) bool {
	if id, ok := strings.CutPrefix(r, ReasonRulePrefix); ok {
		return id != ""
	}
	for _, k := range Reasons() {
		if r == k {
			return true
		}
	}
	return false
}
