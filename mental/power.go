package mental

import (
	"crypto/subtle"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// This file is Mafia's powered ballot (SPEC.md §9.2): every living seat
// posts one for each night power, and the proof says
//
//	(my role ∈ R ∧ the ballot is one-hot ∧ my own entry is 0)
//	∨ (my role ∉ R ∧ the ballot is empty)
//
// where "my role" is the role component of the seat's own privately
// viewed card (a viewed-holding statement, §3.9), so a holder cannot
// abstain, a non-holder cannot vote, and nobody learns which branch is
// true.

const labelPowerBallot = "masque/mafia-ballot/v1"

// MaxRoles is the largest number of role kinds a powered ballot or a
// check may range over.
const MaxRoles = 64

// noSelf is the transcript's value of the self index when the voter's own
// entry is not constrained (SPEC.md §9.2).
const noSelf = ^uint64(0)

// PowerStatement is the public statement of one seat's powered ballot
// (SPEC.md §9.2); the voter is the seat of the proof's Context.
type PowerStatement struct {
	// Power is the game's power (a night action), bound into the proof.
	Power uint8
	// Roles are every role kind the role component may hold; Holders
	// (R) are those that hold the power, a non-empty proper subset.
	Roles, Holders []int
	// Targets are the candidate seats, in ballot order: entry i is a
	// vote for Targets[i].
	Targets []uint32
	// SelfAllowed lets a voter that is a target name itself.
	SelfAllowed bool
	// X and Y are the voter's card key and viewing key.
	X, Y *Element
	// Card is the voter's privately viewed (sub-)card, Comp its role
	// component within it, Sent the other seats' shares of Card
	// encrypted to Y (verified where they were posted; a retired seat's
	// from [SecretKey.RetiredEncryptedShare]).
	Card Card
	Comp int
	Sent []*EncryptedShare
}

// PowerBallot is a powered ballot with its proof (SPEC.md §9.2). Entries
// are exponential-ElGamal ciphertexts under the joint key, summed with
// [AddPowerBallots] and opened like any ballot sum (§3.8).
type PowerBallot struct {
	Entries []Ciphertext
	proof   *SigmaProof
	open    *ballotOpening // the caster's secret, for a ballot cast here ([PowerBallot.Secret])
}

// checkKinds rejects an empty, over-long or repeating list of kinds.
func checkKinds(what string, kinds []int) error {
	if len(kinds) == 0 || len(kinds) > MaxRoles {
		return fmt.Errorf("%d %s, want 1..%d", len(kinds), what, MaxRoles)
	}
	for i, k := range kinds {
		if k < 0 {
			return fmt.Errorf("%s[%d] is kind %d", what, i, k)
		}
		for _, j := range kinds[:i] {
			if j == k {
				return fmt.Errorf("%s name kind %d twice", what, k)
			}
		}
	}
	return nil
}

// complementOf returns the kinds of roles not in holders, after checking
// that holders is a subset of roles.
func complementOf(roles, holders []int) ([]int, error) {
	if err := checkKinds("roles", roles); err != nil {
		return nil, err
	}
	if err := checkKinds("holders", holders); err != nil {
		return nil, err
	}
	in := map[int]bool{}
	for _, h := range holders {
		in[h] = true
	}
	var out []int
	for _, r := range roles {
		if !in[r] {
			out = append(out, r)
		}
		delete(in, r)
	}
	for h := range in {
		return nil, fmt.Errorf("holder kind %d is not a role", h)
	}
	return out, nil
}

// checkViewed rejects a malformed viewed card, keys or shares.
func checkViewed(X, Y *Element, c Card, comp int, sent []*EncryptedShare) error {
	if X == nil || Y == nil || isIdentity(X) || isIdentity(Y) {
		return fmt.Errorf("missing or identity card or viewing key")
	}
	if len(c) == 0 || len(c) > MaxWidth {
		return fmt.Errorf("viewed card of width %d, want 1..%d", len(c), MaxWidth)
	}
	for i, ct := range c {
		if ct.A == nil || ct.B == nil {
			return fmt.Errorf("viewed card component %d is missing", i)
		}
	}
	if comp < 0 || comp >= len(c) {
		return fmt.Errorf("role component %d of a width-%d card", comp, len(c))
	}
	for j, es := range sent {
		if es == nil || len(es.E1) != len(c) || len(es.E2) != len(c) {
			return fmt.Errorf("encrypted share %d does not match the card's width %d", j, len(c))
		}
		for k := range c {
			if es.E1[k] == nil || es.E2[k] == nil {
				return fmt.Errorf("encrypted share %d is missing a point", j)
			}
		}
	}
	return nil
}

// shape checks the statement for voter and returns the self index (−1 if
// the voter's entry is unconstrained) and the complement of Holders.
func (st *PowerStatement) shape(voter uint32) (int, []int, error) {
	if st == nil {
		return 0, nil, fmt.Errorf("missing statement")
	}
	others, err := complementOf(st.Roles, st.Holders)
	if err != nil {
		return 0, nil, err
	}
	if len(others) == 0 {
		return 0, nil, fmt.Errorf("every role holds power %d: nobody could abstain", st.Power)
	}
	n := len(st.Targets)
	if n < 1 || n > MaxBallotEntries {
		return 0, nil, fmt.Errorf("%d targets, want 1..%d", n, MaxBallotEntries)
	}
	self := -1
	for i, s := range st.Targets {
		for _, p := range st.Targets[:i] {
			if p == s {
				return 0, nil, fmt.Errorf("target seat %d named twice", s)
			}
		}
		if s == voter && !st.SelfAllowed {
			self = i
		}
	}
	if self >= 0 && n == 1 {
		return 0, nil, fmt.Errorf("the voter is the only target and may not name itself")
	}
	if err := checkViewed(st.X, st.Y, st.Card, st.Comp, st.Sent); err != nil {
		return 0, nil, err
	}
	return self, others, nil
}

// absorbViewed absorbs the voter's keys, viewed card, role component and
// received shares (SPEC.md §9.2, §9.3).
func absorbViewed(t *transcriptT, X, Y *Element, c Card, comp int, sent []*EncryptedShare, keys encodings) {
	absorbElement(t, "X", X, keys)
	absorbElement(t, "Y", Y, keys)
	absorbCard(t, "card", c)
	t.AppendUint64("component", uint64(comp))
	t.AppendUint64("shares/n", uint64(len(sent)))
	for _, es := range sent {
		absorbElements(t, "E1", es.E1, es.known)
		absorbElements(t, "E2", es.E2, es.known)
	}
}

// absorbKinds absorbs a list of kinds as a count and one integer item each.
func absorbKinds(t *transcriptT, label string, kinds []int) {
	t.AppendUint64(label+"/n", uint64(len(kinds)))
	for _, k := range kinds {
		t.AppendUint64(label, uint64(k))
	}
}

// powerStatement starts the transcript of a powered ballot, absorbs the
// whole statement (SPEC.md §9.2) and returns it with the formula.
func powerStatement(ctx Context, jk *JointKey, st *PowerStatement, entries []Ciphertext, keys encodings) (*transcriptT, *Formula, error) {
	if jk == nil || jk.H == nil {
		return nil, nil, fmt.Errorf("missing joint key")
	}
	self, others, err := st.shape(ctx.Seat)
	if err != nil {
		return nil, nil, err
	}
	if len(entries) != len(st.Targets) {
		return nil, nil, fmt.Errorf("ballot of %d entries for %d targets", len(entries), len(st.Targets))
	}
	if err := checkBallotEntries(entries); err != nil {
		return nil, nil, err
	}
	t := ctx.transcript(labelPowerBallot)
	t.Append("H", jk.hBytes())
	t.AppendUint64("power", uint64(st.Power))
	absorbKinds(t, "roles", st.Roles)
	absorbKinds(t, "holders", st.Holders)
	t.AppendUint64("targets/n", uint64(len(st.Targets)))
	for _, s := range st.Targets {
		t.AppendUint64("target", uint64(s))
	}
	if self >= 0 {
		t.AppendUint64("self", uint64(self))
	} else {
		t.AppendUint64("self", noSelf)
	}
	absorbViewed(t, st.X, st.Y, st.Card, st.Comp, st.Sent, keys)
	t.AppendUint64("entries/n", uint64(len(entries)))
	for i := range entries {
		t.Append("entry", entries[i].encoding()[:])
	}
	z := make([]*Scalar, len(entries))
	for i := range z {
		z[i] = t.ChallengeScalar("zero-z")
	}

	in, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, st.Holders)
	if err != nil {
		return nil, nil, err
	}
	out, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, others)
	if err != nil {
		return nil, nil, err
	}
	bb := newBallotBases(jk.H)
	vote := []*Formula{in, ballotEntriesFormula(jk.H, entries), ballotSumLeaf(jk.H, entries, 1)}
	if self >= 0 {
		vote = append(vote, bb.valueLeaf(entries[self], 0))
	}
	return t, Or(And(vote...), And(out, bb.zeroLeaf(entries, z))), nil
}

// zeroLeaf is the statement "every entry encrypts 0", compressed with the
// transcript's coefficients z (drawn after the entries were absorbed):
// one witness w with w·G = Σ z_i·A_i and w·H = Σ z_i·B_i. If some entry
// encrypts v_i·G ≠ 0, the sum encrypts (Σ z_i·v_i)·G, which is 0 only with
// probability 1/ℓ over z (SPEC.md §9.2).
func (bb ballotBases) zeroLeaf(entries []Ciphertext, z []*Scalar) *Formula {
	pa := make([]Term, len(entries))
	pb := make([]Term, len(entries))
	for i, ct := range entries {
		pa[i] = Term{Coef: z[i], Base: ct.A}
		pb[i] = Term{Coef: z[i], Base: ct.B}
	}
	return Leaf(Statement{Witnesses: 1, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: bb.G}}, Public: pa},
		{Secret: []Term{{Witness: 0, Base: bb.H}}, Public: pb},
	}})
}

// viewedPoint returns M = B − Σ_j E2_j + y·Σ_j E1_j − x·A for component
// comp of a privately viewed card: what the card holds, for its viewer.
// One constant-time two-point multiplication.
func viewedPoint(card, view *SecretKey, c Card, comp int, sent []*EncryptedShare) *Element {
	e1 := ristretto.NewIdentityElement()
	m := ristretto.NewIdentityElement().Set(c[comp].B)
	for _, es := range sent {
		e1.Add(e1, es.E1[comp])
		m.Subtract(m, es.E2[comp])
	}
	negx := ristretto.NewScalar().Negate(card.x)
	return m.Add(m, ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{view.x, negx}, []*Element{e1, c[comp].A}))
}

// viewedHoldingAssignment is the assignment of ViewedHoldingFormula over
// kinds for a viewer whose component holds m: each leaf gets (b·x, b·y)
// with b the constant-time bit "m is this kind" (first match only). If m
// is none of kinds (the formula is a false branch of an enclosing OR, to
// be simulated), the first leaf is marked real with zero witnesses. It
// returns the assignment and 1 if m is one of kinds, else 0.
func viewedHoldingAssignment(card, view *SecretKey, m *Element, kinds []int) (Assignment, int) {
	real := make([]int, len(kinds))
	found := 0
	for i, k := range kinds {
		real[i] = m.Equal(sharedCardPoint(k)) & (1 - found)
		found |= real[i]
	}
	a := Assignment{}
	for i := range kinds {
		b := bitScalar(real[i])
		a.Leaves = append(a.Leaves, []*Scalar{
			ristretto.NewScalar().Multiply(b, card.x),
			ristretto.NewScalar().Multiply(b, view.x),
		})
	}
	if len(kinds) == 1 {
		return a, found
	}
	// None found: mark leaf 0 (its witnesses stay zero).
	real[0] |= 1 - found
	a.Real = [][]int{real}
	return a, found
}

// ctIntEq returns 1 if a == b, else 0, for a, b in int32 range, in
// constant time.
func ctIntEq(a, b int) int { return subtle.ConstantTimeEq(int32(a), int32(b)) }

// ProvePowerBallot casts seat ctx.Seat's powered ballot (SPEC.md §9.2): a
// vote for Targets[choice] if its role holds the power, or the empty
// ballot (choice [NoVote]) if it does not, with the proof. card and view
// are the seat's card and viewing keys. It fails, without saying more,
// if the choice does not match the role: a holder must name one target
// (not itself unless SelfAllowed), a non-holder must abstain. The role
// and the choice are never branched on, except for that refusal.
func ProvePowerBallot(ctx Context, jk *JointKey, card, view *SecretKey, st *PowerStatement, choice int) (*PowerBallot, error) {
	self, others, err := st.shape(ctx.Seat)
	if err != nil {
		return nil, fmt.Errorf("mental: power ballot: %w", err)
	}
	if jk == nil || jk.H == nil || card == nil || view == nil {
		return nil, fmt.Errorf("mental: power ballot: missing joint key, card key or viewing key")
	}
	if card.pub.Equal(st.X) != 1 || view.pub.Equal(st.Y) != 1 {
		return nil, fmt.Errorf("mental: power ballot: the keys are not the statement's X and Y")
	}
	n := len(st.Targets)
	if choice < NoVote || choice >= n {
		return nil, fmt.Errorf("mental: power ballot: choice %d out of range for %d targets", choice, n)
	}
	m := viewedPoint(card, view, st.Card, st.Comp, st.Sent)
	inA, holder := viewedHoldingAssignment(card, view, m, st.Holders)
	outA, other := viewedHoldingAssignment(card, view, m, others)
	isNo := ctIntEq(choice, NoVote)
	isSelf := 0
	if self >= 0 { // public
		isSelf = ctIntEq(choice, self)
	}
	ok := (holder & (1 - isNo) & (1 - isSelf)) | (other & isNo)
	if ok != 1 {
		return nil, fmt.Errorf("mental: power ballot: the role component is not one of the roles, or the choice does not match the role (a holder names one legal target, a non-holder abstains)")
	}
	entries, o, err := jk.encryptBallot(n, choice)
	if err != nil {
		return nil, fmt.Errorf("mental: power ballot: %w", err)
	}
	t, f, err := powerStatement(ctx, jk, st, entries, nil)
	if err != nil {
		return nil, fmt.Errorf("mental: power ballot: %w", err)
	}
	zero := f.children[1].children[1].leaf
	// w = Σ z_i·r_i, the witness of "every entry encrypts 0".
	w := ristretto.NewScalar()
	for i, term := range zero.Equations[0].Public {
		w.Add(w, ristretto.NewScalar().Multiply(term.Coef, o.r[i]))
	}
	vote := andAssignment(inA, o.entriesAssignment(), o.sumLeafAssignment())
	if self >= 0 {
		vote = andAssignment(vote, Assignment{Leaves: [][]*Scalar{{o.r[self]}}})
	}
	empty := andAssignment(outA, Assignment{Leaves: [][]*Scalar{{w}}})
	p, err := proveSigma(t, f, orAssignment([]int{holder, 1 - holder}, vote, empty))
	if err != nil {
		return nil, fmt.Errorf("mental: power ballot proof: %w", err)
	}
	return &PowerBallot{Entries: entries, proof: p, open: o}, nil
}

func powerChecks(ctx Context, jk *JointKey, st *PowerStatement, b *PowerBallot, keys encodings) ([]equationCheck, []byte, error) {
	if b == nil || b.proof == nil {
		return nil, nil, fmt.Errorf("%w: missing power ballot proof", ErrProof)
	}
	t, f, err := powerStatement(ctx, jk, st, b.Entries, keys)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: power ballot: %v", ErrProof, err)
	}
	return sigmaChecks(t, f, b.proof)
}

// VerifyPowerBallot checks seat ctx.Seat's powered ballot b for statement
// st under jk (SPEC.md §9.2). Variable time (public data).
func VerifyPowerBallot(ctx Context, jk *JointKey, st *PowerStatement, b *PowerBallot) error {
	checks, seed, err := powerChecks(ctx, jk, st, b, nil)
	if err != nil {
		return fmt.Errorf("power %d ballot of seat %d: %w", powerOf(st), ctx.Seat, err)
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("power %d ballot of seat %d: %w", powerOf(st), ctx.Seat, ErrProof)
	}
	return nil
}

func powerOf(st *PowerStatement) int {
	if st == nil {
		return -1
	}
	return int(st.Power)
}

// AddPowerBallot adds a powered ballot (see [VerifyPowerBallot]).
func (b *Batch) AddPowerBallot(name string, ctx Context, jk *JointKey, st *PowerStatement, pb *PowerBallot) {
	var keys encodings
	if st != nil {
		keys = b.keyEncodings(st.X, st.Y)
	}
	checks, seed, err := powerChecks(ctx, jk, st, pb, keys)
	b.add(name, checks, seed, err)
}

// powerShape is a formula with the shape of a powered ballot's proof (and
// no points), for decoding: nIn and nOut holding leaves, n entries, and a
// self leaf if self.
func powerShape(nIn, nOut, n int, self bool) *Formula {
	leaf := func(w, e int) *Formula { return Leaf(Statement{Witnesses: w, Equations: make([]Equation, e)}) }
	holding := func(k int) *Formula {
		if k == 1 {
			return leaf(2, 3)
		}
		fs := make([]*Formula, k)
		for i := range fs {
			fs[i] = leaf(2, 3)
		}
		return Or(fs...)
	}
	bits := make([]*Formula, n)
	for i := range bits {
		bits[i] = Or(leaf(1, 2), leaf(1, 2))
	}
	vote := []*Formula{holding(nIn), And(bits...), leaf(1, 2)}
	if self {
		vote = append(vote, leaf(1, 2))
	}
	return Or(And(vote...), And(holding(nOut), leaf(1, 2)))
}

// PowerBallotSize returns the encoded size of a powered ballot over n
// targets with nIn holder roles, nOut other roles and a self entry or
// not (SPEC.md §9.2).
func PowerBallotSize(nIn, nOut, n int, self bool) int {
	nc, nm, nr, _ := powerShape(nIn, nOut, n, self).shape()
	return 1 + 64*n + 32*(nc+nm+nr)
}

// MarshalBinary encodes u8(n) ‖ (A_i ‖ B_i)×n ‖ proof (SPEC.md §9.2).
func (b *PowerBallot) MarshalBinary() ([]byte, error) {
	if err := checkBallotEntries(b.Entries); err != nil {
		return nil, fmt.Errorf("mental: power ballot: %w", err)
	}
	if b.proof == nil {
		return nil, fmt.Errorf("mental: power ballot has no proof")
	}
	out := []byte{byte(len(b.Entries))}
	for i := range b.Entries {
		out = append(out, b.Entries[i].encoding()[:]...)
	}
	return b.proof.AppendBinary(out), nil
}

// UnmarshalPowerBallot decodes strictly the powered ballot of seat voter
// for statement st (whose roles, holders, targets and self rule fix the
// proof's shape): entry count equal to the targets', canonical elements
// and scalars, no trailing bytes. It does not verify the proof; call
// [VerifyPowerBallot] or [Batch.AddPowerBallot].
func UnmarshalPowerBallot(data []byte, st *PowerStatement, voter uint32) (*PowerBallot, error) {
	if st == nil {
		return nil, fmt.Errorf("mental: power ballot: missing statement")
	}
	others, err := complementOf(st.Roles, st.Holders)
	if err != nil {
		return nil, fmt.Errorf("mental: power ballot: %w", err)
	}
	n := len(st.Targets)
	if n < 1 || n > MaxBallotEntries || len(others) == 0 {
		return nil, fmt.Errorf("mental: power ballot: statement of %d targets and %d other roles", n, len(others))
	}
	self := false
	for _, s := range st.Targets {
		self = self || (s == voter && !st.SelfAllowed)
	}
	r := &reader{b: data}
	if got := int(r.byte("power ballot size")); r.err == nil && got != n {
		return nil, fmt.Errorf("%w: power ballot of %d entries for %d targets", ErrEncoding, got, n)
	}
	if want := PowerBallotSize(len(st.Holders), len(others), n, self); r.err == nil && len(data) != want {
		return nil, fmt.Errorf("%w: power ballot is %d bytes, want %d", ErrEncoding, len(data), want)
	}
	b := &PowerBallot{Entries: make([]Ciphertext, n)}
	for i := range b.Entries {
		raw := r.b
		b.Entries[i].A = r.element("power ballot entry A")
		b.Entries[i].B = r.element("power ballot entry B")
		if r.err == nil {
			e := &ctEncoding{a: b.Entries[i].A, b: b.Entries[i].B}
			copy(e.bytes[:], raw[:64])
			b.Entries[i].enc = e
		}
	}
	b.proof = r.sigma(powerShape(len(st.Holders), len(others), n, self), "power ballot proof")
	if err := r.done("power ballot"); err != nil {
		return nil, err
	}
	return b, nil
}

// AddPowerBallots returns the component-wise sum of 1..MaxTally powered
// ballots of one power (SPEC.md §3.8): entry i encrypts the number of
// ballots naming Targets[i]. It does not verify them: verify each first.
// Open components with [BallotSum.Component] and [OpenTally].
func AddPowerBallots(bs ...*PowerBallot) (BallotSum, error) {
	plain := make([]*Ballot, len(bs))
	for i, b := range bs {
		if b == nil {
			return nil, fmt.Errorf("mental: power ballot %d is missing", i)
		}
		plain[i] = &Ballot{Entries: b.Entries}
	}
	return AddBallots(plain...)
}
