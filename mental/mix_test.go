package mental

import (
	"errors"
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
