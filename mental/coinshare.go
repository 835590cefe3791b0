package mental

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Labels of the joint coin made of decryption shares (SPEC.md §3.12).
const (
	labelCoinShare = "masque/coin-share/v1"
	labelCoinPoint = "masque/coin-point/v1"
	labelCoinValue = "masque/coin-value/v1"
)

// CoinShareSize is the length of a CoinShare's encoding: D ‖ R×2 ‖ s.
const CoinShareSize = 4 * ElementSize

// CoinPoint is the public point Q of the joint coin drawn at pos of the
// game table (SPEC.md §3.12): ristretto255's one-way map over SHA-512 of
// its label, the game id and the position, so nobody knows its discrete
// log, and every coin of every game has its own.
func CoinPoint(table [32]byte, pos uint64) *Element {
	h := sha512.New()
	h.Write([]byte(labelCoinPoint))
	h.Write(table[:])
	var p [8]byte
	binary.BigEndian.PutUint64(p[:], pos)
	h.Write(p[:])
	return ristretto.UniformElement(h.Sum(nil))
}

// CoinShare is one seat's contribution to a joint coin: D = x·Q for its
// card key x and the coin's point Q, with the Chaum–Pedersen proof that
// log_G X = log_Q D (SPEC.md §3.12). The coin is a hash of Σ D = x_joint·Q,
// which nobody can compute, predict or bias short of every seat's share.
type CoinShare struct {
	D     *Element
	proof *SigmaProof
	known encodings // D's encoding, when made or decoded from bytes
}

func coinShareStatement(ctx Context, X, Q, D *Element, known ...encodings) (*transcriptT, *Formula) {
	t := ctx.transcript(labelCoinShare)
	absorbElement(t, "X", X, known...)
	absorbElement(t, "Q", Q)
	absorbElement(t, "D", D, known...)
	return t, Leaf(Statement{Witnesses: 1, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: generator}}, Public: []Term{{Base: X}}},
		{Secret: []Term{{Witness: 0, Base: Q}}, Public: []Term{{Base: D}}},
	}})
}

// CoinShare returns this seat's share of the coin whose point is Q, with
// its proof, bound to ctx. Constant time in the secret key.
func (k *SecretKey) CoinShare(ctx Context, Q *Element) (*CoinShare, error) {
	if Q == nil || isIdentity(Q) {
		return nil, fmt.Errorf("mental: coin share: the coin point is the identity")
	}
	D := ristretto.NewIdentityElement().ScalarMult(k.x, Q)
	known := encodings{} // D's encoding, absorbed now, sent and checked later
	known.keep(D)
	t, f := coinShareStatement(ctx, k.pub, Q, D, known)
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{{k.x}}})
	if err != nil {
		return nil, fmt.Errorf("mental: coin share proof: %w", err)
	}
	return &CoinShare{D: D, proof: p, known: known}, nil
}

func coinShareChecks(ctx Context, X, Q *Element, s *CoinShare, keys encodings) ([]equationCheck, []byte, error) {
	if s == nil || s.D == nil || s.proof == nil {
		return nil, nil, fmt.Errorf("%w: missing coin share", ErrProof)
	}
	if Q == nil || isIdentity(Q) {
		return nil, nil, fmt.Errorf("%w: the coin point is the identity", ErrProof)
	}
	t, f := coinShareStatement(ctx, X, Q, s.D, s.known, keys)
	return sigmaChecks(t, f, s.proof)
}

// VerifyCoinShare checks that s is the coin share for point Q of the seat
// whose card key is X, made under ctx.
func VerifyCoinShare(ctx Context, X, Q *Element, s *CoinShare) error {
	checks, seed, err := coinShareChecks(ctx, X, Q, s, nil)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("coin share: %w", ErrProof)
	}
	return nil
}

// AddCoinShare adds a coin share (see [VerifyCoinShare]).
func (b *Batch) AddCoinShare(name string, ctx Context, X, Q *Element, s *CoinShare) {
	checks, seed, err := coinShareChecks(ctx, X, Q, s, b.keyEncodings(X))
	b.add(name, checks, seed, err)
}

// CoinValue is the joint coin of the game table drawn at pos, from every
// seat's share (SPEC.md §3.12): SHA-512 of its label, the game id, the
// position and the encoding of Σ D_j, cut to 32 bytes. The shares' proofs
// must have been checked.
func CoinValue(table [32]byte, pos uint64, shares []*CoinShare) ([CoinSize]byte, error) {
	var out [CoinSize]byte
	if len(shares) == 0 {
		return out, fmt.Errorf("mental: coin value: no shares")
	}
	sum := ristretto.NewIdentityElement()
	for i, s := range shares {
		if s == nil || s.D == nil {
			return out, fmt.Errorf("mental: coin value: share %d is missing", i)
		}
		sum.Add(sum, s.D)
	}
	h := sha512.New()
	h.Write([]byte(labelCoinValue))
	h.Write(table[:])
	var p [8]byte
	binary.BigEndian.PutUint64(p[:], pos)
	h.Write(p[:])
	h.Write(sum.AppendBytes(nil))
	copy(out[:], h.Sum(nil))
	return out, nil
}

// coinShareShape is the proof shape of every CoinShare.
var coinShareShape = Leaf(Statement{Witnesses: 1, Equations: make([]Equation, 2)})

// MarshalBinary encodes D ‖ R×2 ‖ s (SPEC.md §6): 128 bytes.
func (s *CoinShare) MarshalBinary() ([]byte, error) {
	if s == nil || s.D == nil || s.proof == nil {
		return nil, fmt.Errorf("mental: coin share: incomplete")
	}
	return s.proof.AppendBinary(append(make([]byte, 0, CoinShareSize), encodingOf(s.D, s.known)...)), nil
}

// UnmarshalCoinShare decodes a CoinShare strictly.
func UnmarshalCoinShare(b []byte) (*CoinShare, error) {
	r := &reader{b: b, known: encodings{}}
	D := r.element("coin share D")
	p := r.sigma(coinShareShape, "coin share proof")
	if err := r.done("coin share"); err != nil {
		return nil, err
	}
	return &CoinShare{D: D, proof: p, known: r.known}, nil
}

// viewedHoldingShape is the proof shape of a viewed-holding proof over
// kinds kinds: one leaf of 2 witnesses and 3 equations per kind, ORed
// when there are several.
func viewedHoldingShape(kinds int) *Formula {
	leaf := func() *Formula { return Leaf(Statement{Witnesses: 2, Equations: make([]Equation, 3)}) }
	if kinds == 1 {
		return leaf()
	}
	var leaves []*Formula
	for range kinds {
		leaves = append(leaves, leaf())
	}
	return Or(leaves...)
}

// MaxHoldingKinds is the largest set of kinds a viewed-holding proof
// decoded by UnmarshalViewedHoldingProof may be over.
const MaxHoldingKinds = 64

// ViewedHoldingProofSize is the length of a viewed-holding proof over
// kinds kinds (SPEC.md §3.9): 32·(6·kinds − 1) bytes, 160 for one kind.
func ViewedHoldingProofSize(kinds int) int {
	if kinds == 1 {
		return 5 * 32
	}
	return 32 * (6*kinds - 1)
}

// UnmarshalViewedHoldingProof decodes strictly a proof made by
// ProveViewedHolding over kinds kinds (1..MaxHoldingKinds).
func UnmarshalViewedHoldingProof(b []byte, kinds int) (*SigmaProof, error) {
	if kinds < 1 || kinds > MaxHoldingKinds {
		return nil, fmt.Errorf("%w: a holding proof over %d kinds", ErrEncoding, kinds)
	}
	r := &reader{b: b}
	p := r.sigma(viewedHoldingShape(kinds), "viewed-holding proof")
	if err := r.done("viewed-holding proof"); err != nil {
		return nil, err
	}
	return p, nil
}

// AddViewedHolding adds a viewed-holding proof (see [VerifyViewedHolding]).
func (b *Batch) AddViewedHolding(name string, ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kinds []int, p *SigmaProof) {
	f, err := ViewedHoldingFormula(X, Y, c, comp, sent, kinds)
	if err != nil {
		b.add(name, nil, nil, err)
		return
	}
	b.AddFormula(name, ctx, labelViewedHolding, f, p)
}

// AddNotHeld adds a not-held proof (see [VerifyNotHeld]).
func (b *Batch) AddNotHeld(name string, ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kind int, p *NotHeldProof) {
	if p == nil || p.T == nil || p.proof == nil {
		b.add(name, nil, nil, fmt.Errorf("%w: missing proof", ErrProof))
		return
	}
	if isIdentity(p.T) {
		b.add(name, nil, nil, fmt.Errorf("not held: %w: T is the identity", ErrProof))
		return
	}
	t, f, err := notHeldStatement(ctx, X, Y, c, comp, sent, kind, p.T, p.known)
	if err != nil {
		b.add(name, nil, nil, err)
		return
	}
	checks, seed, err := sigmaChecks(t, f, p.proof)
	b.add(name, checks, seed, err)
}
