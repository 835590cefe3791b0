package mental

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

func TestCoinCommitReveal(t *testing.T) {
	ctx := Context{Table: [32]byte{4}, Pos: 10, Seat: 2}
	c, r := CoinCommit(ctx, "tie-break")
	if err := VerifyCoinReveal(ctx, "tie-break", c, r); err != nil {
		t.Fatalf("honest reveal rejected: %v", err)
	}
	other := r
	other[0] ^= 1
	cases := []struct {
		name  string
		ctx   Context
		label string
		r     CoinReveal
	}{
		{"table", Context{Table: [32]byte{5}, Pos: 10, Seat: 2}, "tie-break", r},
		{"position", Context{Table: [32]byte{4}, Pos: 11, Seat: 2}, "tie-break", r},
		{"seat", Context{Table: [32]byte{4}, Pos: 10, Seat: 3}, "tie-break", r},
		{"label", ctx, "tie-brea", r},
		{"reveal", ctx, "tie-break", other},
	}
	for _, tc := range cases {
		if err := VerifyCoinReveal(tc.ctx, tc.label, c, tc.r); !errors.Is(err, ErrProof) {
			t.Errorf("another %s: got %v, want ErrProof", tc.name, err)
		}
	}
	c2, r2 := CoinCommit(ctx, "tie-break")
	if c2 == c || r2 == r {
		t.Error("two commitments drew the same bytes")
	}
}

func TestCombineCoins(t *testing.T) {
	table := [32]byte{1}
	rs := []CoinReveal{{1}, {2}, {3}}
	seed, err := CombineCoins(table, "pick", rs)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := CombineCoins(table, "pick", slices.Clone(rs))
	if seed != again {
		t.Fatal("CombineCoins is not deterministic")
	}
	variants := map[string]func() ([32]byte, error){
		"order":       func() ([32]byte, error) { return CombineCoins(table, "pick", []CoinReveal{{2}, {1}, {3}}) },
		"one reveal":  func() ([32]byte, error) { return CombineCoins(table, "pick", []CoinReveal{{1}, {2}, {4}}) },
		"fewer seats": func() ([32]byte, error) { return CombineCoins(table, "pick", rs[:2]) },
		"label":       func() ([32]byte, error) { return CombineCoins(table, "pick2", rs) },
		"table":       func() ([32]byte, error) { return CombineCoins([32]byte{2}, "pick", rs) },
	}
	for name, f := range variants {
		s, err := f()
		if err != nil {
			t.Fatal(err)
		}
		if s == seed {
			t.Errorf("changing the %s left the seed unchanged", name)
		}
	}
	if _, err := CombineCoins(table, "pick", nil); err == nil {
		t.Error("no reveals accepted")
	}
}

func TestCoinDecoders(t *testing.T) {
	for _, n := range []int{0, 31, 33, 64} {
		if _, err := UnmarshalCoinCommitment(make([]byte, n)); !errors.Is(err, ErrEncoding) {
			t.Errorf("commitment of %d bytes: got %v", n, err)
		}
		if _, err := UnmarshalCoinReveal(make([]byte, n)); !errors.Is(err, ErrEncoding) {
			t.Errorf("reveal of %d bytes: got %v", n, err)
		}
	}
	c, r := CoinCommit(Context{}, "x")
	cb, _ := c.MarshalBinary()
	rb, _ := r.MarshalBinary()
	c2, err1 := UnmarshalCoinCommitment(cb)
	r2, err2 := UnmarshalCoinReveal(rb)
	if err1 != nil || err2 != nil || c2 != c || r2 != r {
		t.Error("coin encodings do not round-trip")
	}
}

func coinSeedN(i int) [32]byte {
	var s [32]byte
	binary.BigEndian.PutUint64(s[:], uint64(i))
	return s
}

// coinChiSquare returns Σ (o-e)²/e for counts against a uniform expectation.
func coinChiSquare(counts []int, total int) float64 {
	e := float64(total) / float64(len(counts))
	var x float64
	for _, o := range counts {
		d := float64(o) - e
		x += d * d / e
	}
	return x
}

func TestCoinStream(t *testing.T) {
	s1 := NewCoinStream(coinSeedN(1), "a")
	s2 := NewCoinStream(coinSeedN(1), "a")
	s3 := NewCoinStream(coinSeedN(1), "b")
	differ := false
	for range 100 {
		a, _ := s1.Intn(1000)
		b, _ := s2.Intn(1000)
		c, _ := s3.Intn(1000)
		if a != b {
			t.Fatal("same seed and purpose give different draws")
		}
		differ = differ || a != c
	}
	if !differ {
		t.Error("different purposes give the same stream")
	}
	for _, n := range []int{0, -1} {
		if _, err := s1.Intn(n); err == nil {
			t.Errorf("Intn(%d) accepted", n)
		}
	}
	if _, err := s1.Perm(-1); err == nil {
		t.Error("Perm(-1) accepted")
	}
	if _, err := s1.Perm(MaxCoinPermutation + 1); err == nil {
		t.Error("Perm too large accepted")
	}
	if p, err := s1.Perm(0); err != nil || len(p) != 0 {
		t.Errorf("Perm(0) = %v, %v", p, err)
	}
	// Large n: rejection keeps results in range.
	big := 1<<62 + 12345
	for range 1000 {
		v, _ := s1.Intn(big)
		if v < 0 || v >= big {
			t.Fatalf("Intn(%d) = %d", big, v)
		}
	}
}

// TestCoinUniform checks Intn and Perm with chi-square tests over
// deterministic seeds (so the test cannot flake). Thresholds are the
// 1-in-10^6 quantiles: 6 buckets (5 df) 35.9, 7 buckets (6 df) 38.3.
func TestCoinUniform(t *testing.T) {
	const runs = 12000
	counts := make([]int, 7)
	perms := map[[3]int]int{}
	for i := range runs {
		v, err := CoinIntn(coinSeedN(i), "uniform", 7)
		if err != nil {
			t.Fatal(err)
		}
		counts[v]++
		p, err := CoinPermutation(coinSeedN(i), "perm", 3)
		if err != nil {
			t.Fatal(err)
		}
		perms[[3]int(p)]++
	}
	if x := coinChiSquare(counts, runs); x > 38.3 {
		t.Errorf("Intn(7): chi-square %.1f > 38.3: %v", x, counts)
	}
	if len(perms) != 6 {
		t.Fatalf("Perm(3) produced %d distinct permutations, want 6", len(perms))
	}
	var pc []int
	for _, c := range perms {
		pc = append(pc, c)
	}
	if x := coinChiSquare(pc, runs); x > 35.9 {
		t.Errorf("Perm(3): chi-square %.1f > 35.9: %v", x, perms)
	}
	p, _ := CoinPermutation(coinSeedN(0), "perm", 64)
	sorted := slices.Sorted(slices.Values(p))
	for i, v := range sorted {
		if v != i {
			t.Fatalf("Perm(64) is not a permutation: %v", p)
		}
	}
}
