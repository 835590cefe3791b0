package mental

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// The plurality kill (SPEC.md §9.9): with three or more kill holders and no
// Don, the mafia's victim is the target named most often, a tie broken
// uniformly among the tied targets, and nothing else about the votes may
// open. Every living seat posts a count lookup (CountLookup): W, an
// encryption of how many kill votes its own target got (0 for a seat
// without a vote), proven from its own kill ballot and the public per-target
// tally. The cards (code sum V, W) are shuffled by every seat; blinded
// identity tests of every shuffled V find the k votes (a uniformly random
// k-subset of the positions). The k vote cards, in shuffled order, make a
// public lookup table (KillRows) with one row per possible vector of the k
// votes' counts: its key encrypts the identity exactly for the true vector,
// and its payload is the code of the first vote whose count is the largest.
// Every seat shuffles the rows, blinded identity tests of every row's key
// find the one true row at a uniformly random position, and its payload is
// the pick.

const labelCountLookup = "masque/mafia-count-lookup/v1"

// BallotSecret is a ballot's caster's secret: every entry's bit and
// randomness. A seat keeps its kill ballot's secret to prove its count
// lookup ([ProveCountLookup]) later in the night. It holds secrets: never
// log, send or compare it.
type BallotSecret struct {
	entries []Ciphertext
	o       *ballotOpening
}

// Secret returns the secret of a ballot this process cast (nil for a
// decoded one).
func (b *PowerBallot) Secret() *BallotSecret {
	if b == nil || b.open == nil {
		return nil
	}
	return &BallotSecret{entries: b.Entries, o: b.open}
}

// Secret returns the secret of a ballot this process cast (nil for a
// decoded one).
func (b *Ballot) Secret() *BallotSecret {
	if b == nil || b.open == nil {
		return nil
	}
	return &BallotSecret{entries: b.Entries, o: b.open}
}

// BallotSecretSize returns the encoded size of the secret of a ballot of
// n entries: u8(n) ‖ (u8(b_i) ‖ r_i)×n.
func BallotSecretSize(n int) int { return 1 + 33*n }

// MarshalBinary encodes the secret for the seat's own records (a seat that
// restarts between its kill ballot and its count lookup reads it back):
// u8(n) ‖ (u8(b_i) ‖ r_i)×n. Never send it.
func (s *BallotSecret) MarshalBinary() ([]byte, error) {
	if s == nil || s.o == nil || len(s.o.r) != len(s.entries) || len(s.o.v) != len(s.entries) {
		return nil, fmt.Errorf("mental: ballot secret: incomplete")
	}
	out := make([]byte, 0, BallotSecretSize(len(s.entries)))
	out = append(out, byte(len(s.entries)))
	for i := range s.entries {
		out = append(out, byte(s.o.v[i]&1))
		out = appendScalar(out, s.o.r[i])
	}
	return out, nil
}

// UnmarshalBallotSecret decodes the secret of the ballot whose entries
// are entries, under jk, and refuses one that does not open them: every
// A_i = r_i·G and B_i = b_i·G + r_i·H with b_i ∈ {0, 1} and at most one 1
// (one verdict for the whole, computed in constant time).
func UnmarshalBallotSecret(data []byte, jk *JointKey, entries []Ciphertext) (*BallotSecret, error) {
	if jk == nil || jk.H == nil {
		return nil, fmt.Errorf("mental: ballot secret: missing joint key")
	}
	if err := checkBallotEntries(entries); err != nil {
		return nil, fmt.Errorf("mental: ballot secret: %w", err)
	}
	n := len(entries)
	if len(data) != BallotSecretSize(n) || int(data[0]) != n {
		return nil, fmt.Errorf("%w: a ballot secret of %d bytes for %d entries", ErrEncoding, len(data), n)
	}
	r := &reader{b: data[1:]}
	o := &ballotOpening{r: make([]*Scalar, n), v: make([]int, n), rSum: ristretto.NewScalar()}
	ok := 1
	for i := range n {
		b := r.byte("ballot secret bit")
		o.r[i] = r.scalar("ballot secret randomness")
		if r.err != nil {
			return nil, r.err
		}
		o.v[i] = int(b & 1)
		ok &= subtle.ConstantTimeByteEq(b>>1, 0)
		o.total += o.v[i]
		o.rSum.Add(o.rSum, o.r[i])
		A := ristretto.NewIdentityElement().ScalarBaseMult(o.r[i])
		B := ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{bitScalar(o.v[i]), o.r[i]}, []*Element{generator, jk.H})
		ok &= A.Equal(entries[i].A) & B.Equal(entries[i].B)
	}
	ok &= subtle.ConstantTimeLessOrEq(o.total, 1)
	if ok != 1 {
		return nil, fmt.Errorf("mental: ballot secret: it does not open the ballot")
	}
	return &BallotSecret{entries: entries, o: o}, nil
}

// CountLookup is one seat's count lookup (SPEC.md §9.9): W = Σ_i b_i·T_i +
// (ρ·G, ρ·H), a width-1 card encrypting the tally's count at the seat's own
// vote (its target's count, or 0 for an empty ballot), with the proof of
// the b_i and r_i of its own ballot's entries (A_i, B_i) = (r_i·G, b_i·G +
// r_i·H) and of ρ.
type CountLookup struct {
	W     Card
	proof *SigmaProof
	known encodings // W's encodings, when made or decoded
}

// CountLookupSize returns the encoded size of a count lookup over n
// targets: W (64 bytes) ‖ R×(2n+2) ‖ s×(2n+1).
func CountLookupSize(n int) int { return 64 + 32*(4*n+3) }

// checkLookupInputs refuses a ballot or a tally that is not n = 1..64
// well-formed entries each, or of different lengths.
func checkLookupInputs(entries []Ciphertext, tally BallotSum) error {
	if err := checkBallotEntries(entries); err != nil {
		return fmt.Errorf("the ballot: %w", err)
	}
	if len(tally) != len(entries) {
		return fmt.Errorf("%w: a tally of %d entries for a ballot of %d", ErrProof, len(tally), len(entries))
	}
	if err := checkBallotEntries(tally); err != nil {
		return fmt.Errorf("the tally: %w", err)
	}
	return nil
}

// countLookupStatement absorbs the statement (SPEC.md §9.9) and returns it
// with the formula: witnesses b_i = w_i, r_i = w_(n+i), ρ = w_(2n);
// equations, for i = 0..n−1, w_(n+i)·G = A_i and w_i·G + w_(n+i)·H = B_i,
// then w_0·TA_0 + … + w_(n−1)·TA_(n−1) + w_(2n)·G = W_A and the same with
// TB and H = W_B.
func countLookupStatement(ctx Context, jk *JointKey, entries []Ciphertext, tally BallotSum, W Card, known ...encodings) (*transcriptT, *Formula, error) {
	if jk == nil || jk.H == nil {
		return nil, nil, fmt.Errorf("missing joint key")
	}
	if err := checkLookupInputs(entries, tally); err != nil {
		return nil, nil, err
	}
	if len(W) != 1 || W[0].A == nil || W[0].B == nil {
		return nil, nil, fmt.Errorf("%w: the count lookup's W is not a width-1 card", ErrProof)
	}
	n := len(entries)
	t := ctx.transcript(labelCountLookup)
	t.Append("H", jk.hBytes())
	t.AppendUint64("entries/n", uint64(n))
	for i := range entries {
		t.Append("entry", entries[i].encoding()[:])
	}
	t.AppendUint64("tally/n", uint64(n))
	for i := range tally {
		t.Append("tally", tally[i].encoding()[:])
	}
	var buf [65]byte
	buf[0] = 1
	copy(buf[1:33], encodingOf(W[0].A, known...))
	copy(buf[33:], encodingOf(W[0].B, known...))
	t.Append("W", buf[:])

	bb := newBallotBases(jk.H)
	eqs := make([]Equation, 0, 2*n+2)
	for i, e := range entries {
		eqs = append(eqs,
			Equation{Secret: []Term{{Witness: n + i, Base: bb.G}}, Public: []Term{{Base: e.A}}},
			Equation{Secret: []Term{{Witness: i, Base: bb.G}, {Witness: n + i, Base: bb.H}}, Public: []Term{{Base: e.B}}})
	}
	wa := make([]Term, 0, n+1)
	wb := make([]Term, 0, n+1)
	for i, c := range tally {
		wa = append(wa, Term{Witness: i, Base: c.A})
		wb = append(wb, Term{Witness: i, Base: c.B})
	}
	wa = append(wa, Term{Witness: 2 * n, Base: bb.G})
	wb = append(wb, Term{Witness: 2 * n, Base: bb.H})
	eqs = append(eqs,
		Equation{Secret: wa, Public: []Term{{Base: W[0].A}}},
		Equation{Secret: wb, Public: []Term{{Base: W[0].B}}})
	return t, Leaf(Statement{Witnesses: 2*n + 1, Equations: eqs}), nil
}

// ProveCountLookup makes seat ctx.Seat's count lookup (SPEC.md §9.9) from
// the secret of its own kill ballot and the public sum of every kill
// ballot of the night (tally, target by target). Constant time in the
// ballot's bits and randomness: W is one multi-scalar multiplication with
// the bits as scalars whatever they are.
func ProveCountLookup(ctx Context, jk *JointKey, sec *BallotSecret, tally BallotSum) (*CountLookup, error) {
	if sec == nil || sec.o == nil || len(sec.o.r) != len(sec.entries) {
		return nil, fmt.Errorf("mental: count lookup: missing ballot secret")
	}
	if jk == nil || jk.H == nil {
		return nil, fmt.Errorf("mental: count lookup: missing joint key")
	}
	if err := checkLookupInputs(sec.entries, tally); err != nil {
		return nil, fmt.Errorf("mental: count lookup: %w", err)
	}
	b := make([]*Scalar, len(sec.entries))
	for i, v := range sec.o.v {
		b[i] = bitScalar(v)
	}
	return countLookupProve(ctx, jk, sec.entries, tally, b, sec.o.r, randomScalar())
}

// countLookupProve computes W from the witnesses b, r, ρ and proves the
// statement over entries and tally with them. The tests call it with
// witnesses that do not open the entries, to forge lookups.
func countLookupProve(ctx Context, jk *JointKey, entries []Ciphertext, tally BallotSum, b, r []*Scalar, rho *Scalar) (*CountLookup, error) {
	n := len(entries)
	sa := make([]*Scalar, 0, n+1)
	pa := make([]*Element, 0, n+1)
	pb := make([]*Element, 0, n+1)
	for i := range tally {
		sa = append(sa, b[i])
		pa = append(pa, tally[i].A)
		pb = append(pb, tally[i].B)
	}
	sa = append(sa, rho)
	pa = append(pa, generator)
	pb = append(pb, jk.H)
	W := Card{{
		A: ristretto.NewIdentityElement().MultiScalarMult(sa, pa),
		B: ristretto.NewIdentityElement().MultiScalarMult(sa, pb),
	}}
	known := encodings{}
	known.keep(W[0].A)
	known.keep(W[0].B)
	t, f, err := countLookupStatement(ctx, jk, entries, tally, W, known)
	if err != nil {
		return nil, fmt.Errorf("mental: count lookup: %w", err)
	}
	w := make([]*Scalar, 0, 2*n+1)
	w = append(w, b...)
	w = append(w, r...)
	w = append(w, rho)
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{w}})
	if err != nil {
		return nil, fmt.Errorf("mental: count lookup proof: %w", err)
	}
	return &CountLookup{W: W, proof: p, known: known}, nil
}

func countLookupChecks(ctx Context, jk *JointKey, entries []Ciphertext, tally BallotSum, l *CountLookup) ([]equationCheck, []byte, error) {
	if l == nil || l.proof == nil {
		return nil, nil, fmt.Errorf("%w: missing count lookup", ErrProof)
	}
	t, f, err := countLookupStatement(ctx, jk, entries, tally, l.W, l.known)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: count lookup: %v", ErrProof, err)
	}
	return sigmaChecks(t, f, l.proof)
}

// VerifyCountLookup checks seat ctx.Seat's count lookup l: entries are
// that seat's own kill ballot's (verified where it was posted), tally the
// sum of the night's kill ballots; then l.W encrypts Σ_i b_i·c_i for the
// plaintexts b_i·G of entries and c_i·G of tally (SPEC.md §9.9).
func VerifyCountLookup(ctx Context, jk *JointKey, entries []Ciphertext, tally BallotSum, l *CountLookup) error {
	checks, seed, err := countLookupChecks(ctx, jk, entries, tally, l)
	if err != nil {
		return fmt.Errorf("count lookup of seat %d: %w", ctx.Seat, err)
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("count lookup of seat %d: %w", ctx.Seat, ErrProof)
	}
	return nil
}

// AddCountLookup adds a count lookup (see [VerifyCountLookup]).
func (b *Batch) AddCountLookup(name string, ctx Context, jk *JointKey, entries []Ciphertext, tally BallotSum, l *CountLookup) {
	checks, seed, err := countLookupChecks(ctx, jk, entries, tally, l)
	b.add(name, checks, seed, err)
}

// countLookupShape is the proof shape of a count lookup over n targets.
func countLookupShape(n int) *Formula {
	return Leaf(Statement{Witnesses: 2*n + 1, Equations: make([]Equation, 2*n+2)})
}

// MarshalBinary encodes W_A ‖ W_B ‖ R×(2n+2) ‖ s×(2n+1) (SPEC.md §9.9).
func (l *CountLookup) MarshalBinary() ([]byte, error) {
	if l == nil || len(l.W) != 1 || l.W[0].A == nil || l.W[0].B == nil || l.proof == nil {
		return nil, fmt.Errorf("mental: count lookup: incomplete")
	}
	b := make([]byte, 0, 64+32*(len(l.proof.commitments)+len(l.proof.responses)))
	b = append(b, encodingOf(l.W[0].A, l.known)...)
	b = append(b, encodingOf(l.W[0].B, l.known)...)
	return l.proof.AppendBinary(b), nil
}

// UnmarshalCountLookup decodes strictly a count lookup over n targets
// (1..64): exactly CountLookupSize(n) bytes, canonical elements and
// scalars. It does not verify it.
func UnmarshalCountLookup(b []byte, n int) (*CountLookup, error) {
	if n < 1 || n > MaxBallotEntries {
		return nil, fmt.Errorf("mental: count lookup over %d targets, want 1..%d", n, MaxBallotEntries)
	}
	if len(b) != CountLookupSize(n) {
		return nil, fmt.Errorf("%w: count lookup over %d targets is %d bytes, want %d", ErrEncoding, n, len(b), CountLookupSize(n))
	}
	r := &reader{b: b, known: encodings{}}
	A := r.element("count lookup W_A")
	B := r.element("count lookup W_B")
	p := r.sigma(countLookupShape(n), "count lookup proof")
	if err := r.done("count lookup"); err != nil {
		return nil, err
	}
	return &CountLookup{W: Card{{A: A, B: B}}, proof: p, known: r.known}, nil
}

// VoteCard returns the card seat v's count lookup puts into the vote mix
// (SPEC.md §9.9): (V, W), V the code sum of v's kill ballot (its target's
// code, or the identity) and W its lookup's output, width 2.
func VoteCard(ballot []Ciphertext, l *CountLookup) (Card, error) {
	if l == nil || len(l.W) != 1 {
		return nil, fmt.Errorf("mental: a vote card without a count lookup")
	}
	v, err := BallotSum(ballot).CodeSum()
	if err != nil {
		return nil, err
	}
	return Card{v[0], {A: ristretto.NewIdentityElement().Set(l.W[0].A), B: ristretto.NewIdentityElement().Set(l.W[0].B)}}, nil
}

// MinKillVotes and MaxKillVotes bound the number k of votes a kill table
// ranges over (SPEC.md §9.9): its rows are the distinct count vectors of k
// votes (2, 5, 13, 42 for k = 2..5).
const (
	MinKillVotes = 2
	MaxKillVotes = 5
)

// ErrKillTests is a set of blinded identity tests whose answers no honest
// table can give: not k votes among the vote cards, or not exactly one
// true row in a kill table.
var ErrKillTests = errors.New("mental: the blinded tests do not single out the votes")

// KillCountVectors returns the rows' count vectors of a kill table of k
// votes (SPEC.md §9.9): every vector (c_0..c_(k−1)) such that some
// partition of the k votes into targets gives vote j a target named c_j
// times, each once, in ascending lexicographic order.
func KillCountVectors(k int) ([][]int, error) {
	if k < MinKillVotes || k > MaxKillVotes {
		return nil, fmt.Errorf("mental: a kill table of %d votes, want %d..%d", k, MinKillVotes, MaxKillVotes)
	}
	var out [][]int
	block := make([]int, k) // restricted growth string: vote j's block
	var walk func(j, blocks int)
	walk = func(j, blocks int) {
		if j == k {
			size := make([]int, blocks)
			for _, b := range block {
				size[b]++
			}
			c := make([]int, k)
			for i, b := range block {
				c[i] = size[b]
			}
			out = append(out, c)
			return
		}
		for b := 0; b <= blocks && b < k; b++ {
			block[j] = b
			nb := blocks
			if b == blocks {
				nb++
			}
			walk(j+1, nb)
		}
	}
	walk(0, 0)
	slices.SortFunc(out, slices.Compare)
	return slices.CompactFunc(out, slices.Equal), nil
}

// KillWinner returns the index of the first largest count of c: the
// winning vote of a kill whose votes, in shuffled order, have counts c.
func KillWinner(c []int) int {
	w := 0
	for j, v := range c {
		if v > c[w] {
			w = j
		}
	}
	return w
}

// killRadixValue returns Σ_j c_j·(k+1)^j.
func killRadixValue(c []int) int {
	v := 0
	for j := len(c) - 1; j >= 0; j-- {
		v = v*(len(c)+1) + c[j]
	}
	return v
}

// KillRows lays out the kill table of the k vote cards votes (each (V_j,
// W_j), width 2, in the shuffled order; SPEC.md §9.9): for the r-th count
// vector c of [KillCountVectors](k), the width-2 row
//
//	(K − (0, val(c)·G), V_(KillWinner(c)))
//
// with K = Σ_j (k+1)^j·W_j and val(c) = Σ_j c_j·(k+1)^j: its key (component
// 0) encrypts the identity exactly when c is the votes' true count vector.
// Public values only; every peer computes the same rows.
func KillRows(votes []Card) ([]Card, error) {
	k := len(votes)
	cs, err := KillCountVectors(k)
	if err != nil {
		return nil, err
	}
	for j, v := range votes {
		if len(v) != 2 || v[0].A == nil || v[0].B == nil || v[1].A == nil || v[1].B == nil {
			return nil, fmt.Errorf("mental: kill table: vote card %d is not a (code, count) card", j)
		}
	}
	radix := shuffleSmallScalar(k + 1)
	KA, KB := ristretto.NewIdentityElement(), ristretto.NewIdentityElement()
	for j := k - 1; j >= 0; j-- {
		KA = ristretto.NewIdentityElement().ScalarMult(radix, KA)
		KA.Add(KA, votes[j][1].A)
		KB = ristretto.NewIdentityElement().ScalarMult(radix, KB)
		KB.Add(KB, votes[j][1].B)
	}
	rows := make([]Card, len(cs))
	for r, c := range cs {
		shift := ristretto.NewIdentityElement().ScalarBaseMult(shuffleSmallScalar(killRadixValue(c)))
		win := votes[KillWinner(c)][0]
		rows[r] = Card{
			{A: ristretto.NewIdentityElement().Set(KA), B: ristretto.NewIdentityElement().Subtract(KB, shift)},
			{A: ristretto.NewIdentityElement().Set(win.A), B: ristretto.NewIdentityElement().Set(win.B)},
		}
	}
	return rows, nil
}

// KillVotes returns the positions of the votes among the shuffled vote
// cards, from the blinded identity tests of their code sums (identity[i]:
// card i's V is the identity, no vote), and refuses answers with other
// than k votes (ErrKillTests).
func KillVotes(identity []bool, k int) ([]int, error) {
	var out []int
	for i, id := range identity {
		if !id {
			out = append(out, i)
		}
	}
	if len(out) != k {
		return nil, fmt.Errorf("%w: %d of %d vote cards are votes, want %d", ErrKillTests, len(out), len(identity), k)
	}
	return out, nil
}

// KillRowWinner returns the position of the one true row among the
// shuffled rows of a kill table, from the blinded identity tests of their
// keys, and refuses answers with no or several identities (ErrKillTests).
func KillRowWinner(identity []bool) (int, error) {
	found := -1
	for i, id := range identity {
		if !id {
			continue
		}
		if found >= 0 {
			return 0, fmt.Errorf("%w: rows %d and %d both hold the identity", ErrKillTests, found, i)
		}
		found = i
	}
	if found < 0 {
		return 0, fmt.Errorf("%w: none of %d rows holds the identity", ErrKillTests, len(identity))
	}
	return found, nil
}

// KillRowKey returns a shuffled row's key (component 0), the width-1 card
// a blinded identity test takes.
func KillRowKey(row Card) (Card, error) {
	if len(row) != 2 {
		return nil, fmt.Errorf("mental: a kill-table row of width %d, want 2", len(row))
	}
	return Card{{A: ristretto.NewIdentityElement().Set(row[0].A), B: ristretto.NewIdentityElement().Set(row[0].B)}}, nil
}

// KillRowPayload returns a shuffled row's payload (component 1), the
// width-1 card the pick opens ([MixPick]).
func KillRowPayload(row Card) (Card, error) {
	if len(row) != 2 {
		return nil, fmt.Errorf("mental: a kill-table row of width %d, want 2", len(row))
	}
	return Card{{A: ristretto.NewIdentityElement().Set(row[1].A), B: ristretto.NewIdentityElement().Set(row[1].B)}}, nil
}
