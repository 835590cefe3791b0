package mental

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// blindChain runs a blinded identity test of c by the living seats in
// order (each step verified alone and in one batch), then removes the
// retired seats' keys, and returns the answer and the last output.
func blindChain(t *testing.T, sks []*SecretKey, retired map[int]bool, c Card) (bool, Card) {
	t.Helper()
	var bt Batch
	in := c
	for seat, sk := range sks {
		if retired[seat] {
			continue
		}
		ctx := Context{Table: [32]byte{'b', 'l'}, Pos: uint64(20 + seat), Seat: uint32(seat)}
		st, err := sk.BlindStep(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyBlindStep(ctx, sk.Public(), in, st); err != nil {
			t.Fatalf("seat %d's honest step: %v", seat, err)
		}
		b, err := st.MarshalBinary()
		if err != nil || len(b) != BlindStepSize {
			t.Fatalf("encoding %d bytes, %v", len(b), err)
		}
		back, err := UnmarshalBlindStep(b)
		if err != nil {
			t.Fatal(err)
		}
		bt.AddBlindStep(fmt.Sprintf("seat %d", seat), ctx, sk.Public(), in, back)
		in = back.Out
	}
	if err := bt.Verify(); err != nil {
		t.Fatal(err)
	}
	var rs [][]*Element
	for seat, sk := range sks {
		if retired[seat] {
			rs = append(rs, sk.RetiredShare(in))
		}
	}
	id, err := BlindedIsIdentity(in, rs)
	if err != nil {
		t.Fatal(err)
	}
	return id, in
}

// The test answers exactly "identity or not", with or without retired
// seats, and a non-identity's blinded value is fresh each time (it tells
// nothing of the plaintext: two tests of the same code give unrelated
// points).
func TestBlindedIdentityTest(t *testing.T) {
	sks, jk := ballotTable(t, 4)
	for _, retired := range []map[int]bool{nil, {1: true}, {0: true, 3: true}} {
		for _, tc := range []struct {
			name string
			m    *Element
			id   bool
		}{
			{"identity", Identity(), true},
			{"code 3^4", codePoints(5)[4], false},
			{"generator", Base(), false},
		} {
			c := jk.Encrypt(tc.m)
			id, out1 := blindChain(t, sks, retired, c)
			if id != tc.id {
				t.Errorf("%s, retired %v: identity %v, want %v", tc.name, retired, id, tc.id)
			}
			_, out2 := blindChain(t, sks, retired, c)
			var z [2]*Element
			for i, out := range []Card{out1, out2} {
				var rs [][]*Element
				for seat, sk := range sks {
					if retired[seat] {
						rs = append(rs, sk.RetiredShare(out))
					}
				}
				m, err := Open(out, rs)
				if err != nil {
					t.Fatal(err)
				}
				z[i] = m[0]
			}
			if !tc.id && (z[0].Equal(z[1]) == 1 || z[0].Equal(tc.m) == 1) {
				t.Errorf("%s: the blinded value repeats or is the plaintext", tc.name)
			}
		}
	}
	if _, err := BlindedIsIdentity(Card{}, nil); err == nil {
		t.Error("a blinded test of a width-0 card")
	}
}

// forgeBlindStep makes a step with witnesses of the forger's choice (u not
// necessarily r·x), through the prover's own algorithm.
func forgeBlindStep(t *testing.T, ctx Context, X *Element, in Card, r, u *Scalar) *BlindStep {
	t.Helper()
	st, err := blindStepProve(ctx, X, in, r, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Soundness: every way to make a step verify something false is refused,
// alone and in a batch: a step that does not remove its own key (u = 0),
// that removes another seat's key, that blinds by 0 (turning a vote into
// the identity), whose output is another ciphertext (a fresh encryption
// of the identity, or the honest output shifted), a replay under another
// context, key or input, an input whose A is the identity, and every
// single-bit change of an honest encoding.
func TestBlindStepSoundness(t *testing.T) {
	sks, jk := ballotTable(t, 3)
	ctx := Context{Table: [32]byte{'b', 'l'}, Pos: 7, Seat: 1}
	X := sks[1].Public()
	in := jk.Encrypt(codePoints(4)[2]) // a vote: not the identity
	honest, err := sks[1].BlindStep(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyBlindStep(ctx, X, in, honest); err != nil {
		t.Fatal(err)
	}
	r := randomScalar()
	rx := ristretto.NewScalar().Multiply(r, sks[1].x)
	// The forger's own consistent step verifies (the control).
	if err := VerifyBlindStep(ctx, X, in, forgeBlindStep(t, ctx, X, in, r, rx)); err != nil {
		t.Fatalf("the control, u = r·x: %v", err)
	}
	ctx0, X0, in0 := ctx, X, in
	refused := func(what string, ctx Context, X *Element, in Card, st *BlindStep) {
		t.Helper()
		if err := VerifyBlindStep(ctx, X, in, st); err == nil {
			t.Errorf("%s: verifies", what)
		} else if !errors.Is(err, ErrProof) {
			t.Errorf("%s: %v, want ErrProof", what, err)
		}
		var bt Batch
		bt.AddBlindStep("honest", ctx0, X0, in0, forgeBlindStep(t, ctx0, X0, in0, r, rx))
		bt.AddBlindStep("forged", ctx, X, in, st)
		var be *BatchError
		if err := bt.Verify(); !errors.As(err, &be) || be.Name != "forged" {
			t.Errorf("%s: the batch says %v, want the forged step named", what, err)
		}
	}
	refused("own key kept (u = 0)", ctx, X, in, forgeBlindStep(t, ctx, X, in, r, ristretto.NewScalar()))
	refused("another seat's key removed", ctx, X, in, forgeBlindStep(t, ctx, X, in, r, ristretto.NewScalar().Multiply(r, sks[2].x)))
	refused("blinded by 0", ctx, X, in, forgeBlindStep(t, ctx, X, in, ristretto.NewScalar(), ristretto.NewScalar()))
	// Blinding by 0 would turn the vote into the identity: the test would
	// skip it. The output is (identity, identity), refused by its A alone.
	zero := forgeBlindStep(t, ctx, X, in, ristretto.NewScalar(), ristretto.NewScalar())
	if isIdentity(zero.Out[0].A) != true || isIdentity(zero.Out[0].B) != true {
		t.Fatal("the zero step is not (identity, identity)")
	}
	// A fresh encryption of the identity in place of the output, under the
	// honest proof.
	s := randomScalar()
	fresh := &BlindStep{Out: Card{{A: ristretto.NewIdentityElement().ScalarBaseMult(s), B: ristretto.NewIdentityElement().ScalarMult(s, jk.H)}}, proof: honest.proof}
	refused("a fresh encryption of the identity", ctx, X, in, fresh)
	shifted := &BlindStep{Out: Card{{A: honest.Out[0].A, B: ristretto.NewIdentityElement().Subtract(honest.Out[0].B, codePoints(4)[2])}}, proof: honest.proof}
	refused("the output's B shifted by the code", ctx, X, in, shifted)
	refused("another position", Context{Table: ctx.Table, Pos: 8, Seat: 1}, X, in, honest)
	refused("another seat", Context{Table: ctx.Table, Pos: 7, Seat: 2}, X, in, honest)
	refused("another table", Context{Table: [32]byte{'x'}, Pos: 7, Seat: 1}, X, in, honest)
	refused("another key", ctx, sks[2].Public(), in, honest)
	refused("another input", ctx, X, jk.Encrypt(codePoints(4)[2]), honest)
	// An input whose A is the identity cannot be blinded: refused by the
	// prover and the verifier.
	bare := Card{{A: Identity(), B: Identity()}}
	if _, err := sks[1].BlindStep(ctx, bare); err == nil {
		t.Error("a step of an input with A = identity")
	}
	if err := VerifyBlindStep(ctx, X, bare, forgeBlindStep(t, ctx, X, bare, r, rx)); err == nil {
		t.Error("a step of an input with A = identity verifies")
	}
	if err := VerifyBlindStep(ctx, X, Card{in[0], in[0]}, honest); err == nil {
		t.Error("a step of a width-2 input verifies")
	}
	if err := VerifyBlindStep(ctx, X, in, nil); err == nil {
		t.Error("a missing step verifies")
	}
	// Every bit of the encoding.
	b, err := honest.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(b) * 8 {
		c := append([]byte{}, b...)
		c[i/8] ^= 1 << (i % 8)
		st, err := UnmarshalBlindStep(c)
		if err != nil {
			continue
		}
		if VerifyBlindStep(ctx, X, in, st) == nil {
			t.Errorf("bit %d flipped: verifies", i)
		}
	}
	for _, n := range []int{0, BlindStepSize - 1, BlindStepSize + 1} {
		if _, err := UnmarshalBlindStep(make([]byte, n)); err == nil {
			t.Errorf("%d bytes decode", n)
		}
	}
}

// The one-vote kill (SPEC.md §9.8) at the level of this package: the kill
// ballots' code sums of n voters, two of them holders, shuffled by every
// seat, tested in the shuffled order until the first that is not the
// identity, then that card picked with the Madman's code sum added. The
// victim is always one of the two votes, and the Madman's target is in
// the opened set.
func TestOneVoteKill(t *testing.T) {
	const n = 5
	sks, jk := ballotTable(t, n)
	for _, tc := range []struct {
		name   string
		votes  []int // per voter: target index or NoVote
		madman int
	}{
		{"agreed", []int{NoVote, 3, NoVote, 3, NoVote}, 0},
		{"split", []int{2, NoVote, NoVote, 4, NoVote}, 2},
	} {
		var sums []Card
		for seat, v := range tc.votes {
			b, err := jk.CastBallot(Context{Table: [32]byte{'k'}, Pos: 1, Seat: uint32(seat)}, n, v)
			if err != nil {
				t.Fatal(err)
			}
			s, err := AddBallots(b)
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.CodeSum()
			if err != nil {
				t.Fatal(err)
			}
			sums = append(sums, c)
		}
		mixed := mixShuffle(t, jk, sums, n)
		k := -1
		for i, c := range mixed {
			id, _ := blindChain(t, sks, nil, c)
			if !id {
				k = i
				break
			}
		}
		if k < 0 {
			t.Fatalf("%s: every code sum is the identity", tc.name)
		}
		pick, err := MixPick(mixed[k], n, mixSum(t, jk, n, tc.madman))
		if err != nil {
			t.Fatal(err)
		}
		counts, err := MixTargets(mixOpen(t, sks, pick), n, 2)
		if err != nil {
			t.Fatal(err)
		}
		counts[tc.madman]--
		if counts[tc.madman] < 0 {
			t.Fatalf("%s: the Madman's target is not opened: %v", tc.name, counts)
		}
		victim := -1
		for i, c := range counts {
			if c == 1 {
				victim = i
			}
		}
		voted := false
		for _, v := range tc.votes {
			voted = voted || v == victim
		}
		if !voted {
			t.Errorf("%s: the victim %d is nobody's vote %v", tc.name, victim, tc.votes)
		}
	}
}

// With the holders split, each vote is the first in the shuffled order
// about half the time, and the number of tests before it follows
// P(k* = j) = (n − 1 − j)/(n(n − 1)/2) (SPEC.md §9.8): 120 one-vote kills
// of 4 voters (two holders naming targets 0 and 2), every shuffle and
// step proven. The bounds are about 3.5 standard deviations wide.
func TestOneVoteKillFair(t *testing.T) {
	if testing.Short() {
		t.Skip("120 one-vote kills")
	}
	const n, runs = 4, 120
	sks, jk := ballotTable(t, n)
	votes := []int{NoVote, 0, NoVote, 2}
	won := map[int]int{}
	first := make([]int, n)
	for range runs {
		var sums []Card
		for seat, v := range votes {
			b, err := jk.CastBallot(Context{Table: [32]byte{'f'}, Pos: 1, Seat: uint32(seat)}, n, v)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := AddBallots(b)
			c, _ := s.CodeSum()
			sums = append(sums, c)
		}
		mixed := mixShuffle(t, jk, sums, n)
		k := -1
		for i, c := range mixed {
			if id, _ := blindChain(t, sks, nil, c); !id {
				k = i
				break
			}
		}
		first[k]++
		m := mixOpen(t, sks, Card{mixed[k][0]})
		counts, err := MixTargets(m, n, 1)
		if err != nil {
			t.Fatal(err)
		}
		won[slices.Index(counts, 1)]++
	}
	if won[0]+won[2] != runs || won[0] < 41 || won[0] > 79 {
		t.Errorf("target 0 won %d of %d, target 2 %d", won[0], runs, won[2])
	}
	// P(k* = j) = (3 − j)/6: 60, 40, 20 of 120, never 3.
	for j, want := range []int{60, 40, 20, 0} {
		lo, hi := want-19, want+19
		if want == 0 {
			lo, hi = 0, 0
		}
		if first[j] < lo || first[j] > hi {
			t.Errorf("the first vote was card %d %d times of %d, want about %d", j, first[j], runs, want)
		}
	}
}
