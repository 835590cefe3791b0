package msm

import (
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

func randomScalar(t testing.TB) *ristretto.Scalar {
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return ristretto.UniformScalar(b[:])
}

func randomElement(t testing.TB) *ristretto.Element {
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return ristretto.UniformElement(b[:])
}

// shortScalar returns a random scalar below 2^bits.
func shortScalar(t testing.TB, bits int) *ristretto.Scalar {
	var b [32]byte
	if _, err := rand.Read(b[:bits/8]); err != nil {
		t.Fatal(err)
	}
	s := ristretto.NewScalar()
	if _, err := s.SetCanonicalBytes(b[:]); err != nil {
		t.Fatal(err)
	}
	return s
}

func encode(ss []*ristretto.Scalar) []Scalar {
	out := make([]Scalar, len(ss))
	for i, s := range ss {
		copy(out[i][:], ristretto.AppendScalar(nil, s))
	}
	return out
}

func reference(ss []*ristretto.Scalar, ps []*ristretto.Element) *ristretto.Element {
	return ristretto.NewIdentityElement().VarTimeMultiScalarMult(ss, ps)
}

// TestBridgeLayout checks that extendedOf reads the point an Element holds:
// coordinates read from two elements, added here, give the element that
// ristretto255 computes.
func TestBridgeLayout(t *testing.T) {
	k := newCurveConstants()
	for range 20 {
		a, b := randomElement(t), randomElement(t)
		p, q := extendedOf(a), extendedOf(b)
		p.add(k, &q)
		want := ristretto.NewIdentityElement().Add(a, b)
		if toElement(&p).Equal(want) != 1 {
			t.Fatal("coordinates read through extendedOf do not add up to the element's sum")
		}
	}
}

// TestFormulas checks each point formula against ristretto255.
func TestFormulas(t *testing.T) {
	k := newCurveConstants()
	for range 20 {
		a, b := randomElement(t), randomElement(t)
		nb := toNiels(k, []*ristretto.Element{b})
		p := extendedOf(a)
		sum, diff, dbl := p, p, p
		sum.addNiels(&nb[0], false)
		diff.addNiels(&nb[0], true)
		dbl.double()
		var set, setNeg extended
		set.setNiels(k, &nb[0], false)
		setNeg.setNiels(k, &nb[0], true)
		for _, c := range []struct {
			name string
			got  *extended
			want *ristretto.Element
		}{
			{"mixed add", &sum, ristretto.NewIdentityElement().Add(a, b)},
			{"mixed subtract", &diff, ristretto.NewIdentityElement().Subtract(a, b)},
			{"double", &dbl, ristretto.NewIdentityElement().Add(a, a)},
			{"set from affine", &set, b},
			{"set negated", &setNeg, ristretto.NewIdentityElement().Negate(b)},
		} {
			if toElement(c.got).Equal(c.want) != 1 {
				t.Fatalf("%s disagrees with ristretto255", c.name)
			}
		}
	}
}

func TestMultiScalarMult(t *testing.T) {
	q1 := ristretto.NewScalar().Negate(ristretto.UniformScalar(make([]byte, 64))) // 0
	one := make([]byte, 32)
	one[0] = 1
	sOne := ristretto.NewScalar()
	if _, err := sOne.SetCanonicalBytes(one); err != nil {
		t.Fatal(err)
	}
	minusOne := ristretto.NewScalar().Negate(sOne) // q - 1, the largest scalar
	cases := []struct {
		name string
		make func() ([]*ristretto.Scalar, []*ristretto.Element)
	}{
		{"empty", func() ([]*ristretto.Scalar, []*ristretto.Element) { return nil, nil }},
		{"one point", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			return []*ristretto.Scalar{randomScalar(t)}, []*ristretto.Element{randomElement(t)}
		}},
		{"zero scalars", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			return []*ristretto.Scalar{q1, q1}, []*ristretto.Element{randomElement(t), randomElement(t)}
		}},
		{"largest scalars", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			return []*ristretto.Scalar{minusOne, minusOne, sOne}, []*ristretto.Element{randomElement(t), randomElement(t), randomElement(t)}
		}},
		{"identity points", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			return []*ristretto.Scalar{randomScalar(t), randomScalar(t)}, []*ristretto.Element{ristretto.NewIdentityElement(), randomElement(t)}
		}},
		{"same point twice and its negation", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			p := randomElement(t)
			return []*ristretto.Scalar{randomScalar(t), randomScalar(t), randomScalar(t)}, []*ristretto.Element{p, p, ristretto.NewIdentityElement().Negate(p)}
		}},
		{"cancelling to identity", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			p, s := randomElement(t), randomScalar(t)
			return []*ristretto.Scalar{s, ristretto.NewScalar().Negate(s)}, []*ristretto.Element{p, p}
		}},
		{"decoded points (any coset representative)", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			var ss []*ristretto.Scalar
			var ps []*ristretto.Element
			for range 40 {
				d := ristretto.NewIdentityElement()
				if _, err := d.SetCanonicalBytes(randomElement(t).AppendBytes(nil)); err != nil {
					t.Fatal(err)
				}
				ss, ps = append(ss, randomScalar(t)), append(ps, d)
			}
			return ss, ps
		}},
		{"negated 128-bit scalars", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			var ss []*ristretto.Scalar
			var ps []*ristretto.Element
			for i := range 200 {
				s := shortScalar(t, 128)
				if i%2 == 0 {
					s.Negate(s)
				}
				ss, ps = append(ss, s), append(ps, randomElement(t))
			}
			return ss, ps
		}},
		{"300 mixed 128-bit and full scalars", func() ([]*ristretto.Scalar, []*ristretto.Element) {
			var ss []*ristretto.Scalar
			var ps []*ristretto.Element
			for i := range 300 {
				s := randomScalar(t)
				if i%3 == 0 {
					s = shortScalar(t, 128)
				}
				ss, ps = append(ss, s), append(ps, randomElement(t))
			}
			return ss, ps
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss, ps := tc.make()
			want := reference(ss, ps)
			enc := encode(ss)
			if got := MultiScalarMult(enc, ps); got.Equal(want) != 1 {
				t.Fatalf("chosen window: got %x, want %x", got.AppendBytes(nil), want.AppendBytes(nil))
			}
			if got, w := IsIdentity(enc, ps), want.Equal(ristretto.NewIdentityElement()) == 1; got != w {
				t.Fatalf("IsIdentity = %v, want %v", got, w)
			}
			if got := StrausMultiScalarMult(enc, ps); got.Equal(want) != 1 {
				t.Fatalf("Straus: got %x, want %x", got.AppendBytes(nil), want.AppendBytes(nil))
			}
			if got, w := StrausIsIdentity(enc, ps), want.Equal(ristretto.NewIdentityElement()) == 1; got != w {
				t.Fatalf("StrausIsIdentity = %v, want %v", got, w)
			}
			for c := 2; c <= maxWindow; c++ {
				var r extended
				sum(&r, enc, ps, c)
				if toElement(&r).Equal(want) != 1 {
					t.Fatalf("window %d: wrong sum", c)
				}
			}
		})
	}
}

// TestExtremeDigits: at every window width c and every window position
// w, the scalars ±2^(cw+c-1) put the extreme digit -2^(c-1) (or, negated,
// +2^(c-1)) in window w. At width 16 the negation of -2^15 used to wrap
// in int16 and the sum came out wrong (FuzzMultiScalarMult found it; 16
// is now clamped to maxWindow).
func TestExtremeDigits(t *testing.T) {
	p := randomElement(t)
	for c := 2; c <= 16; c++ {
		for k := c - 1; k < 253; k += c {
			b := make([]byte, 32)
			b[k/8] = 1 << (k % 8)
			pow := ristretto.NewScalar()
			if _, err := pow.SetCanonicalBytes(b); err != nil {
				t.Fatal(err)
			}
			for _, s := range []*ristretto.Scalar{pow, ristretto.NewScalar().Negate(pow)} {
				ss, ps := []*ristretto.Scalar{s}, []*ristretto.Element{p}
				var r extended
				sum(&r, encode(ss), ps, c)
				if toElement(&r).Equal(reference(ss, ps)) != 1 {
					t.Fatalf("±2^%d at window %d: wrong sum", k, c)
				}
			}
		}
	}
}

// TestIsIdentityRejectsNearMisses: a sum that is off by one point, or by
// a single unit of one scalar, is not the identity.
func TestIsIdentityRejectsNearMisses(t *testing.T) {
	var ss []*ristretto.Scalar
	var ps []*ristretto.Element
	total := ristretto.NewScalar()
	g := ristretto.NewGeneratorElement()
	for range 200 {
		s, x := randomScalar(t), randomScalar(t)
		ss = append(ss, s)
		ps = append(ps, ristretto.NewIdentityElement().ScalarBaseMult(x))
		total.Add(total, ristretto.NewScalar().Multiply(s, x))
	}
	ss = append(ss, ristretto.NewScalar().Negate(total))
	ps = append(ps, g)
	if !IsIdentity(encode(ss), ps) || !StrausIsIdentity(encode(ss), ps) {
		t.Fatal("a sum that cancels is not reported as the identity")
	}
	one := make([]byte, 32)
	one[0] = 1
	sOne := ristretto.NewScalar()
	if _, err := sOne.SetCanonicalBytes(one); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 57, 199, 200} {
		bad := append([]*ristretto.Scalar{}, ss...)
		bad[i] = ristretto.NewScalar().Add(bad[i], sOne)
		if IsIdentity(encode(bad), ps) || StrausIsIdentity(encode(bad), ps) {
			t.Fatalf("scalar %d off by one still sums to the identity", i)
		}
		if StrausIsIdentity(encode(bad[i:i+1]), ps[i:i+1]) {
			t.Fatalf("Straus: a single nonzero term %d sums to the identity", i)
		}
	}
}

func TestSignedDigits(t *testing.T) {
	for range 200 {
		s := randomScalar(t)
		enc := encode([]*ristretto.Scalar{s})[0]
		for c := 2; c <= 16; c++ {
			nwin := (256 + c) / c
			d := make([]int16, nwin)
			signedDigits(&enc, c, d)
			// Recompose Σ d_w·2^(cw) mod q with scalar arithmetic.
			acc := ristretto.NewScalar()
			pow := make([]byte, 32)
			pow[0] = 1
			base := ristretto.NewScalar()
			if _, err := base.SetCanonicalBytes(pow); err != nil {
				t.Fatal(err)
			}
			step := ristretto.NewScalar()
			b := make([]byte, 32)
			b[c/8] = 1 << (c % 8)
			if _, err := step.SetCanonicalBytes(b); err != nil {
				t.Fatal(err)
			}
			for w := range nwin {
				if d[w] < -(1<<(c-1)) || int(d[w]) >= 1<<(c-1) {
					t.Fatalf("c=%d digit %d out of range: %d", c, w, d[w])
				}
				v := ristretto.NewScalar()
				m := make([]byte, 32)
				a := int(d[w])
				if a < 0 {
					a = -a
				}
				m[0], m[1] = byte(a), byte(a>>8)
				if _, err := v.SetCanonicalBytes(m); err != nil {
					t.Fatal(err)
				}
				if d[w] < 0 {
					v.Negate(v)
				}
				acc.Add(acc, v.Multiply(v, base))
				base.Multiply(base, step)
			}
			if acc.Equal(s) != 1 {
				t.Fatalf("c=%d: digits do not recompose the scalar", c)
			}
		}
	}
}

// batchLike returns n random points and scalars mixed as in a batch of
// swap proofs: 2/3 full-length, 1/3 128-bit weights.
func batchLike(b *testing.B, n int) ([]*ristretto.Scalar, []*ristretto.Element) {
	var ss []*ristretto.Scalar
	var ps []*ristretto.Element
	for i := range n {
		s := randomScalar(b)
		if i%3 == 0 {
			s = shortScalar(b, 128)
		}
		ss, ps = append(ss, s), append(ps, randomElement(b))
	}
	return ss, ps
}

// BenchmarkMSM compares edwards25519's Straus method with the bucket
// method on sums the size of one proof and of a batch of a hundred swap
// proofs (2/3 full scalars, 1/3 128-bit weights).
func BenchmarkMSM(b *testing.B) {
	for _, n := range []int{14, 32, 64, 128, 256, 512, 1200} {
		ss, ps := batchLike(b, n)
		enc := encode(ss)
		b.Run(fmt.Sprintf("straus/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reference(ss, ps)
			}
		})
		b.Run(fmt.Sprintf("pooled-straus/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				StrausIsIdentity(enc, ps)
			}
		})
		b.Run(fmt.Sprintf("buckets/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				IsIdentity(enc, ps)
			}
		})
	}
}

// TestShorter: a negated short scalar is handled as a short scalar of the
// negated point, and the order constant is ℓ.
func TestShorter(t *testing.T) {
	var zero Scalar
	// ℓ - 1 encodes as order with the first byte minus one.
	one := make([]byte, 32)
	one[0] = 1
	s1 := ristretto.NewScalar()
	if _, err := s1.SetCanonicalBytes(one); err != nil {
		t.Fatal(err)
	}
	m1 := encode([]*ristretto.Scalar{ristretto.NewScalar().Negate(s1)})[0]
	want := order
	want[0]--
	if m1 != want {
		t.Fatalf("ℓ-1 = %x, order constant gives %x", m1, want)
	}
	if s, neg := shorter(&m1); !neg || bitLen(&s) != 1 {
		t.Fatalf("shorter(ℓ-1) = %x, %v; want 1, true", s, neg)
	}
	if s, neg := shorter(&zero); neg || s != zero {
		t.Fatal("shorter(0) changed zero")
	}
	for range 100 {
		r := shortScalar(t, 128)
		n := encode([]*ristretto.Scalar{ristretto.NewScalar().Negate(r)})[0]
		s, neg := shorter(&n)
		if !neg || s != encode([]*ristretto.Scalar{r})[0] {
			t.Fatal("shorter(-ρ) is not ρ")
		}
		full := encode([]*ristretto.Scalar{randomScalar(t)})[0]
		if s, _ := shorter(&full); bitLen(&s) < 200 {
			t.Fatalf("a random scalar became %d bits long", bitLen(&s))
		}
	}
}

// FuzzMultiScalarMult is a differential fuzz test against edwards25519's
// Straus method: the input is cut into 32-byte scalars (non-canonical
// ones reduced mod ℓ, so edge values such as 0, 1 and ℓ-1 are reachable),
// each paired with a point hashed from its index and a fuzzed seed byte;
// the window width is fuzzed too.
func FuzzMultiScalarMult(f *testing.F) {
	f.Add([]byte{1}, byte(0), uint8(0))
	f.Add(make([]byte, 64), byte(1), uint8(8))
	f.Add(append(order[:], 0xff), byte(2), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, seed byte, c uint8) {
		if len(raw) > 32*64 {
			return
		}
		var ss []*ristretto.Scalar
		var ps []*ristretto.Element
		for i := 0; i < len(raw); i += 32 {
			var b [64]byte
			copy(b[:], raw[i:min(i+32, len(raw))])
			s := ristretto.NewScalar()
			if _, err := s.SetCanonicalBytes(b[:32]); err != nil {
				s.Set(ristretto.UniformScalar(b[:]))
			}
			var h [64]byte
			h[0], h[1], h[2] = seed, byte(i), byte(i>>8)
			ss = append(ss, s)
			ps = append(ps, ristretto.UniformElement(h[:]))
		}
		want := reference(ss, ps)
		var r extended
		sum(&r, encode(ss), ps, int(c%17))
		if toElement(&r).Equal(want) != 1 {
			t.Fatalf("window %d: bucket sum differs from Straus", c%17)
		}
		if StrausMultiScalarMult(encode(ss), ps).Equal(want) != 1 {
			t.Fatal("the pooled Straus sum differs from edwards25519's")
		}
	})
}

// BenchmarkWindow times the bucket method at each window width around the
// cost model's choice, on the same mix of scalars as BenchmarkMSM: the
// data behind windowWidth's weights (go test -bench Window).
func BenchmarkWindow(b *testing.B) {
	for _, n := range []int{256, 600, 1200, 2400} {
		ss, ps := batchLike(b, n)
		enc := encode(ss)
		model := windowWidth(enc)
		for c := model - 2; c <= model+2; c++ {
			b.Run(fmt.Sprintf("n=%d/c=%d/model=%d", n, c, model), func(b *testing.B) {
				var r extended
				for b.Loop() {
					sum(&r, enc, ps, c)
				}
			})
		}
	}
}

// windowWidth is the width sum chooses for these scalars.
func windowWidth(scalars []Scalar) int {
	lens := make([]int, 257)
	for i := range scalars {
		s, _ := shorter(&scalars[i])
		lens[bitLen(&s)]++
	}
	return windowWidthFor(lens)
}
