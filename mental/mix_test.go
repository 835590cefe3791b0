package mental

import (
	"errors"
	"slices"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// mixSum returns the sum of honest ballots with the given choices over n
// targets.
func mixSum(t *testing.T, jk *JointKey, n int, choices ...int) BallotSum {
	t.Helper()
	var bs []*Ballot
	for seat, ch := range choices {
		b, err := jk.CastBallot(Context{Table: [32]byte{'m'}, Pos: 1, Seat: uint32(seat)}, n, ch)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	sum, err := AddBallots(bs...)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// mixOpen opens a width-1 card with every seat's share.
func mixOpen(t *testing.T, sks []*SecretKey, c Card) *Element {
	t.Helper()
	var shares [][]*Element
	for seat, sk := range sks {
		ctx := Context{Table: [32]byte{'m'}, Pos: 9, Seat: uint32(seat)}
		sh, err := sk.Share(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyShare(ctx, sk.Public(), c, sh); err != nil {
			t.Fatal(err)
		}
		shares = append(shares, sh.D)
	}
	m, err := Open(c, shares)
	if err != nil {
		t.Fatal(err)
	}
	return m[0]
}

// mixShuffle has every seat shuffle the pairs in turn, each shuffle
// verified, and returns the last output.
func mixShuffle(t *testing.T, jk *JointKey, pairs []Card, seats int) []Card {
	t.Helper()
	for seat := range seats {
		ctx := Context{Table: [32]byte{'m'}, Pos: uint64(2 + seat), Seat: uint32(seat)}
		out, p, err := jk.Shuffle(ctx, pairs)
		if err != nil {
			t.Fatal(err)
		}
		if err := jk.VerifyShuffle(ctx, pairs, out, p); err != nil {
			t.Fatal(err)
		}
		pairs = out
	}
	return pairs
}

// A mixed tally opens the counts as a multiset and the winner's target,
// alone or with the Madman's one-hot sum added: the opened code names
// the set of targets (SPEC.md §9.6).
func TestMixedTally(t *testing.T) {
	sks, jk := ballotTable(t, 4)
	const n = 6
	kill := mixSum(t, jk, n, 4, 4, 1, NoVote) // two votes for 4, one for 1
	mad := mixSum(t, jk, n, NoVote, 2, NoVote, NoVote)
	pairs, err := kill.MixPairs()
	if err != nil {
		t.Fatal(err)
	}
	mixed := mixShuffle(t, jk, pairs, 4)
	var counts []int
	win := -1
	for k, pair := range mixed {
		c, err := MixCount(pair)
		if err != nil {
			t.Fatal(err)
		}
		v, err := TallyCount(mixOpen(t, sks, c))
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, v)
		if v == 2 {
			win = k
		}
	}
	slices.Sort(counts)
	if !slices.Equal(counts, []int{0, 0, 0, 0, 1, 2}) || win < 0 {
		t.Fatalf("mixed counts %v (winner at %d)", counts, win)
	}
	for _, tc := range []struct {
		add  []BallotSum
		want []int
	}{
		{nil, []int{0, 0, 0, 0, 1, 0}},
		{[]BallotSum{mad}, []int{0, 0, 1, 0, 1, 0}},
		{[]BallotSum{mixSum(t, jk, n, 4)}, []int{0, 0, 0, 0, 2, 0}},
	} {
		c, err := MixPick(mixed[win], n, tc.add...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MixTargets(mixOpen(t, sks, c), n, 1+len(tc.add))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Fatalf("pick adding %d sums: %v, want %v", len(tc.add), got, tc.want)
		}
	}
}

// Every multiset of one or two codes among 64 targets decodes to itself,
// and a value that is no such sum is refused.
func TestMixTargetsDecode(t *testing.T) {
	const n = MaxBallotEntries
	codes := codePoints(n)
	for i := range n {
		got, err := MixTargets(codes[i], n, 1)
		if err != nil || got[i] != 1 {
			t.Fatalf("code %d: %v, %v", i, got, err)
		}
		for j := i; j < n; j += 7 {
			m := ristretto.NewIdentityElement().Add(codes[i], codes[j])
			got, err := MixTargets(m, n, 2)
			if err != nil || got[i] == 0 || got[j] == 0 || (i == j) != (got[i] == 2) {
				t.Fatalf("codes %d+%d: %v, %v", i, j, got, err)
			}
		}
	}
	// 1·G is code 0; 2·G (two votes at nothing) and a code beyond n
	// are not.
	two := ristretto.NewIdentityElement().Add(Base(), Base())
	if _, err := MixTargets(two, n, 1); !errors.Is(err, ErrMixCode) {
		t.Fatalf("2·G as one code: %v", err)
	}
	if _, err := MixTargets(codePoints(7)[6], 6, 1); !errors.Is(err, ErrMixCode) {
		t.Fatalf("code 6 of 6 targets: %v", err)
	}
	for _, bad := range [][2]int{{0, 1}, {1, MaxMixCodes + 1}, {n + 1, 1}} {
		if _, err := MixTargets(Base(), bad[0], bad[1]); err == nil {
			t.Fatalf("decoding %d codes over %d targets", bad[1], bad[0])
		}
	}
}

// The code sum of a one-hot sum encrypts its target's code; of an empty
// one, zero.
func TestCodeSum(t *testing.T) {
	sks, jk := ballotTable(t, 3)
	for _, ch := range []int{0, 3, 4} {
		c, err := mixSum(t, jk, 5, NoVote, ch).CodeSum()
		if err != nil {
			t.Fatal(err)
		}
		if mixOpen(t, sks, c).Equal(codePoints(5)[ch]) != 1 {
			t.Fatalf("code sum of a vote for %d", ch)
		}
	}
	c, err := mixSum(t, jk, 5, NoVote).CodeSum()
	if err != nil {
		t.Fatal(err)
	}
	if mixOpen(t, sks, c).Equal(Identity()) != 1 {
		t.Fatal("code sum of an empty ballot")
	}
	if _, err := (BallotSum{}).CodeSum(); err == nil {
		t.Fatal("code sum of nothing")
	}
	if _, err := MixPick(Card{{A: Identity(), B: Base()}, {A: Identity(), B: Base()}, {A: Identity(), B: Base()}}, 5); err == nil {
		t.Fatal("a pick of a width-3 card")
	}
}

// A shuffler cannot change what a mixed tally opens: a count raised, two
// targets' codes exchanged under their counts, a pair replaced by a copy
// of another, or another seat's shuffle posted again (as its own, at
// another position, or as a shuffle of its own output) is rejected.
func TestMixShuffleSoundness(t *testing.T) {
	_, jk := ballotTable(t, 3)
	const n = 5
	pairs, err := mixSum(t, jk, n, 1, 1, 3).MixPairs()
	if err != nil {
		t.Fatal(err)
	}
	ctx0 := Context{Table: [32]byte{'m'}, Pos: 2, Seat: 0}
	ctx1 := Context{Table: [32]byte{'m'}, Pos: 3, Seat: 1}
	out0, p0, err := jk.Shuffle(ctx0, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if err := jk.VerifyShuffle(ctx0, pairs, out0, p0); err != nil {
		t.Fatal(err)
	}
	forged := func(what string, tamper func([]Card) []Card) {
		t.Helper()
		in := tamper(cloneDeck(pairs))
		out, p, err := jk.Shuffle(ctx0, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := jk.VerifyShuffle(ctx0, pairs, out, p); err == nil {
			t.Errorf("%s: a shuffle of the false pairs verifies against the true ones", what)
		}
		// The same false outputs under the honest proof fail too.
		if err := jk.VerifyShuffle(ctx0, pairs, tamper(cloneDeck(out0)), p0); err == nil {
			t.Errorf("%s: tampered outputs verify under the honest proof", what)
		}
	}
	forged("a count raised by one", func(d []Card) []Card {
		d[3][1].B = ristretto.NewIdentityElement().Add(d[3][1].B, Base())
		return d
	})
	forged("two codes exchanged", func(d []Card) []Card {
		d[1][0], d[3][0] = d[3][0], d[1][0]
		return d
	})
	forged("a pair copied over another", func(d []Card) []Card {
		d[0] = d[1].Clone()
		return d
	})
	if err := jk.VerifyShuffle(ctx1, pairs, out0, p0); err == nil {
		t.Error("seat 0's shuffle verifies as seat 1's")
	}
	if err := jk.VerifyShuffle(Context{Table: ctx0.Table, Pos: 7, Seat: 0}, pairs, out0, p0); err == nil {
		t.Error("seat 0's shuffle verifies at another position")
	}
	if err := jk.VerifyShuffle(ctx1, out0, out0, p0); err == nil {
		t.Error("seat 0's proof verifies as seat 1's shuffle of its output, unchanged")
	}
}
