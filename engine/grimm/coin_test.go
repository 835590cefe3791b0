package grimm_test

import (
	"testing"

	"github.com/masque-games/masque/engine/grimm"
)

func TestStreamDeterministic(t *testing.T) {
	var c [32]byte
	c[0] = 7
	a, b := grimm.NewStream(c, "round"), grimm.NewStream(c, "round")
	d := grimm.NewStream(c, "dance")
	same := 0
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), d.Uint64()
		if x != y {
			t.Fatal("one coin and purpose gave two streams")
		}
		if x == z {
			same++
		}
	}
	if same > 0 {
		t.Errorf("the purpose does not separate the streams (%d equal draws)", same)
	}
}

// A frozen vector: a peer in another language must derive the same
// choices from the same coin.
func TestStreamVector(t *testing.T) {
	var c [32]byte
	for i := range c {
		c[i] = byte(i)
	}
	s := grimm.NewStream(c, "round")
	got := []int{s.Intn(6), s.Intn(5), s.Intn(3), s.Intn(1000000007)}
	want := frozenVector
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("stream vector %v, want %v", got, want)
		}
	}
}

func TestIntnUniform(t *testing.T) {
	var c [32]byte
	s := grimm.NewStream(c, "test")
	const n, draws = 7, 70000
	var cnt [n]int
	for range draws {
		cnt[s.Intn(n)]++
	}
	// Chi-square with 6 degrees of freedom: 22.46 is the 0.999 quantile.
	chi := 0.0
	for _, k := range cnt {
		d := float64(k) - draws/n
		chi += d * d / (draws / n)
	}
	if chi > 22.46 {
		t.Errorf("chi-square %.1f over %v", chi, cnt)
	}
	if s.Intn(1) != 0 || s.Intn(0) != 0 {
		t.Error("Intn of 0 or 1 is not 0")
	}
}

func TestPick(t *testing.T) {
	var c [32]byte
	from := []int{1, 2, 3, 4}
	got := grimm.Pick(grimm.NewStream(c, "x"), from, 3)
	if len(got) != 3 || got[0] == got[1] || got[1] == got[2] || got[0] == got[2] {
		t.Errorf("Pick gave %v", got)
	}
	if len(grimm.Pick(grimm.NewStream(c, "x"), from, 9)) != 4 || from[0] != 1 || from[3] != 4 {
		t.Errorf("Pick beyond the list, or it changed its input: %v", from)
	}
}

// frozenVector was computed independently (Python hashlib) from the
// definition in Stream's documentation.
var frozenVector = []int{2, 4, 2, 660963565}
