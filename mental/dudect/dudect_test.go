package dudect

import (
	"math"
	"testing"
)

// Welch's t of known samples, and Measure on the same function (no
// difference) and on a function with a planted difference.
func TestWelch(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{2, 3, 4, 5, 6}
	// Means 3 and 4, variances 2.5: t = -1/sqrt(0.5+0.5) = -1.
	if got := Welch(a, b); math.Abs(got+1) > 1e-12 {
		t.Fatalf("Welch = %v, want -1", got)
	}
	if Welch(a, a) != 0 || Welch(a[:1], b) != 0 {
		t.Fatal("equal samples or a sample of one give a nonzero t")
	}
}

func TestMeasureSeesAPlantedDifference(t *testing.T) {
	work := func(k int) func() {
		return func() {
			x := 1.0
			for i := range k {
				x = math.Sqrt(x + float64(i))
			}
			sink = x
		}
	}
	if r := Measure(300, [2]func(){work(2000), work(20000)}); r.MaxT() < 10*Threshold {
		t.Fatalf("a tenfold difference: %v", r)
	}
}

var sink float64
