package mental

import (
	"fmt"

	"github.com/gtank/ristretto255"
)

const labelHolding = "masque/holding/v1"

// HoldingFormula is the statement "component comp of card c, opened with
// the other seats' published shares, encodes one of kinds, and I know the
// secret key of X" (SPEC.md §3.9). For each kind m in kinds it is the leaf
//
//	x·A = B - Σ_j D_j - M_m   and   x·G = X
//
// and the formula is the OR of these leaves. A holder who peeked at the
// card proves it without saying which kind: "my card is in S", or with S =
// every kind but X, "my card is not X".
func HoldingFormula(X *Element, c Card, comp int, others [][]*Element, kinds []int) (*Formula, error) {
	if comp < 0 || comp >= len(c) {
		return nil, fmt.Errorf("mental: holding: component %d of a width-%d card", comp, len(c))
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("mental: holding: empty set of kinds")
	}
	minus1 := ristretto255.NewScalar().Negate(bitScalar(1))
	G := generator
	base := []Term{{Base: c[comp].B}}
	for j, d := range others {
		if len(d) != len(c) {
			return nil, fmt.Errorf("mental: holding: share %d has width %d, card %d", j, len(d), len(c))
		}
		base = append(base, Term{Coef: minus1, Base: d[comp]})
	}
	var leaves []*Formula
	for _, m := range kinds {
		pub := append(append([]Term{}, base...), Term{Coef: minus1, Base: CardPoint(m)})
		leaves = append(leaves, Leaf(Statement{Witnesses: 1, Equations: []Equation{
			{Secret: []Term{{Witness: 0, Base: c[comp].A}}, Public: pub},
			{Secret: []Term{{Witness: 0, Base: G}}, Public: []Term{{Base: X}}},
		}}))
	}
	if len(leaves) == 1 {
		return leaves[0], nil
	}
	return Or(leaves...), nil
}

// HoldingAssignment returns the prover's assignment for HoldingFormula: it
// opens the card with the holder's own share and marks, in constant time,
// which kind it holds. It fails if the card holds none of kinds.
func (k *SecretKey) HoldingAssignment(c Card, comp int, others [][]*Element, kinds []int) (Assignment, error) {
	m, err := k.Peek(c, others)
	if err != nil {
		return Assignment{}, err
	}
	if comp < 0 || comp >= len(m) {
		return Assignment{}, fmt.Errorf("mental: holding: component %d of a width-%d card", comp, len(c))
	}
	real := make([]int, len(kinds))
	leaves := make([][]*Scalar, len(kinds))
	found := 0
	for i, kind := range kinds {
		real[i] = m[comp].Equal(CardPoint(kind))
		found |= real[i]
		leaves[i] = []*Scalar{ristretto255.NewScalar().Multiply(bitScalar(real[i]), k.x)}
	}
	if found == 0 {
		return Assignment{}, fmt.Errorf("mental: holding: the card is none of the %d kinds claimed", len(kinds))
	}
	// A duplicated kind would mark two branches; keep only the first.
	seen := 0
	for i := range real {
		real[i] &= 1 - seen
		seen |= real[i]
		leaves[i][0] = ristretto255.NewScalar().Multiply(bitScalar(real[i]), k.x)
	}
	if len(kinds) == 1 {
		return Assignment{Leaves: leaves}, nil
	}
	return Assignment{Leaves: leaves, Real: [][]int{real}}, nil
}

// ProveHolding proves that component comp of c is one of kinds (SPEC.md
// §3.9), bound to ctx.
func (k *SecretKey) ProveHolding(ctx Context, c Card, comp int, others [][]*Element, kinds []int) (*SigmaProof, error) {
	f, err := HoldingFormula(k.pub, c, comp, others, kinds)
	if err != nil {
		return nil, err
	}
	a, err := k.HoldingAssignment(c, comp, others, kinds)
	if err != nil {
		return nil, err
	}
	return ProveFormula(ctx, labelHolding, f, a)
}

// VerifyHolding checks a proof made by ProveHolding.
func VerifyHolding(ctx Context, X *Element, c Card, comp int, others [][]*Element, kinds []int, p *SigmaProof) error {
	f, err := HoldingFormula(X, c, comp, others, kinds)
	if err != nil {
		return err
	}
	return VerifyFormula(ctx, labelHolding, f, p)
}

// formulaTranscript starts a transcript under ctx and label and absorbs
// the whole formula: its shape, every base, coefficient and public point,
// in depth-first order (SPEC.md §4.3).
func formulaTranscript(ctx Context, label string, f *Formula) *transcriptT {
	t := ctx.transcript(label)
	var buf []byte
	var walk func(g *Formula)
	walk = func(g *Formula) {
		if g.op != opLeaf {
			for _, c := range g.children {
				walk(c)
			}
			return
		}
		for _, eq := range g.leaf.Equations {
			for _, term := range eq.Secret {
				buf = appendElement(buf, term.Base)
			}
			for _, term := range eq.Public {
				if term.Coef == nil {
					buf = append(buf, 0)
				} else {
					buf = append(buf, 1)
					buf = appendScalar(buf, term.Coef)
				}
				buf = appendElement(buf, term.Base)
			}
		}
	}
	walk(f)
	t.Append("formula-points", buf)
	return t
}

// ProveFormula proves a general AND/OR formula of linear statements under
// ctx and a caller-chosen protocol label. The transcript absorbs every
// point and coefficient of f, so the proof binds the whole statement.
func ProveFormula(ctx Context, label string, f *Formula, a Assignment) (*SigmaProof, error) {
	return proveSigma(formulaTranscript(ctx, label, f), f, a)
}

// VerifyFormula checks a proof made by ProveFormula.
func VerifyFormula(ctx Context, label string, f *Formula, p *SigmaProof) error {
	if p == nil {
		return fmt.Errorf("%w: missing proof", ErrProof)
	}
	checks, seed, err := sigmaChecks(formulaTranscript(ctx, label, f), f, p)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("%s: %w", label, ErrProof)
	}
	return nil
}

// MarshalBinary encodes the proof; its length is fixed by the formula.
func (p *SigmaProof) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil), nil }

// UnmarshalSigmaProof decodes a proof for formula f strictly.
func UnmarshalSigmaProof(f *Formula, b []byte) (*SigmaProof, error) {
	r := &reader{b: b}
	p := r.sigma(f, "proof")
	if err := r.done("proof"); err != nil {
		return nil, err
	}
	return p, nil
}
