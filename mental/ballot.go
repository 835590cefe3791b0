package mental

import (
	"crypto/subtle"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// This file implements encrypted ballots (SPEC.md §3.8): vectors of
// exponential-ElGamal ciphertexts under the joint key, entry i being
// (r_i·G, v_i·G + r_i·H) with v_i ∈ {0,1}, and a proof that every entry is 0
// or 1 and that their sum is 0 or 1 (a one-hot or an empty ballot). Ballots
// add up homomorphically; the table decrypts only the components the rules
// announce, each as a width-1 card with ordinary decryption shares.

const labelBallot = "masque/ballot/v1"

// Ballot limits (SPEC.md §3.8).
const (
	// MaxBallotEntries is the largest number of entries in one ballot.
	MaxBallotEntries = 64
	// MaxTally is the largest count a tally component can hold: AddBallots
	// sums at most this many ballots, and TallyCount looks up 0..MaxTally.
	MaxTally = 64
	// NoVote is the choice that casts an empty ballot (every entry 0).
	NoVote = -1
)

// Ballot is an encrypted ballot with its proof (SPEC.md §3.8). Entries[i]
// encrypts v_i·G under the joint key; the proof shows every v_i ∈ {0,1}
// and Σ v_i ∈ {0,1}. Entries are public; decode with [UnmarshalBallot] and
// check with [VerifyBallot] before using them.
type Ballot struct {
	Entries []Ciphertext
	proof   *SigmaProof
	open    *ballotOpening // the caster's secret, for a ballot cast here ([Ballot.Secret])
}

// ballotOpening is the caster's secret: every entry's randomness and bit,
// the sum's randomness Σ r_i and the sum's value Σ v_i ∈ {0,1}. Bits are
// ints in {0,1} and are only ever used arithmetically.
type ballotOpening struct {
	r     []*Scalar
	v     []int
	rSum  *Scalar
	total int
}

// encryptBallot encrypts the one-hot vector of length n with a 1 at
// choice, or the all-zero vector if choice is NoVote. It runs in time
// independent of choice (only its range is checked, with a branch).
func (k *JointKey) encryptBallot(n, choice int) ([]Ciphertext, *ballotOpening, error) {
	if n < 1 || n > MaxBallotEntries {
		return nil, nil, fmt.Errorf("mental: ballot of %d entries, want 1..%d", n, MaxBallotEntries)
	}
	if choice != NoVote && (choice < 0 || choice >= n) {
		return nil, nil, fmt.Errorf("mental: ballot choice %d out of range for %d entries", choice, n)
	}
	G := generator
	o := &ballotOpening{r: randomScalars(n), v: make([]int, n), rSum: ristretto.NewScalar()}
	entries := make([]Ciphertext, n)
	for i := range n {
		// choice is -1 or in range, so the comparison fits in int32.
		o.v[i] = subtle.ConstantTimeEq(int32(i), int32(choice))
		o.total += o.v[i]
		o.rSum.Add(o.rSum, o.r[i])
		entries[i] = Ciphertext{
			A: ristretto.NewIdentityElement().ScalarBaseMult(o.r[i]),
			B: ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{bitScalar(o.v[i]), o.r[i]}, []*Element{G, k.H}),
		}
	}
	return entries, o, nil
}

// ballotBases holds the shared generator and joint key, one pointer each,
// so that batch verification merges their terms into one.
type ballotBases struct {
	G, H *Element
}

func newBallotBases(H *Element) ballotBases {
	return ballotBases{G: generator, H: H}
}

// valueLeaf is the statement "(A, B) encrypts v·G" for a public v ∈ {0,1}:
// one witness r with r·G = A and r·H = B - v·G.
func (bb ballotBases) valueLeaf(ct Ciphertext, v int) *Formula {
	// B - v·G is computed here rather than written as B + (-1)·G, so the
	// prover's simulation needs no scalar multiplication for it.
	pubB := []Term{{Base: ct.B}}
	if v == 1 {
		pubB = []Term{{Base: ristretto.NewIdentityElement().Subtract(ct.B, bb.G)}}
	}
	return Leaf(Statement{Witnesses: 1, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: bb.G}}, Public: []Term{{Base: ct.A}}},
		{Secret: []Term{{Witness: 0, Base: bb.H}}, Public: pubB},
	}})
}

// bitFormula is OR(ct encrypts 0, ct encrypts 1).
func (bb ballotBases) bitFormula(ct Ciphertext) *Formula {
	return Or(bb.valueLeaf(ct, 0), bb.valueLeaf(ct, 1))
}

// ballotSumCiphertext returns the component-wise sum of entries.
func ballotSumCiphertext(entries []Ciphertext) Ciphertext {
	s := Ciphertext{A: ristretto.NewIdentityElement(), B: ristretto.NewIdentityElement()}
	for _, ct := range entries {
		s.A.Add(s.A, ct.A)
		s.B.Add(s.B, ct.B)
	}
	return s
}

// ballotEntriesFormula is AND over entries of OR(entry is 0, entry is 1).
// Its assignment is [ballotOpening.entriesAssignment].
func ballotEntriesFormula(H *Element, entries []Ciphertext) *Formula {
	bb := newBallotBases(H)
	fs := make([]*Formula, len(entries))
	for i, ct := range entries {
		fs[i] = bb.bitFormula(ct)
	}
	return And(fs...)
}

// ballotSumLeaf is the single statement "the sum of entries encrypts v"
// for a public v ∈ {0,1}, witness Σ r_i. Games compose it: "my role holds
// this power AND the sum is 1, OR the sum is 0". Its assignment is
// [ballotOpening.sumLeafAssignment].
func ballotSumLeaf(H *Element, entries []Ciphertext, v int) *Formula {
	return newBallotBases(H).valueLeaf(ballotSumCiphertext(entries), v)
}

// ballotSumFormula is OR(sum is 0, sum is 1). Its assignment is
// [ballotOpening.sumAssignment].
func ballotSumFormula(H *Element, entries []Ciphertext) *Formula {
	return Or(ballotSumLeaf(H, entries, 0), ballotSumLeaf(H, entries, 1))
}

// ballotFormula is the whole ballot statement (SPEC.md §3.8):
// AND(entries are bits, OR(sum is 0, sum is 1)).
func ballotFormula(H *Element, entries []Ciphertext) *Formula {
	return And(ballotEntriesFormula(H, entries), ballotSumFormula(H, entries))
}

// ballotShape is a formula with the shape of a ballot proof of n entries
// and no points, for decoding.
func ballotShape(n int) *Formula {
	leaf := func() *Formula { return Leaf(Statement{Witnesses: 1, Equations: make([]Equation, 2)}) }
	fs := make([]*Formula, n)
	for i := range fs {
		fs[i] = Or(leaf(), leaf())
	}
	return And(And(fs...), Or(leaf(), leaf()))
}

// entriesAssignment is the assignment of ballotEntriesFormula: both leaves
// of entry i get r_i (the simulated one ignores it) and the real branch is
// the bit, chosen without branching.
func (o *ballotOpening) entriesAssignment() Assignment {
	a := Assignment{}
	for i, r := range o.r {
		a.Leaves = append(a.Leaves, []*Scalar{r}, []*Scalar{r})
		a.Real = append(a.Real, []int{1 - o.v[i], o.v[i]})
	}
	return a
}

// sumLeafAssignment is the assignment of one ballotSumLeaf.
func (o *ballotOpening) sumLeafAssignment() Assignment {
	return Assignment{Leaves: [][]*Scalar{{o.rSum}}}
}

// sumAssignment is the assignment of ballotSumFormula.
func (o *ballotOpening) sumAssignment() Assignment {
	return orAssignment([]int{1 - o.total, o.total}, o.sumLeafAssignment(), o.sumLeafAssignment())
}

// assignment is the assignment of ballotFormula.
func (o *ballotOpening) assignment() Assignment {
	return andAssignment(o.entriesAssignment(), o.sumAssignment())
}

// andAssignment is the assignment of And(f_1, ..., f_n) given the
// assignments of the f_i: leaves and OR bits concatenated in order (the
// depth-first order of Assignment).
func andAssignment(parts ...Assignment) Assignment {
	var a Assignment
	for _, p := range parts {
		a.Leaves = append(a.Leaves, p.Leaves...)
		a.Real = append(a.Real, p.Real...)
	}
	return a
}

// orAssignment is the assignment of Or(f_1, ..., f_n) given the
// assignments of the f_i and the node's real bits (exactly one 1): the
// node's bits come first, then its children's, in pre-order.
func orAssignment(real []int, parts ...Assignment) Assignment {
	a := andAssignment(parts...)
	a.Real = append([][]int{real}, a.Real...)
	return a
}

// CastBallot encrypts a ballot of n entries under the joint key with a 1
// at choice (or no 1 at all if choice is NoVote) and proves it well formed,
// bound to ctx (SPEC.md §3.8). The choice is never branched on.
func (k *JointKey) CastBallot(ctx Context, n, choice int) (*Ballot, error) {
	entries, o, err := k.encryptBallot(n, choice)
	if err != nil {
		return nil, err
	}
	p, err := ProveFormula(ctx, labelBallot, ballotFormula(k.H, entries), o.assignment())
	if err != nil {
		return nil, fmt.Errorf("mental: ballot proof: %w", err)
	}
	return &Ballot{Entries: entries, proof: p, open: o}, nil
}

// checkBallotEntries rejects a malformed entry vector.
func checkBallotEntries(entries []Ciphertext) error {
	if len(entries) < 1 || len(entries) > MaxBallotEntries {
		return fmt.Errorf("%w: ballot of %d entries, want 1..%d", ErrProof, len(entries), MaxBallotEntries)
	}
	for i, ct := range entries {
		if ct.A == nil || ct.B == nil {
			return fmt.Errorf("%w: ballot entry %d is missing", ErrProof, i)
		}
	}
	return nil
}

// VerifyBallot checks that b is a well-formed ballot under jk made under
// ctx: every entry encrypts 0 or 1 and at most one entry encrypts 1
// (SPEC.md §3.8). Variable time (public data).
func VerifyBallot(ctx Context, jk *JointKey, b *Ballot) error {
	if b == nil || b.proof == nil {
		return fmt.Errorf("ballot: %w: missing proof", ErrProof)
	}
	if err := checkBallotEntries(b.Entries); err != nil {
		return fmt.Errorf("ballot: %w", err)
	}
	if err := VerifyFormula(ctx, labelBallot, ballotFormula(jk.H, b.Entries), b.proof); err != nil {
		return fmt.Errorf("ballot of seat %d: %w", ctx.Seat, err)
	}
	return nil
}

// ballotProofSize is the encoded size of the proof of an n-entry ballot:
// per OR node one challenge, four commitments and two responses.
func ballotProofSize(n int) int { return 7 * 32 * (n + 1) }

// MarshalBinary encodes n (one byte) || (A_i || B_i) for each entry ||
// proof (SPEC.md §6): 1 + 64n + 224(n+1) bytes.
func (b *Ballot) MarshalBinary() ([]byte, error) {
	if err := checkBallotEntries(b.Entries); err != nil {
		return nil, fmt.Errorf("mental: ballot: %w", err)
	}
	if b.proof == nil {
		return nil, fmt.Errorf("mental: ballot has no proof")
	}
	out := make([]byte, 0, 1+64*len(b.Entries)+ballotProofSize(len(b.Entries)))
	out = append(out, byte(len(b.Entries)))
	for i := range b.Entries {
		out = append(out, b.Entries[i].encoding()[:]...)
	}
	return b.proof.AppendBinary(out), nil
}

// UnmarshalBallot decodes a ballot strictly: entry count 1..64, canonical
// elements and scalars, no trailing bytes. It does not verify the proof;
// call VerifyBallot.
func UnmarshalBallot(data []byte) (*Ballot, error) {
	r := &reader{b: data}
	n := int(r.byte("ballot size"))
	if r.err != nil {
		return nil, r.err
	}
	if n < 1 || n > MaxBallotEntries {
		return nil, fmt.Errorf("%w: ballot of %d entries, want 1..%d", ErrEncoding, n, MaxBallotEntries)
	}
	if len(r.b) != 64*n+ballotProofSize(n) {
		return nil, fmt.Errorf("%w: ballot of %d entries is %d bytes, want %d", ErrEncoding, n, len(data), 1+64*n+ballotProofSize(n))
	}
	b := &Ballot{Entries: make([]Ciphertext, n)}
	for i := range b.Entries {
		b.Entries[i].A = r.element("ballot entry A")
		b.Entries[i].B = r.element("ballot entry B")
	}
	b.proof = r.sigma(ballotShape(n), "ballot proof")
	if err := r.done("ballot"); err != nil {
		return nil, err
	}
	return b, nil
}

// BallotSum is the component-wise sum of ballots (SPEC.md §3.8): entry i
// encrypts the number of ballots whose entry i is 1.
type BallotSum []Ciphertext

// AddBallots returns the component-wise sum of 1..MaxTally ballots of the
// same size. It does not verify them: verify each with VerifyBallot first.
func AddBallots(bs ...*Ballot) (BallotSum, error) {
	if len(bs) == 0 || len(bs) > MaxTally {
		return nil, fmt.Errorf("mental: adding %d ballots, want 1..%d", len(bs), MaxTally)
	}
	n := len(bs[0].Entries)
	sum := make(BallotSum, n)
	for i := range sum {
		sum[i] = Ciphertext{A: ristretto.NewIdentityElement(), B: ristretto.NewIdentityElement()}
	}
	for j, b := range bs {
		if err := checkBallotEntries(b.Entries); err != nil {
			return nil, fmt.Errorf("mental: ballot %d: %w", j, err)
		}
		if len(b.Entries) != n {
			return nil, fmt.Errorf("mental: ballot %d has %d entries, ballot 0 has %d", j, len(b.Entries), n)
		}
		for i, ct := range b.Entries {
			sum[i].A.Add(sum[i].A, ct.A)
			sum[i].B.Add(sum[i].B, ct.B)
		}
	}
	return sum, nil
}

// Plus returns the component-wise sum of s and o, two sums over the same
// targets (SPEC.md §3.8): entry i then counts the ballots of both naming
// target i, without telling which sum they came from. It copies; s and o
// are unchanged.
func (s BallotSum) Plus(o BallotSum) (BallotSum, error) {
	if len(s) != len(o) {
		return nil, fmt.Errorf("mental: adding a tally of %d entries to one of %d", len(o), len(s))
	}
	sum := make(BallotSum, len(s))
	for i := range s {
		if s[i].A == nil || s[i].B == nil || o[i].A == nil || o[i].B == nil {
			return nil, fmt.Errorf("mental: tally entry %d is missing", i)
		}
		sum[i] = Ciphertext{A: ristretto.NewIdentityElement().Add(s[i].A, o[i].A), B: ristretto.NewIdentityElement().Add(s[i].B, o[i].B)}
	}
	return sum, nil
}

// Component returns entry i of the sum as a width-1 card, the only thing
// the table decrypts (SPEC.md §3.8): every seat publishes
// [SecretKey.Share] of it, checked with [VerifyShare]; [OpenTally] turns
// the shares into the count.
func (s BallotSum) Component(i int) (Card, error) {
	if i < 0 || i >= len(s) {
		return nil, fmt.Errorf("mental: tally component %d of %d", i, len(s))
	}
	return Card{{A: ristretto.NewIdentityElement().Set(s[i].A), B: ristretto.NewIdentityElement().Set(s[i].B)}}, nil
}

// TallyCount returns t for m = t·G with 0 ≤ t ≤ MaxTally, by table lookup
// (SPEC.md §3.8). Variable time: the count is public once opened.
func TallyCount(m *Element) (int, error) {
	acc := ristretto.NewIdentityElement()
	G := generator
	for t := 0; t <= MaxTally; t++ {
		if acc.Equal(m) == 1 {
			return t, nil
		}
		acc.Add(acc, G)
	}
	return 0, fmt.Errorf("mental: tally is not a count in 0..%d", MaxTally)
}

// OpenTally opens component i of s with every seat's verified decryption
// share of s.Component(i) and returns the count.
func OpenTally(s BallotSum, i int, shares [][]*Element) (int, error) {
	c, err := s.Component(i)
	if err != nil {
		return 0, err
	}
	m, err := Open(c, shares)
	if err != nil {
		return 0, fmt.Errorf("mental: tally component %d: %w", i, err)
	}
	t, err := TallyCount(m[0])
	if err != nil {
		return 0, fmt.Errorf("mental: tally component %d: %w", i, err)
	}
	return t, nil
}
