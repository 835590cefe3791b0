package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// This file is Mafia's Commissar check (SPEC.md §9.3): every living seat
// posts a ciphertext Q with the proof
//
//	(my role ∈ R ∧ Q re-masks component TargetComp of a target's card, not mine)
//	∨ ([my role ∉ R ∧] Q re-masks the face-up card Neutral)
//
// (the bracket when the check is mandatory), then views Q privately
// through encrypted shares: the Commissar reads the target's team,
// everyone else reads Neutral, and nobody else learns anything.

const labelCheck = "masque/mafia-check/v1"

// CheckStatement is the public statement of one seat's check (SPEC.md
// §9.3); the checker is the seat of the proof's Context.
type CheckStatement struct {
	// Holders (R) are the role kinds that may check.
	Holders []int
	// Mandatory: a holder must check a target, and only a seat whose role
	// is one of Roles but not of Holders may post the neutral card. When
	// false, any seat may post the neutral card (a holder may skip) and
	// Roles is unused (it must then be empty).
	Mandatory bool
	Roles     []int
	// X, Y, Card, Comp and Sent: the checker's card key, viewing key,
	// privately viewed (sub-)card, its role component and the shares it
	// received (as for [PowerStatement]).
	X, Y *Element
	Card Card
	Comp int
	Sent []*EncryptedShare
	// Targets are the candidate seats; TargetCards[k] is the whole card of
	// Targets[k] (as it lies on the table) and TargetComp the component
	// of it a check re-masks (the team). The checker's own seat, if
	// listed, is never a valid target. TargetComp must never be a
	// component that may hold the group secret (SPEC.md §9.1).
	Targets     []uint32
	TargetCards []Card
	TargetComp  int
	// Neutral is the kind of the face-up card a non-checking seat
	// re-masks ("not mafia").
	Neutral int
}

// Check is a seat's posted check (SPEC.md §9.3): the width-1 card Q and
// its proof. Every other seat then sends its share of Q encrypted to the
// checker's viewing key ([SecretKey.EncryptShare] of Q, checked with
// [VerifyEncryptedShare] or [Batch.AddEncryptedShare]); the checker reads
// it with [SecretKey.ViewedPoints].
type Check struct {
	Q     Card
	proof *SigmaProof
}

// shape checks the statement for checker and returns the indices of the
// valid targets (every target but the checker) and, if mandatory, the
// complement of Holders in Roles.
func (st *CheckStatement) shape(checker uint32) ([]int, []int, error) {
	if st == nil {
		return nil, nil, fmt.Errorf("missing statement")
	}
	var others []int
	if st.Mandatory {
		var err error
		if others, err = complementOf(st.Roles, st.Holders); err != nil {
			return nil, nil, err
		}
		if len(others) == 0 {
			return nil, nil, fmt.Errorf("every role may check: nobody could post the neutral card")
		}
	} else {
		if err := checkKinds("holders", st.Holders); err != nil {
			return nil, nil, err
		}
		if len(st.Roles) != 0 {
			return nil, nil, fmt.Errorf("roles given for a check that is not mandatory")
		}
	}
	if st.Neutral < 0 {
		return nil, nil, fmt.Errorf("neutral kind %d", st.Neutral)
	}
	if len(st.Targets) != len(st.TargetCards) {
		return nil, nil, fmt.Errorf("%d targets but %d target cards", len(st.Targets), len(st.TargetCards))
	}
	if len(st.Targets) > MaxBallotEntries {
		return nil, nil, fmt.Errorf("%d targets, want at most %d", len(st.Targets), MaxBallotEntries)
	}
	var valid []int
	for i, s := range st.Targets {
		for _, p := range st.Targets[:i] {
			if p == s {
				return nil, nil, fmt.Errorf("target seat %d named twice", s)
			}
		}
		c := st.TargetCards[i]
		if len(c) == 0 || len(c) > MaxWidth || st.TargetComp < 0 || st.TargetComp >= len(c) {
			return nil, nil, fmt.Errorf("target %d: component %d of a width-%d card", i, st.TargetComp, len(c))
		}
		for k, ct := range c {
			if ct.A == nil || ct.B == nil {
				return nil, nil, fmt.Errorf("target %d: card component %d is missing", i, k)
			}
		}
		if s != checker {
			valid = append(valid, i)
		}
	}
	if len(valid) == 0 {
		return nil, nil, fmt.Errorf("no target other than the checker")
	}
	if err := checkViewed(st.X, st.Y, st.Card, st.Comp, st.Sent); err != nil {
		return nil, nil, err
	}
	return valid, others, nil
}

// remaskLeaf is "Q re-masks ct": one witness s with s·G = Q.A − ct.A and
// s·H = Q.B − ct.B, written as two public terms each so that a batch
// merges Q's and the targets' points across leaves and proofs. A nil
// ct.A is the identity (a face-up card).
func remaskLeaf(H *Element, Q Ciphertext, ctA, ctB *Element) *Formula {
	minus1 := ristretto.NewScalar().Negate(bitScalar(1))
	pa := []Term{{Base: Q.A}}
	va := Q.A
	if ctA != nil {
		pa = append(pa, Term{Coef: minus1, Base: ctA})
		va = ristretto.NewIdentityElement().Subtract(Q.A, ctA)
	}
	// The values Q − C by subtraction, for the prover (verifiers never
	// read them).
	return Leaf(Statement{Witnesses: 1, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: generator}}, Public: pa, value: va},
		{Secret: []Term{{Witness: 0, Base: H}}, Public: []Term{{Base: Q.B}, {Coef: minus1, Base: ctB}},
			value: ristretto.NewIdentityElement().Subtract(Q.B, ctB)},
	}})
}

// checkStatement starts the transcript of a check, absorbs the whole
// statement (SPEC.md §9.3) and returns it with the formula.
func checkStatement(ctx Context, jk *JointKey, st *CheckStatement, Q Card, keys encodings) (*transcriptT, *Formula, error) {
	if jk == nil || jk.H == nil {
		return nil, nil, fmt.Errorf("missing joint key")
	}
	valid, others, err := st.shape(ctx.Seat)
	if err != nil {
		return nil, nil, err
	}
	if len(Q) != 1 || Q[0].A == nil || Q[0].B == nil {
		return nil, nil, fmt.Errorf("the check is not a width-1 card")
	}
	t := ctx.transcript(labelCheck)
	t.Append("H", jk.hBytes())
	absorbKinds(t, "holders", st.Holders)
	mandatory := uint64(0)
	if st.Mandatory {
		mandatory = 1
	}
	t.AppendUint64("mandatory", mandatory)
	absorbKinds(t, "roles", st.Roles)
	absorbViewed(t, st.X, st.Y, st.Card, st.Comp, st.Sent, keys)
	t.AppendUint64("targets/n", uint64(len(st.Targets)))
	for i, s := range st.Targets {
		t.AppendUint64("target", uint64(s))
		absorbCard(t, "target-card", st.TargetCards[i])
	}
	t.AppendUint64("target-component", uint64(st.TargetComp))
	t.AppendUint64("neutral", uint64(st.Neutral))
	absorbCard(t, "Q", Q)

	in, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, st.Holders)
	if err != nil {
		return nil, nil, err
	}
	var picks []*Formula
	for _, i := range valid {
		ct := st.TargetCards[i][st.TargetComp]
		picks = append(picks, remaskLeaf(jk.H, Q[0], ct.A, ct.B))
	}
	pick := picks[0]
	if len(picks) > 1 {
		pick = Or(picks...)
	}
	neutral := remaskLeaf(jk.H, Q[0], nil, sharedCardPoint(st.Neutral))
	if st.Mandatory {
		out, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, others)
		if err != nil {
			return nil, nil, err
		}
		neutral = And(out, neutral)
	}
	return t, Or(And(in, pick), neutral), nil
}

// ProveCheck makes seat ctx.Seat's check (SPEC.md §9.3): a re-masking of
// component TargetComp of Targets[target]'s card if its role is one of
// Holders, or of the neutral card (target [NoVote]). card and view are
// the seat's card and viewing keys. It fails, without saying more, if the
// choice does not match the role (a holder may skip only when the check
// is not mandatory; a non-holder must skip; nobody checks itself). The
// role and the target are never branched on, except for that refusal.
func ProveCheck(ctx Context, jk *JointKey, card, view *SecretKey, st *CheckStatement, target int) (*Check, error) {
	valid, others, err := st.shape(ctx.Seat)
	if err != nil {
		return nil, fmt.Errorf("mental: check: %w", err)
	}
	if jk == nil || jk.H == nil || card == nil || view == nil {
		return nil, fmt.Errorf("mental: check: missing joint key, card key or viewing key")
	}
	if card.pub.Equal(st.X) != 1 || view.pub.Equal(st.Y) != 1 {
		return nil, fmt.Errorf("mental: check: the keys are not the statement's X and Y")
	}
	if target < NoVote || target >= len(st.Targets) {
		return nil, fmt.Errorf("mental: check: target %d out of range for %d targets", target, len(st.Targets))
	}
	m := viewedPoint(card, view, st.Card, st.Comp, st.Sent)
	inA, holder := viewedHoldingAssignment(card, view, m, st.Holders)
	isNo := ctIntEq(target, NoVote)
	// pickReal[k]: the k-th valid target is the one checked.
	pickReal := make([]int, len(valid))
	hit := 0
	for k, i := range valid {
		pickReal[k] = ctIntEq(target, i)
		hit |= pickReal[k]
	}
	ok := holder & hit
	var outA Assignment
	if st.Mandatory {
		var other int
		outA, other = viewedHoldingAssignment(card, view, m, others)
		ok |= other & isNo
	} else {
		ok |= isNo
	}
	if ok != 1 {
		return nil, fmt.Errorf("mental: check: the role component is not one of the roles, or the choice does not match the role (a checker names one target other than itself; a non-checker skips)")
	}
	real := holder & hit // 1: check a target; 0: the neutral card
	// The source ciphertext, selected in constant time among the neutral
	// card and every valid target's component.
	srcA := ristretto.NewIdentityElement()
	srcB := ristretto.NewIdentityElement().Set(CardPoint(st.Neutral))
	for k, i := range valid {
		ct := st.TargetCards[i][st.TargetComp]
		srcA.Select(ct.A, srcA, pickReal[k]&real)
		srcB.Select(ct.B, srcB, pickReal[k]&real)
	}
	s := randomScalar()
	qa := ristretto.NewIdentityElement().ScalarBaseMult(s)
	qb := ristretto.NewIdentityElement().ScalarMult(s, jk.H)
	Q := Card{{A: qa.Add(qa, srcA), B: qb.Add(qb, srcB)}}

	t, f, err := checkStatement(ctx, jk, st, Q, nil)
	if err != nil {
		return nil, fmt.Errorf("mental: check: %w", err)
	}
	// Every re-mask leaf gets s (the simulated ones ignore it).
	var pickA Assignment
	for range valid {
		pickA.Leaves = append(pickA.Leaves, []*Scalar{s})
	}
	if len(valid) > 1 {
		// Under a simulated branch, one leaf must still be marked.
		pickReal[0] |= 1 - hit
		pickA.Real = [][]int{pickReal}
	}
	sLeaf := Assignment{Leaves: [][]*Scalar{{s}}}
	neutralA := sLeaf
	if st.Mandatory {
		neutralA = andAssignment(outA, sLeaf)
	}
	p, err := proveSigma(t, f, orAssignment([]int{real, 1 - real}, andAssignment(inA, pickA), neutralA))
	if err != nil {
		return nil, fmt.Errorf("mental: check proof: %w", err)
	}
	return &Check{Q: Q, proof: p}, nil
}

func checkChecks(ctx Context, jk *JointKey, st *CheckStatement, c *Check, keys encodings) ([]equationCheck, []byte, error) {
	if c == nil || c.proof == nil {
		return nil, nil, fmt.Errorf("%w: missing check proof", ErrProof)
	}
	t, f, err := checkStatement(ctx, jk, st, c.Q, keys)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: check: %v", ErrProof, err)
	}
	return sigmaChecks(t, f, c.proof)
}

// VerifyCheck checks seat ctx.Seat's check c for statement st under jk
// (SPEC.md §9.3). Variable time (public data).
func VerifyCheck(ctx Context, jk *JointKey, st *CheckStatement, c *Check) error {
	checks, seed, err := checkChecks(ctx, jk, st, c, nil)
	if err != nil {
		return fmt.Errorf("check of seat %d: %w", ctx.Seat, err)
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("check of seat %d: %w", ctx.Seat, ErrProof)
	}
	return nil
}

// AddCheck adds a check (see [VerifyCheck]).
func (b *Batch) AddCheck(name string, ctx Context, jk *JointKey, st *CheckStatement, c *Check) {
	var keys encodings
	if st != nil {
		keys = b.keyEncodings(st.X, st.Y)
	}
	checks, seed, err := checkChecks(ctx, jk, st, c, keys)
	b.add(name, checks, seed, err)
}

// checkShape is a formula with the shape of a check's proof (and no
// points), for decoding: nIn holder roles, nValid valid targets, and nOut
// other roles if mandatory (0 if not).
func checkShape(nIn, nValid, nOut int) *Formula {
	leaf := func(w, e int) *Formula { return Leaf(Statement{Witnesses: w, Equations: make([]Equation, e)}) }
	ors := func(k int, f func() *Formula) *Formula {
		if k == 1 {
			return f()
		}
		fs := make([]*Formula, k)
		for i := range fs {
			fs[i] = f()
		}
		return Or(fs...)
	}
	holding := func() *Formula { return leaf(2, 3) }
	remask := func() *Formula { return leaf(1, 2) }
	neutral := remask()
	if nOut > 0 {
		neutral = And(ors(nOut, holding), neutral)
	}
	return Or(And(ors(nIn, holding), ors(nValid, remask)), neutral)
}

// CheckSize returns the encoded size of a check with nIn holder roles,
// nValid valid targets and nOut other roles (0 unless mandatory).
func CheckSize(nIn, nValid, nOut int) int {
	nc, nm, nr, _ := checkShape(nIn, nValid, nOut).shape()
	return 64 + 32*(nc+nm+nr)
}

// MarshalBinary encodes Q.A ‖ Q.B ‖ proof (SPEC.md §9.3).
func (c *Check) MarshalBinary() ([]byte, error) {
	if len(c.Q) != 1 || c.Q[0].A == nil || c.Q[0].B == nil || c.proof == nil {
		return nil, fmt.Errorf("mental: check is not a width-1 card with a proof")
	}
	out := append([]byte{}, c.Q[0].encoding()[:]...)
	return c.proof.AppendBinary(out), nil
}

// UnmarshalCheck decodes strictly the check of seat checker for statement
// st (whose holders, roles, targets and mandatory rule fix the proof's
// shape). It does not verify the proof; call [VerifyCheck] or
// [Batch.AddCheck].
func UnmarshalCheck(data []byte, st *CheckStatement, checker uint32) (*Check, error) {
	if st == nil {
		return nil, fmt.Errorf("mental: check: missing statement")
	}
	if err := checkKinds("holders", st.Holders); err != nil {
		return nil, fmt.Errorf("mental: check: %w", err)
	}
	nOut := 0
	if st.Mandatory {
		others, err := complementOf(st.Roles, st.Holders)
		if err != nil {
			return nil, fmt.Errorf("mental: check: %w", err)
		}
		nOut = len(others)
		if nOut == 0 {
			return nil, fmt.Errorf("mental: check: every role may check")
		}
	}
	nValid := 0
	for _, s := range st.Targets {
		if s != checker {
			nValid++
		}
	}
	if nValid == 0 || len(st.Targets) > MaxBallotEntries {
		return nil, fmt.Errorf("mental: check: statement of %d targets, %d other than the checker", len(st.Targets), nValid)
	}
	if want := CheckSize(len(st.Holders), nValid, nOut); len(data) != want {
		return nil, fmt.Errorf("%w: check is %d bytes, want %d", ErrEncoding, len(data), want)
	}
	r := &reader{b: data}
	raw := r.b
	ct := Ciphertext{A: r.element("check Q.A"), B: r.element("check Q.B")}
	if r.err == nil {
		e := &ctEncoding{a: ct.A, b: ct.B}
		copy(e.bytes[:], raw[:64])
		ct.enc = e
	}
	p := r.sigma(checkShape(len(st.Holders), nValid, nOut), "check proof")
	if err := r.done("check"); err != nil {
		return nil, err
	}
	return &Check{Q: Card{ct}, proof: p}, nil
}
