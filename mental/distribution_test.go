package mental

import (
	"fmt"
	"math"
	"math/bits"
	"testing"
	"testing/cryptotest"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Distribution tests for the hidden swap (SPEC.md tests): nothing in a
// swap's outputs and proof may tell a swap from a pretend-swap better than
// chance.
//
// Method. distRuns swaps of the same two width-1 cards are made with a
// random bit, crypto/rand seeded by cryptotest.SetGlobalRandom (so the
// test is deterministic and cannot flake). For every byte position of
// out0 || out1 || proof, three statistics are taken: the byte's parity,
// its lowest bit and its highest bit (the lowest bits of every scalar and
// point encoding are among them). For each statistic the two-proportion z
// score between bit=0 and bit=1 runs must satisfy |z| < distZ = 5: with
// about 1000 statistics, the chance that an honest, leak-free swap trips
// any of them is about 6·10^-4, while a statistic tied to the bit gives
// |z| ≈ √distRuns ≈ 60 (the control below checks the harness sees that).
// The OR's two branch challenges (e0 from the proof, e1 = c - e0
// recomputed from the transcript) must be uniform for each bit: their low
// 4 bits bucketed into 16 classes pass a chi-square test at the 10^-6
// level (15 df: 56.5), and e0's buckets do not differ between bit=0 and
// bit=1 runs (homogeneity, same threshold).

const (
	distRuns = 3000
	distZ    = 5.0
	distChi  = 56.5 // chi-square, 15 degrees of freedom, 1 - 10^-6 quantile
)

// distSample is one swap: its bit, its public bytes and its two branch
// challenges.
type distSample struct {
	bit    int
	data   []byte
	e0, e1 *Scalar
}

func distSwaps(t *testing.T) []distSample {
	cryptotest.SetGlobalRandom(t, 0x5a5a)
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'d'}, Pos: 1, Seat: 0}
	c0, c1 := f.jk.Encrypt(CardPoint(1)), f.jk.Encrypt(CardPoint(2))
	coin := NewCoinStream([32]byte{1}, "swap-bits")
	out := make([]distSample, distRuns)
	for i := range out {
		bit, _ := coin.Intn(2)
		o0, o1, p, err := f.jk.Swap(ctx, c0, c1, bit == 1)
		if err != nil {
			t.Fatal(err)
		}
		b0, _ := o0.MarshalBinary()
		b1, _ := o1.MarshalBinary()
		pb, _ := p.MarshalBinary()
		data := append(append(b0[1:], b1[1:]...), pb...) // drop the constant width bytes
		// Recompute the transcript challenge c as the verifier does.
		tr, fm := f.jk.swapStatement(ctx, c0, c1, o0, o1)
		fm.absorbShape(tr)
		tr.AppendUint64("commitments/n", uint64(len(p.sigma.commitments)))
		tr.Append("commitments", p.sigma.commitmentBytes())
		c := tr.ChallengeScalar("challenge")
		e0 := p.sigma.challenges[0]
		out[i] = distSample{bit: bit, data: data, e0: e0, e1: ristretto.NewScalar().Subtract(c, e0)}
		if i == 0 {
			if err := f.jk.VerifySwap(ctx, c0, c1, o0, o1, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// distMaxZ returns the largest |z| over every statistic of the samples'
// data, and which statistic it was.
func distMaxZ(samples []distSample) (float64, string) {
	n := len(samples[0].data)
	stats := []struct {
		name string
		f    func(byte) int
	}{
		{"parity", func(b byte) int { return bits.OnesCount8(b) & 1 }},
		{"bit0", func(b byte) int { return int(b & 1) }},
		{"bit7", func(b byte) int { return int(b >> 7) }},
	}
	var n0, n1 float64
	for _, s := range samples {
		if s.bit == 1 {
			n1++
		} else {
			n0++
		}
	}
	worst, where := 0.0, ""
	for j := range n {
		for _, st := range stats {
			var k0, k1 float64
			for _, s := range samples {
				if st.f(s.data[j]) == 1 {
					if s.bit == 1 {
						k1++
					} else {
						k0++
					}
				}
			}
			p := (k0 + k1) / (n0 + n1)
			if p == 0 || p == 1 {
				continue // constant in both classes
			}
			z := math.Abs(k1/n1-k0/n0) / math.Sqrt(p*(1-p)*(1/n0+1/n1))
			if z > worst {
				worst, where = z, fmt.Sprintf("%s of byte %d", st.name, j)
			}
		}
	}
	return worst, where
}

func lowNibble(s *Scalar) int { return int(ristretto.AppendScalar(nil, s)[0] & 15) }

func distChiUniform(counts []int) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	e := float64(total) / float64(len(counts))
	var x float64
	for _, c := range counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

// distChiHomogeneity is the chi-square statistic of a 2×k table.
func distChiHomogeneity(a, b []int) float64 {
	var ta, tb float64
	for i := range a {
		ta += float64(a[i])
		tb += float64(b[i])
	}
	var x float64
	for i := range a {
		col := float64(a[i] + b[i])
		if col == 0 {
			continue
		}
		ea, eb := col*ta/(ta+tb), col*tb/(ta+tb)
		x += (float64(a[i])-ea)*(float64(a[i])-ea)/ea + (float64(b[i])-eb)*(float64(b[i])-eb)/eb
	}
	return x
}

func TestSwapIndistinguishable(t *testing.T) {
	if testing.Short() {
		t.Skip("distribution test skipped in -short mode")
	}
	samples := distSwaps(t)
	ones := 0
	for _, s := range samples {
		ones += s.bit
	}
	if ones < distRuns/3 || ones > 2*distRuns/3 {
		t.Fatalf("bits drawn unevenly: %d of %d", ones, distRuns)
	}

	z, where := distMaxZ(samples)
	t.Logf("largest |z| over byte statistics: %.2f (%s), threshold %.1f", z, where, distZ)
	if z >= distZ {
		t.Errorf("swap output or proof correlates with the bit: |z| = %.2f at %s", z, where)
	}

	// Control: the harness must see a planted leak.
	leaky := make([]distSample, len(samples))
	for i, s := range samples {
		d := append([]byte{}, s.data...)
		d[len(d)/2] = d[len(d)/2]&^1 | byte(s.bit) // lowest bit := swap bit
		leaky[i] = distSample{bit: s.bit, data: d}
	}
	if z, _ := distMaxZ(leaky); z < 10*distZ {
		t.Errorf("control: a planted one-bit leak gives only |z| = %.2f", z)
	}

	// Branch challenges.
	var e0c, e1c [2][]int
	for b := range 2 {
		e0c[b], e1c[b] = make([]int, 16), make([]int, 16)
	}
	for _, s := range samples {
		e0c[s.bit][lowNibble(s.e0)]++
		e1c[s.bit][lowNibble(s.e1)]++
	}
	for b := range 2 {
		for name, counts := range map[string][]int{"e0": e0c[b], "e1": e1c[b]} {
			if x := distChiUniform(counts); x > distChi {
				t.Errorf("bit %d: branch challenge %s is not uniform: chi-square %.1f > %.1f: %v", b, name, x, distChi, counts)
			}
		}
	}
	for name, c := range map[string][2][]int{"e0": e0c, "e1": e1c} {
		x := distChiHomogeneity(c[0], c[1])
		t.Logf("branch challenge %s: homogeneity chi-square between bits %.1f (threshold %.1f)", name, x, distChi)
		if x > distChi {
			t.Errorf("branch challenge %s is distributed differently for the two bits: chi-square %.1f", name, x)
		}
	}
}
