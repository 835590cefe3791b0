package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
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
	minus1 := ristretto.NewScalar().Negate(bitScalar(1))
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
		pub := append(append([]Term{}, base...), Term{Coef: minus1, Base: sharedCardPoint(m)})
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
		leaves[i] = []*Scalar{ristretto.NewScalar().Multiply(bitScalar(real[i]), k.x)}
	}
	if found == 0 {
		return Assignment{}, fmt.Errorf("mental: holding: the card is none of the %d kinds claimed", len(kinds))
	}
	// A duplicated kind would mark two branches; keep only the first.
	seen := 0
	for i := range real {
		real[i] &= 1 - seen
		seen |= real[i]
		leaves[i][0] = ristretto.NewScalar().Multiply(bitScalar(real[i]), k.x)
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

const labelViewedHolding = "masque/viewed-holding/v1"

// ViewedHoldingFormula is HoldingFormula for a card its holder viewed
// privately (SPEC.md §3.9): the other seats' shares are not public, only
// the encrypted shares sent to the holder's viewing key Y are. Since each
// decrypts as D_j = E2_j − y·E1_j, for each kind m in kinds the leaf is
//
//	x·A − y·Σ_j E1_j = B − Σ_j E2_j − M_m   and   x·G = X   and   y·G = Y
//
// with witnesses x (the card key) and y (the viewing key), and the formula
// is the OR of these leaves. sent holds, for each other seat, its
// encrypted share of c to Y; their proofs are checked where they were
// posted, and bind D_j to the seats' card keys.
func ViewedHoldingFormula(X, Y *Element, c Card, comp int, sent []*EncryptedShare, kinds []int) (*Formula, error) {
	if comp < 0 || comp >= len(c) {
		return nil, fmt.Errorf("mental: holding: component %d of a width-%d card", comp, len(c))
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("mental: holding: empty set of kinds")
	}
	minus1 := ristretto.NewScalar().Negate(bitScalar(1))
	e1 := ristretto.NewIdentityElement()
	base := []Term{{Base: c[comp].B}}
	for j, es := range sent {
		if es == nil || len(es.E1) != len(c) || len(es.E2) != len(c) {
			return nil, fmt.Errorf("mental: holding: encrypted share %d does not match the card's width %d", j, len(c))
		}
		e1.Add(e1, es.E1[comp])
		base = append(base, Term{Coef: minus1, Base: es.E2[comp]})
	}
	negE1 := ristretto.NewIdentityElement().Negate(e1)
	// B − Σ E2, by additions: a prover's public values (below) come from
	// it with one subtraction per kind, not a multi-scalar multiplication
	// by −1 over every share.
	open := ristretto.NewIdentityElement().Set(c[comp].B)
	for _, es := range sent {
		open.Subtract(open, es.E2[comp])
	}
	G := generator
	var leaves []*Formula
	for _, m := range kinds {
		M := sharedCardPoint(m)
		pub := append(append([]Term{}, base...), Term{Coef: minus1, Base: M})
		leaves = append(leaves, Leaf(Statement{Witnesses: 2, Equations: []Equation{
			{Secret: []Term{{Witness: 0, Base: c[comp].A}, {Witness: 1, Base: negE1}}, Public: pub,
				value: ristretto.NewIdentityElement().Subtract(open, M)},
			{Secret: []Term{{Witness: 0, Base: G}}, Public: []Term{{Base: X}}},
			{Secret: []Term{{Witness: 1, Base: G}}, Public: []Term{{Base: Y}}},
		}}))
	}
	if len(leaves) == 1 {
		return leaves[0], nil
	}
	return Or(leaves...), nil
}

// ProveViewedHolding proves, as the holder with card key card and viewing
// key view, that component comp of c is one of kinds, from the encrypted
// shares sent to view (SPEC.md §3.9), bound to ctx. It fails if the card
// is none of kinds. Constant time in the keys and in which kind it is.
func ProveViewedHolding(ctx Context, card, view *SecretKey, c Card, comp int, sent []*EncryptedShare, kinds []int) (*SigmaProof, error) {
	f, err := ViewedHoldingFormula(card.pub, view.pub, c, comp, sent, kinds)
	if err != nil {
		return nil, err
	}
	var others [][]*Element
	for _, es := range sent {
		others = append(others, view.Decrypt(es))
	}
	a, err := card.HoldingAssignment(c, comp, others, kinds)
	if err != nil {
		return nil, err
	}
	// Each leaf's second witness is the viewing key, where the first is
	// the card key: b·y where the assignment holds b·x.
	for i := range kinds {
		real := 1
		if len(kinds) > 1 {
			real = a.Real[0][i]
		}
		a.Leaves[i] = append(a.Leaves[i], ristretto.NewScalar().Multiply(bitScalar(real), view.x))
	}
	return ProveFormula(ctx, labelViewedHolding, f, a)
}

// VerifyViewedHolding checks a proof made by ProveViewedHolding: X is the
// holder's card key, Y its viewing key.
func VerifyViewedHolding(ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kinds []int, p *SigmaProof) error {
	f, err := ViewedHoldingFormula(X, Y, c, comp, sent, kinds)
	if err != nil {
		return err
	}
	return VerifyFormula(ctx, labelViewedHolding, f, p)
}
