package p2p

import "github.com/masque-games/masque/p2p/roomcore"

// The replication protocol's types are package roomcore's; these names
// keep p2p's API.
type (
	// Replica is [roomcore.Replica].
	Replica = roomcore.Replica
	// VerifiedApplier is [roomcore.VerifiedApplier].
	VerifiedApplier = roomcore.VerifiedApplier
	// BatchApplier is [roomcore.BatchApplier].
	BatchApplier = roomcore.BatchApplier
	// DeferredApplier is [roomcore.DeferredApplier].
	DeferredApplier = roomcore.DeferredApplier
	// Retirer is [roomcore.Retirer].
	Retirer = roomcore.Retirer
	// Wait is [roomcore.Wait].
	Wait = roomcore.Wait
	// Outcome is [roomcore.Outcome].
	Outcome = roomcore.Outcome
	// Verdict is [roomcore.Verdict].
	Verdict = roomcore.Verdict
	// VerdictKind is [roomcore.VerdictKind].
	VerdictKind = roomcore.VerdictKind
)

// Verdict kinds (see [roomcore.VerdictKind]).
const (
	VerdictInvalidEntry = roomcore.VerdictInvalidEntry
	VerdictEquivocation = roomcore.VerdictEquivocation
	VerdictDivergence   = roomcore.VerdictDivergence
	VerdictTimeout      = roomcore.VerdictTimeout
)

// Errors wrapped by [Room.Run]'s (see package roomcore).
var (
	ErrNoContact = roomcore.ErrNoContact
	ErrTimedOut  = roomcore.ErrTimedOut
)

// UnmarshalVerdict is [roomcore.UnmarshalVerdict].
func UnmarshalVerdict(data []byte) (*Verdict, error) { return roomcore.UnmarshalVerdict(data) }

// MarshalStoredVerdict is [roomcore.MarshalStoredVerdict].
func MarshalStoredVerdict(v *Verdict, declarations []*Verdict) ([]byte, error) {
	return roomcore.MarshalStoredVerdict(v, declarations)
}

// UnmarshalStoredVerdict is [roomcore.UnmarshalStoredVerdict].
func UnmarshalStoredVerdict(data []byte) (*Verdict, []*Verdict, error) {
	return roomcore.UnmarshalStoredVerdict(data)
}

// sortEvidence is [roomcore.SortEvidence] (tests).
var sortEvidence = roomcore.SortEvidence
