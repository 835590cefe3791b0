package mental

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
)

// ballotTable is a table of n seats with a joint key, for ballot tests.
func ballotTable(t testing.TB, n int) ([]*SecretKey, *JointKey) {
	t.Helper()
	var sks []*SecretKey
	var pks []*PublicKey
	var kcs []KeyContext
	for i := range n {
		sk := GenerateKey()
		kc := KeyContext{Table: [32]byte{'b'}, Seat: uint32(i), Identity: []byte{'p', byte(i)}}
		sks, pks, kcs = append(sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
	}
	jk, err := NewJointKey(pks, kcs)
	if err != nil {
		t.Fatal(err)
	}
	return sks, jk
}

// ballotWithBits encrypts an arbitrary vector of small values (not
// necessarily bits) and returns the entries and a matching opening, for
// building dishonest ballots.
func ballotWithBits(jk *JointKey, vals []int) ([]Ciphertext, *ballotOpening) {
	o := &ballotOpening{r: randomScalars(len(vals)), v: make([]int, len(vals)), rSum: ristretto255.NewScalar()}
	entries := make([]Ciphertext, len(vals))
	for i, v := range vals {
		o.v[i] = v & 1
		o.total += v
		o.rSum.Add(o.rSum, o.r[i])
		vs := ristretto255.NewScalar()
		for range v {
			vs.Add(vs, bitScalar(1))
		}
		entries[i] = Ciphertext{
			A: ristretto255.NewElement().ScalarBaseMult(o.r[i]),
			B: ristretto255.NewElement().MultiScalarMult([]*Scalar{vs, o.r[i]}, []*Element{Base(), jk.H}),
		}
	}
	o.total &= 1
	return entries, o
}

func TestBallotCompleteness(t *testing.T) {
	_, jk := ballotTable(t, 3)
	ctx := Context{Table: [32]byte{1}, Pos: 5, Seat: 1}
	tests := []struct{ n, choice int }{
		{1, NoVote}, {1, 0}, {5, NoVote}, {5, 0}, {5, 2}, {5, 4}, {MaxBallotEntries, MaxBallotEntries - 1},
	}
	for _, tc := range tests {
		b, err := jk.CastBallot(ctx, tc.n, tc.choice)
		if err != nil {
			t.Fatalf("n=%d choice=%d: %v", tc.n, tc.choice, err)
		}
		if err := VerifyBallot(ctx, jk, b); err != nil {
			t.Errorf("n=%d choice=%d: honest ballot rejected: %v", tc.n, tc.choice, err)
		}
		enc, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(enc) != 1+64*tc.n+ballotProofSize(tc.n) {
			t.Errorf("n=%d: encoding is %d bytes, want %d", tc.n, len(enc), 1+64*tc.n+ballotProofSize(tc.n))
		}
		b2, err := UnmarshalBallot(enc)
		if err != nil {
			t.Fatalf("n=%d: decode: %v", tc.n, err)
		}
		if err := VerifyBallot(ctx, jk, b2); err != nil {
			t.Errorf("n=%d: decoded ballot rejected: %v", tc.n, err)
		}
		if err := VerifyBallot(Context{Table: ctx.Table, Pos: ctx.Pos + 1, Seat: ctx.Seat}, jk, b); !errors.Is(err, ErrProof) {
			t.Errorf("n=%d: ballot replayed at another position: got %v, want ErrProof", tc.n, err)
		}
	}
}

func TestBallotBadArguments(t *testing.T) {
	_, jk := ballotTable(t, 2)
	for _, tc := range []struct{ n, choice int }{{0, NoVote}, {MaxBallotEntries + 1, 0}, {3, 3}, {3, -2}} {
		if _, err := jk.CastBallot(Context{}, tc.n, tc.choice); err == nil {
			t.Errorf("n=%d choice=%d: accepted", tc.n, tc.choice)
		}
	}
}

// TestBallotDishonest proves false ballot statements with the internal
// prover (any assignment it accepts): none may verify.
func TestBallotDishonest(t *testing.T) {
	_, jk := ballotTable(t, 2)
	ctx := Context{Seat: 1}
	tests := []struct {
		name string
		vals []int
	}{
		{"two ones", []int{1, 0, 1}},
		{"all ones", []int{1, 1, 1}},
		{"entry is 2", []int{0, 2, 0}},
		{"entry is 2 and sum is 2", []int{2, 0}},
		{"a one and a two", []int{1, 2}},
	}
	for _, tc := range tests {
		entries, o := ballotWithBits(jk, tc.vals)
		// Try every choice of real bits for the sum's OR.
		for sumBit := range 2 {
			o.total = sumBit
			p, err := ProveFormula(ctx, labelBallot, ballotFormula(jk.H, entries), o.assignment())
			if err != nil {
				t.Fatalf("%s: prover refused: %v", tc.name, err)
			}
			if err := VerifyBallot(ctx, jk, &Ballot{Entries: entries, proof: p}); !errors.Is(err, ErrProof) {
				t.Errorf("%s (sum branch %d): got %v, want ErrProof", tc.name, sumBit, err)
			}
		}
	}
}

func TestBallotTally(t *testing.T) {
	sks, jk := ballotTable(t, 4)
	const n = 4
	choices := []int{2, NoVote, 2, 0, 3, 2, NoVote}
	want := make([]int, n)
	var bs []*Ballot
	for seat, ch := range choices {
		ctx := Context{Table: [32]byte{7}, Pos: 1, Seat: uint32(seat)}
		b, err := jk.CastBallot(ctx, n, ch)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyBallot(ctx, jk, b); err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
		if ch != NoVote {
			want[ch]++
		}
	}
	sum, err := AddBallots(bs...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		c, err := sum.Component(i)
		if err != nil {
			t.Fatal(err)
		}
		var shares [][]*Element
		for seat, sk := range sks {
			ctx := Context{Table: [32]byte{7}, Pos: 2, Seat: uint32(seat)}
			s, err := sk.Share(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyShare(ctx, jk.Keys[seat], c, s); err != nil {
				t.Fatal(err)
			}
			shares = append(shares, s.D)
		}
		got, err := OpenTally(sum, i, shares)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[i] {
			t.Errorf("component %d: tally %d, want %d", i, got, want[i])
		}
	}
	// Two sums added (SPEC §3.8): the counts add, the parts are unchanged.
	first, err := AddBallots(bs[:3]...)
	if err != nil {
		t.Fatal(err)
	}
	rest, err := AddBallots(bs[3:]...)
	if err != nil {
		t.Fatal(err)
	}
	both, err := first.Plus(rest)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if both[i].A.Equal(sum[i].A) != 1 || both[i].B.Equal(sum[i].B) != 1 {
			t.Errorf("component %d: the sum of two sums is not the sum of all ballots", i)
		}
	}
	again, _ := AddBallots(bs[:3]...)
	for i := range n {
		if first[i].A.Equal(again[i].A) != 1 || first[i].B.Equal(again[i].B) != 1 {
			t.Errorf("component %d: Plus changed its receiver", i)
		}
	}
	// Errors.
	if _, err := first.Plus(rest[:n-1]); err == nil {
		t.Error("sums of different sizes added")
	}
	if _, err := sum.Component(n); err == nil {
		t.Error("component out of range accepted")
	}
	short, _ := jk.CastBallot(Context{}, n-1, 0)
	if _, err := AddBallots(bs[0], short); err == nil {
		t.Error("ballots of different sizes added")
	}
	if _, err := AddBallots(); err == nil {
		t.Error("empty sum accepted")
	}
	if _, err := TallyCount(CardPoint(1)); err == nil {
		t.Error("TallyCount accepted a card point")
	}
	m := ristretto255.NewElement().ScalarBaseMult(ristretto255.NewScalar().Negate(bitScalar(1)))
	if _, err := TallyCount(m); err == nil {
		t.Error("TallyCount accepted -G")
	}
}

func TestUnmarshalBallotStrict(t *testing.T) {
	_, jk := ballotTable(t, 2)
	b, err := jk.CastBallot(Context{}, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := b.MarshalBinary()
	bad := map[string][]byte{
		"empty":       {},
		"zero size":   append([]byte{0}, enc[1:]...),
		"size 65":     append([]byte{65}, enc[1:]...),
		"size 2":      append([]byte{2}, enc[1:]...),
		"truncated":   enc[:len(enc)-1],
		"trailing":    append(append([]byte{}, enc...), 0),
		"bad element": func() []byte { e := append([]byte{}, enc...); e[1+31] |= 0x80; return e }(),
		"bad scalar":  func() []byte { e := append([]byte{}, enc...); copy(e[len(e)-32:], nonCanonicalScalar()); return e }(),
	}
	for name, data := range bad {
		if _, err := UnmarshalBallot(data); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: got %v, want ErrEncoding", name, err)
		}
	}
}

// nonCanonicalScalar returns the group order ℓ, a 32-byte string that is
// not a canonical scalar.
func nonCanonicalScalar() []byte {
	return []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
}

// TestBallotComposition composes the pieces the games need (SPEC.md §5):
// "my card is kind R AND the ballot is one-hot, OR the ballot is empty",
// with every entry a bit in both cases.
func TestBallotComposition(t *testing.T) {
	sks, jk := ballotTable(t, 3)
	const holder, role, label = 1, 4, "test/night-action/v1"
	card := jk.Encrypt(CardPoint(role))
	var others [][]*Element
	for i, sk := range sks {
		if i != holder {
			s, err := sk.Share(Context{Seat: uint32(i)}, card)
			if err != nil {
				t.Fatal(err)
			}
			others = append(others, s.D)
		}
	}
	ctx := Context{Table: [32]byte{3}, Pos: 9, Seat: holder}
	X := jk.Keys[holder]
	compose := func(entries []Ciphertext, kinds []int) *Formula {
		hf, err := HoldingFormula(X, card, 0, others, kinds)
		if err != nil {
			t.Fatal(err)
		}
		return And(ballotEntriesFormula(jk.H, entries),
			Or(And(hf, ballotSumLeaf(jk.H, entries, 1)), ballotSumLeaf(jk.H, entries, 0)))
	}
	assign := func(o *ballotOpening, ha Assignment) Assignment {
		return andAssignment(o.entriesAssignment(),
			orAssignment([]int{o.total, 1 - o.total}, andAssignment(ha, o.sumLeafAssignment()), o.sumLeafAssignment()))
	}
	tests := []struct {
		name   string
		kinds  []int // the power's roles
		choice int
		ok     bool
	}{
		{"role holder votes", []int{role}, 2, true},
		{"role holder in a set votes", []int{1, role, 7}, 0, true},
		{"role holder abstains", []int{role}, NoVote, true},
		{"other role abstains", []int{role + 1}, NoVote, true},
		{"other role votes", []int{role + 1}, 1, false},
	}
	for _, tc := range tests {
		entries, o, err := jk.encryptBallot(3, tc.choice)
		if err != nil {
			t.Fatal(err)
		}
		// The holding assignment of a player without the role: any
		// witnesses (the branch is simulated).
		ha, err := sks[holder].HoldingAssignment(card, 0, others, tc.kinds)
		if err != nil {
			ha = Assignment{Leaves: [][]*Scalar{{ristretto255.NewScalar()}}}
		}
		f := compose(entries, tc.kinds)
		p, err := ProveFormula(ctx, label, f, assign(o, ha))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = VerifyFormula(ctx, label, f, p)
		if tc.ok && err != nil {
			t.Errorf("%s: rejected: %v", tc.name, err)
		}
		if !tc.ok && !errors.Is(err, ErrProof) {
			t.Errorf("%s: got %v, want ErrProof", tc.name, err)
		}
	}
}

func BenchmarkBallot(b *testing.B) {
	_, jk := ballotTable(b, 4)
	for _, n := range []int{4, 13} {
		b.Run(fmt.Sprintf("cast/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := jk.CastBallot(Context{}, n, n/2); err != nil {
					b.Fatal(err)
				}
			}
		})
		bl, _ := jk.CastBallot(Context{}, n, n/2)
		b.Run(fmt.Sprintf("verify/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := VerifyBallot(Context{}, jk, bl); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
