package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

const labelSwap = "masque/swap/v1"

// SwapProof proves that two output cards are the two input cards,
// re-masked, in the same or the swapped order, and nothing more (SPEC.md
// §3.5). It is an OR of two compressed re-encryption statements.
type SwapProof struct {
	sigma *SigmaProof
}

// swapSize is the encoded size of a SwapProof: one OR challenge, two
// commitments per branch, one response per branch.
const swapSize = 7 * 32

// Swap re-masks c0 and c1 and, if swap is true, exchanges them. It returns
// the two output cards and a proof that binds ctx. The bit is never
// branched on: each output component is selected from the two inputs in
// constant time (field element selection by mask, Element.Select), then
// re-masked, and the proof's real branch is chosen in constant time.
func (k *JointKey) Swap(ctx Context, c0, c1 Card, swap bool) (o0, o1 Card, proof *SwapProof, err error) {
	if len(c0) == 0 || len(c0) > MaxWidth || len(c0) != len(c1) {
		return nil, nil, nil, fmt.Errorf("mental: swap: card widths %d and %d", len(c0), len(c1))
	}
	// The Go compiler turns this bool-to-int into a zero-extension of the
	// bool's byte (MOVBLZX on amd64; checked with -gcflags=-S): no branch.
	bit := 0
	if swap {
		bit = 1
	}
	b := bitScalar(bit)
	w := len(c0)
	s0, s1 := randomScalars(w), randomScalars(w)
	o0, o1 = make(Card, w), make(Card, w)
	for i := range w {
		// o0 = (c1 if swapped, else c0) + s0·(G, H); o1 the other one
		// + s1·(G, H). s·G uses the fixed-base table. All constant time.
		o0[i].A = ristretto.NewIdentityElement().Select(c1[i].A, c0[i].A, bit)
		o0[i].B = ristretto.NewIdentityElement().Select(c1[i].B, c0[i].B, bit)
		o1[i].A = ristretto.NewIdentityElement().Select(c0[i].A, c1[i].A, bit)
		o1[i].B = ristretto.NewIdentityElement().Select(c0[i].B, c1[i].B, bit)
		o0[i].A.Add(o0[i].A, ristretto.NewIdentityElement().ScalarBaseMult(s0[i]))
		o0[i].B.Add(o0[i].B, ristretto.NewIdentityElement().ScalarMult(s0[i], k.H))
		o1[i].A.Add(o1[i].A, ristretto.NewIdentityElement().ScalarBaseMult(s1[i]))
		o1[i].B.Add(o1[i].B, ristretto.NewIdentityElement().ScalarMult(s1[i], k.H))
	}
	t, f := k.swapStatement(ctx, c0, c1, o0, o1)
	// The witness of the real branch is Σ z_k s_k over the compressed
	// components; z are the formula's coefficients, in the same order.
	z := swapCoefficients(f)
	tw := ristretto.NewScalar()
	for i := range w {
		tmp := ristretto.NewScalar().Multiply(z[i], s0[i])
		tw.Add(tw, tmp)
		tmp.Multiply(z[w+i], s1[i])
		tw.Add(tw, tmp)
	}
	precomputeSwapValues(f, c0, c1, k.H, tw, bit)
	nbit := 1 - bit
	a := Assignment{
		Leaves: [][]*Scalar{
			{ristretto.NewScalar().Multiply(bitScalar(nbit), tw)},
			{ristretto.NewScalar().Multiply(b, tw)},
		},
		Real: [][]int{{nbit, bit}},
	}
	p, err := proveSigma(t, f, a)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("mental: swap proof: %w", err)
	}
	return o0, o1, &SwapProof{sigma: p}, nil
}

// swapStatement absorbs the whole statement (SPEC.md §3.5: joint key,
// inputs, outputs) and builds the OR formula with compression coefficients
// drawn from the transcript after the outputs are fixed.
func (k *JointKey) swapStatement(ctx Context, c0, c1, o0, o1 Card) (*transcriptT, *Formula) {
	t := ctx.transcript(labelSwap)
	t.Append("H", k.hBytes())
	absorbCard(t, "in0", c0)
	absorbCard(t, "in1", c1)
	absorbCard(t, "out0", o0)
	absorbCard(t, "out1", o1)
	w := len(c0)
	// One allocation each for the coefficients and for every term of both
	// branches: a batch builds this statement for every swap it checks.
	zs := make([]Scalar, 4*w) // z, then -z (shared by both branches)
	z := make([]*Scalar, 2*w)
	for i := range z {
		zs[i] = *t.ChallengeScalar("swap-z")
		zs[2*w+i].Negate(&zs[i])
		z[i] = &zs[i]
	}
	G := generator
	terms := make([]Term, 2*(2+8*w)) // per branch: two secret terms, 4w public per equation
	branch := func(first, second Card) *Formula {
		sec, pub := terms[:2], terms[2:2+8*w]
		terms = terms[2+8*w:]
		sec[0], sec[1] = Term{Witness: 0, Base: G}, Term{Witness: 0, Base: k.H}
		pubA, pubB := pub[:0:4*w], pub[4*w:4*w]
		for i := range w {
			for j, pair := range [2][2]Card{{o0, first}, {o1, second}} {
				zz, nzz := z[j*w+i], &zs[2*w+j*w+i]
				pubA = append(pubA, Term{Coef: zz, Base: pair[0][i].A}, Term{Coef: nzz, Base: pair[1][i].A})
				pubB = append(pubB, Term{Coef: zz, Base: pair[0][i].B}, Term{Coef: nzz, Base: pair[1][i].B})
			}
		}
		return Leaf(Statement{Witnesses: 1, Equations: []Equation{
			{Secret: sec[0:1:1], Public: pubA},
			{Secret: sec[1:2:2], Public: pubB},
		}})
	}
	return t, Or(branch(c0, c1), branch(c1, c0))
}

// precomputeSwapValues sets the public values V_0, V_1 of both branches'
// equations for the prover (V_π = Σ_k z_k·(o_k − c_π(k)), per A and B
// part), cheaper than two multi-scalar multiplications per part: the real
// branch's value is t·G (t·H for the B part), from the witness t in
// constant time, and the two values differ by the public
// d = V_1 − V_0 = Σ_i (z_i − z_{w+i})·(c0_i − c1_i), which needs half the
// points. Which of V_real − d, V_real, V_real + d goes to which branch is
// a constant-time selection on the bit. Only the prover reads these
// values; a verifier computes every public value from the statement.
func precomputeSwapValues(f *Formula, c0, c1 Card, H *Element, t *Scalar, bit int) {
	z := swapCoefficients(f)
	w := len(c0)
	e0 := f.children[0].leaf.Equations
	e1 := f.children[1].leaf.Equations
	sc := make([]*Scalar, w)
	for i := range w {
		sc[i] = ristretto.NewScalar().Subtract(z[i], z[w+i])
	}
	for j := range 2 {
		pt := make([]*Element, w)
		for i := range w {
			if j == 0 {
				pt[i] = ristretto.NewIdentityElement().Subtract(c0[i].A, c1[i].A)
			} else {
				pt[i] = ristretto.NewIdentityElement().Subtract(c0[i].B, c1[i].B)
			}
		}
		d := ristretto.NewIdentityElement().VarTimeMultiScalarMult(sc, pt) // public
		var real *Element
		if j == 0 {
			real = ristretto.NewIdentityElement().ScalarBaseMult(t)
		} else {
			real = ristretto.NewIdentityElement().ScalarMult(t, H)
		}
		plus := ristretto.NewIdentityElement().Add(real, d)
		minus := ristretto.NewIdentityElement().Subtract(real, d)
		// bit 0: branch 0 is real, V_1 = V_0 + d; bit 1: branch 1 is
		// real, V_0 = V_1 − d.
		e0[j].value = ristretto.NewIdentityElement().Select(minus, real, bit)
		e1[j].value = ristretto.NewIdentityElement().Select(real, plus, bit)
	}
}

// swapCoefficients recovers z (card 0 components, then card 1) from the
// first branch of a swap formula.
func swapCoefficients(f *Formula) []*Scalar {
	pub := f.children[0].leaf.Equations[0].Public
	w := len(pub) / 4
	z := make([]*Scalar, 2*w)
	for i := range w {
		z[i] = pub[4*i].Coef
		z[w+i] = pub[4*i+2].Coef
	}
	return z
}

func absorbCard(t *transcriptT, label string, c Card) {
	var buf [1 + 64*MaxWidth]byte
	b, err := c.AppendBinary(buf[:0])
	if err != nil {
		b = []byte{0}
	}
	t.Append(label, b)
}

func (k *JointKey) swapChecks(ctx Context, c0, c1, o0, o1 Card, p *SwapProof) ([]equationCheck, []byte, error) {
	w := len(c0)
	if w == 0 || w > MaxWidth || len(c1) != w || len(o0) != w || len(o1) != w {
		return nil, nil, fmt.Errorf("mental: swap: mismatched card widths")
	}
	if p == nil || p.sigma == nil {
		return nil, nil, fmt.Errorf("%w: missing swap proof", ErrProof)
	}
	t, f := k.swapStatement(ctx, c0, c1, o0, o1)
	return sigmaChecks(t, f, p.sigma)
}

// VerifySwap checks that o0, o1 are c0, c1 re-masked in some order, under
// ctx. Variable time (public data).
func (k *JointKey) VerifySwap(ctx Context, c0, c1, o0, o1 Card, p *SwapProof) error {
	checks, seed, err := k.swapChecks(ctx, c0, c1, o0, o1, p)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("swap: %w", ErrProof)
	}
	return nil
}

// MarshalBinary returns the 224-byte encoding of the proof.
func (p *SwapProof) MarshalBinary() ([]byte, error) {
	return p.sigma.AppendBinary(make([]byte, 0, swapSize)), nil
}

// UnmarshalSwapProof decodes a swap proof strictly (SPEC.md §6).
func UnmarshalSwapProof(b []byte) (*SwapProof, error) {
	if len(b) != swapSize {
		return nil, fmt.Errorf("%w: swap proof is %d bytes, want %d", ErrEncoding, len(b), swapSize)
	}
	r := &reader{b: b}
	f := Or(Leaf(Statement{Witnesses: 1, Equations: make([]Equation, 2)}), Leaf(Statement{Witnesses: 1, Equations: make([]Equation, 2)}))
	p := r.sigma(f, "swap proof")
	if err := r.done("swap proof"); err != nil {
		return nil, err
	}
	return &SwapProof{sigma: p}, nil
}
