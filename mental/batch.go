package mental

import (
	"errors"
	"fmt"
)

// Batch verifies many proofs with one multi-scalar multiplication (SPEC.md
// §4.4). Add proofs, then call Verify. If the combined check fails, Verify
// checks each proof on its own and names the first that fails.
//
// The weights of the random linear combination are derived by hashing every
// proof in the batch, so verification stays deterministic (the engine is
// pure) while a prover, who must fix its proof before the weights exist,
// cannot make a false equation cancel except with probability about 2^-252
// per attempt.
type Batch struct {
	items []batchItem
	// keys caches the encodings of the public keys the batch's shares
	// absorb: a batch usually holds many shares by the same seats.
	keys encodings
}

type batchItem struct {
	name   string
	checks []equationCheck
	seed   []byte
	err    error
}

// BatchError names the proof of a batch that failed.
type BatchError struct {
	Index int
	Name  string
	Err   error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("proof %d (%s): %v", e.Index, e.Name, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

func (b *Batch) add(name string, checks []equationCheck, seed []byte, err error) {
	b.items = append(b.items, batchItem{name: name, checks: checks, seed: seed, err: err})
}

// keyEncodings caches the encodings of keys and returns the cache.
func (b *Batch) keyEncodings(keys ...*Element) encodings {
	if b.keys == nil {
		b.keys = encodings{}
	}
	for _, k := range keys {
		if k != nil {
			b.keys.keep(k)
		}
	}
	return b.keys
}

// Len returns the number of proofs added.
func (b *Batch) Len() int { return len(b.items) }

// AddSwap adds a swap proof (see [JointKey.VerifySwap]).
func (b *Batch) AddSwap(name string, k *JointKey, ctx Context, c0, c1, o0, o1 Card, p *SwapProof) {
	checks, seed, err := k.swapChecks(ctx, c0, c1, o0, o1, p)
	b.add(name, checks, seed, err)
}

// AddShare adds a decryption share (see [VerifyShare]).
func (b *Batch) AddShare(name string, ctx Context, X *Element, c Card, s *Share) {
	checks, seed, err := shareChecks(ctx, X, c, s, b.keyEncodings(X))
	b.add(name, checks, seed, err)
}

// AddEncryptedShare adds an encrypted share (see [VerifyEncryptedShare]).
func (b *Batch) AddEncryptedShare(name string, ctx Context, X, Y *Element, c Card, es *EncryptedShare) {
	checks, seed, err := encShareChecks(ctx, X, Y, c, es, b.keyEncodings(X, Y))
	b.add(name, checks, seed, err)
}

// AddFormula adds a proof made with [ProveFormula].
func (b *Batch) AddFormula(name string, ctx Context, label string, f *Formula, p *SigmaProof) {
	if p == nil {
		b.add(name, nil, nil, fmt.Errorf("%w: missing proof", ErrProof))
		return
	}
	checks, seed, err := sigmaChecks(formulaTranscript(ctx, label, f), f, p)
	b.add(name, checks, seed, err)
}

// Verify checks every proof added. It returns nil if all hold, or a
// *BatchError naming the first proof that does not.
func (b *Batch) Verify() error {
	var all []equationCheck
	seeds := make([][]byte, 0, len(b.items))
	for i, it := range b.items {
		if it.err != nil {
			return &BatchError{Index: i, Name: it.name, Err: it.err}
		}
		all = append(all, it.checks...)
		seeds = append(seeds, it.seed)
	}
	if batchHolds(batchSeed(seeds...), all) {
		return nil
	}
	for i, it := range b.items {
		if !batchHolds(batchSeed(it.seed), it.checks) {
			return &BatchError{Index: i, Name: it.name, Err: ErrProof}
		}
	}
	// Every proof holds alone but not together: only possible if an
	// equation check was mis-assembled. Report it rather than accept.
	return &BatchError{Index: -1, Name: "batch", Err: errors.New("mental: batch inconsistent with individual checks")}
}

// AddShuffle adds a shuffle proof (see [JointKey.VerifyShuffle]).
func (b *Batch) AddShuffle(name string, k *JointKey, ctx Context, in, out []Card, p *ShuffleProof) {
	checks, seed, err := k.shuffleChecks(ctx, in, out, p)
	b.add(name, checks, seed, err)
}
