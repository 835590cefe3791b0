package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

const labelBlindStep = "masque/blind-step/v1"

// BlindStepSize is the length of a BlindStep's encoding: A' ‖ B' ‖ R×3 ‖
// s×2.
const BlindStepSize = 7 * ElementSize

// A blinded identity test (SPEC.md §9.8) tells whether an ElGamal
// ciphertext under the joint key encrypts the identity, and nothing else:
// every living seat in turn raises the ciphertext to a fresh secret
// exponent and removes its own key from it, in one step with one proof
// (BlindStep); after the last living seat the retired seats' public keys
// are removed (BlindedIsIdentity), leaving R·M for the product R of every
// step's exponent: the identity exactly when M is, a uniformly random point
// otherwise. The one-vote kill (SPEC.md §9.8) opens, in a shuffled order,
// the kill ballots' code sums this way until the first that is not the
// identity.

// BlindStep is one seat's step of a blinded identity test: from the
// width-1 card in = (A, B) it posts out = (A', B') = (r·A, r·B − r·x·A) for
// a fresh r ≠ 0 and its card key x, with the proof of r and u (= r·x) such
// that
//
//	r·A = A'   and   r·B − u·A = B'   and   r·X − u·G = 0.
//
// The third equation forces u = r·x; out.A ≠ identity (checked) forces
// r ≠ 0.
type BlindStep struct {
	Out   Card
	proof *SigmaProof
	known encodings // Out's encodings, when made or decoded from bytes
}

// blindStepCheck refuses a step's input or output that is not a width-1
// card with A ≠ identity.
func blindStepCheck(what string, c Card) error {
	if len(c) != 1 || c[0].A == nil || c[0].B == nil {
		return fmt.Errorf("mental: blind step: the %s is not a width-1 card", what)
	}
	if isIdentity(c[0].A) {
		return fmt.Errorf("mental: blind step: the %s's A is the identity", what)
	}
	return nil
}

// blindStepStatement is the statement of a BlindStep (SPEC.md §9.8):
// items X, in, out; leaf(2; w_0·A = A', w_0·B + w_1·(−A) = B', w_0·X +
// w_1·(−G) = 0).
func blindStepStatement(ctx Context, X *Element, in, out Card, known ...encodings) (*transcriptT, *Formula) {
	t := ctx.transcript(labelBlindStep)
	absorbElement(t, "X", X, known...)
	absorbCard(t, "in", in)
	absorbCard(t, "out", out)
	negA := ristretto.NewIdentityElement().Negate(in[0].A)
	negG := ristretto.NewIdentityElement().Negate(generator)
	f := Leaf(Statement{Witnesses: 2, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: in[0].A}}, Public: []Term{{Base: out[0].A}}},
		{Secret: []Term{{Witness: 0, Base: in[0].B}, {Witness: 1, Base: negA}}, Public: []Term{{Base: out[0].B}}},
		{Secret: []Term{{Witness: 0, Base: X}, {Witness: 1, Base: negG}}},
	}})
	return t, f
}

// BlindStep returns this seat's step of a blinded identity test of the
// width-1 card in, bound to ctx. Constant time in the key and the fresh
// exponent. It refuses an input whose A is the identity (no step can
// blind it; after one honest shuffle it happens with probability 1/ℓ).
func (k *SecretKey) BlindStep(ctx Context, in Card) (*BlindStep, error) {
	if err := blindStepCheck("input", in); err != nil {
		return nil, err
	}
	r := randomScalar()
	for r.Equal(ristretto.NewScalar()) == 1 { // probability 1/ℓ
		r = randomScalar()
	}
	return blindStepProve(ctx, k.pub, in, r, ristretto.NewScalar().Multiply(r, k.x), k.x)
}

// blindStepProve makes the step of witnesses r and u: out = (r·A, r·B −
// u·A) and the proof. x, when not nil, is the card key (u = r·x), which
// lets the third equation's commitment be one fixed-base multiplication;
// the tests pass nil and a u of their choice to forge steps.
func blindStepProve(ctx Context, X *Element, in Card, r, u, x *Scalar) (*BlindStep, error) {
	negU := ristretto.NewScalar().Negate(u)
	out := Card{{
		A: ristretto.NewIdentityElement().ScalarMult(r, in[0].A),
		B: ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{r, negU}, []*Element{in[0].B, in[0].A}),
	}}
	known := encodings{} // out's encodings: absorbed now, sent and checked later
	known.keep(out[0].A)
	known.keep(out[0].B)
	t, f := blindStepStatement(ctx, X, in, out, known)
	if x != nil {
		eqs := f.leaf.Equations
		eqs[2].Secret[0].dlog = x                                                   // X = x·G
		eqs[2].Secret[1].dlog = ristretto.NewScalar().Negate(shuffleSmallScalar(1)) // −G = (−1)·G
	}
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{{r, u}}})
	if err != nil {
		return nil, fmt.Errorf("mental: blind step proof: %w", err)
	}
	return &BlindStep{Out: out, proof: p, known: known}, nil
}

func blindStepChecks(ctx Context, X *Element, in Card, s *BlindStep, keys encodings) ([]equationCheck, []byte, error) {
	if s == nil || s.proof == nil {
		return nil, nil, fmt.Errorf("%w: missing blind step", ErrProof)
	}
	if err := blindStepCheck("input", in); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrProof, err)
	}
	if err := blindStepCheck("output", s.Out); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrProof, err)
	}
	t, f := blindStepStatement(ctx, X, in, s.Out, s.known, keys)
	return sigmaChecks(t, f, s.proof)
}

// VerifyBlindStep checks that s is a step of a blinded identity test of in
// by the seat whose card key is X, made under ctx: s.Out = (r·A, r·(B −
// x·A)) for some r ≠ 0.
func VerifyBlindStep(ctx Context, X *Element, in Card, s *BlindStep) error {
	checks, seed, err := blindStepChecks(ctx, X, in, s, nil)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("blind step: %w", ErrProof)
	}
	return nil
}

// AddBlindStep adds a blind step (see [VerifyBlindStep]).
func (b *Batch) AddBlindStep(name string, ctx Context, X *Element, in Card, s *BlindStep) {
	checks, seed, err := blindStepChecks(ctx, X, in, s, b.keyEncodings(X))
	b.add(name, checks, seed, err)
}

// BlindedIsIdentity ends a blinded identity test: c is the last living
// seat's output, retired the retired seats' shares of it
// ([SecretKey.RetiredShare], one width-1 share each). It reports whether
// B − Σ D, that is R·M, is the identity, which holds exactly when the
// tested ciphertext encrypted the identity (every step's r ≠ 0). Variable
// time: the answer is public.
func BlindedIsIdentity(c Card, retired [][]*Element) (bool, error) {
	if len(c) != 1 {
		return false, fmt.Errorf("mental: blinded test of a width-%d card", len(c))
	}
	m, err := Open(c, retired)
	if err != nil {
		return false, err
	}
	return isIdentity(m[0]), nil
}

// blindStepShape is the proof shape of every BlindStep.
var blindStepShape = Leaf(Statement{Witnesses: 2, Equations: make([]Equation, 3)})

// MarshalBinary encodes A' ‖ B' ‖ R×3 ‖ s×2 (SPEC.md §6): 224 bytes.
func (s *BlindStep) MarshalBinary() ([]byte, error) {
	if s == nil || len(s.Out) != 1 || s.proof == nil {
		return nil, fmt.Errorf("mental: blind step: incomplete")
	}
	b := make([]byte, 0, BlindStepSize)
	b = append(b, encodingOf(s.Out[0].A, s.known)...)
	b = append(b, encodingOf(s.Out[0].B, s.known)...)
	return s.proof.AppendBinary(b), nil
}

// UnmarshalBlindStep decodes a BlindStep strictly (its output's A may be
// any element here; verification refuses the identity).
func UnmarshalBlindStep(b []byte) (*BlindStep, error) {
	r := &reader{b: b, known: encodings{}}
	A := r.element("blind step A")
	B := r.element("blind step B")
	p := r.sigma(blindStepShape, "blind step proof")
	if err := r.done("blind step"); err != nil {
		return nil, err
	}
	return &BlindStep{Out: Card{{A: A, B: B}}, proof: p, known: r.known}, nil
}

// RetiredBlindStep returns a retired seat's step of a blinded identity
// test of the width-1 card in, computed by every peer from its published
// key (SPEC.md §9.4, §9.8): (A, B − x·A), its key taken out with no
// blinding (r = 1) and no proof.
func (k *SecretKey) RetiredBlindStep(in Card) Card {
	if len(in) != 1 {
		return in
	}
	d := ristretto.NewIdentityElement().ScalarMult(k.x, in[0].A)
	return Card{{A: ristretto.NewIdentityElement().Set(in[0].A), B: d.Subtract(in[0].B, d)}}
}
