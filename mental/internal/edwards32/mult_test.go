package edwards32

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"testing"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// p = 2^255 - 19.
var fieldP = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))

// le returns v mod 2^256 as 32 little-endian bytes.
func le(v *big.Int) []byte {
	v = new(big.Int).Mod(v, new(big.Int).Lsh(big.NewInt(1), 256))
	b := v.FillBytes(make([]byte, 32))
	for i := range 16 {
		b[i], b[31-i] = b[31-i], b[i]
	}
	return b
}

// fieldInputs are 32-byte strings the field decoders must agree on: zero,
// one, p−1, the non-canonical p, p+1 and 2^255−1, values with the top bit
// set (ignored by both), all ones, and random strings.
func fieldInputs(t testing.TB, n int) [][]byte {
	one := big.NewInt(1)
	top := new(big.Int).Lsh(one, 255)
	in := [][]byte{
		le(big.NewInt(0)), le(one), le(new(big.Int).Sub(fieldP, one)), le(fieldP),
		le(new(big.Int).Add(fieldP, one)), le(new(big.Int).Sub(top, one)),
		le(new(big.Int).Add(fieldP, top)), le(top), bytes.Repeat([]byte{0xff}, 32),
		bytes.Repeat([]byte{0x80}, 32), bytes.Repeat([]byte{0x7f}, 32),
	}
	for range n {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		in = append(in, b)
	}
	return in
}

func decodeBoth(t testing.TB, b []byte) (*fieldElement, *field.Element) {
	var f fieldElement
	feFromBytes(&f, (*[32]byte)(b))
	g, err := new(field.Element).SetBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return &f, g
}

func bytesOf(f *fieldElement) []byte {
	var b [32]byte
	t := *f
	feToBytes(&b, &t)
	return b[:]
}

// checkFieldOps checks every field operation of this package against
// filippo.io/edwards25519/field on one pair of inputs, through the
// canonical encoding of the results.
func checkFieldOps(t testing.TB, x, y []byte) {
	fx, gx := decodeBoth(t, x)
	fy, gy := decodeBoth(t, y)
	var f fieldElement
	g := new(field.Element)
	cases := []struct {
		op   string
		f    func()
		want *field.Element
	}{
		{"decode", func() { f = *fx }, g.Set(gx)},
		{"mul", func() { feMul(&f, fx, fy) }, new(field.Element).Multiply(gx, gy)},
		{"square", func() { feSquare(&f, fx) }, new(field.Element).Square(gx)},
		{"square2", func() { feSquare2(&f, fx) }, new(field.Element).Add(new(field.Element).Square(gx), new(field.Element).Square(gx))},
		{"add", func() { feAdd(&f, fx, fy) }, new(field.Element).Add(gx, gy)},
		{"sub", func() { feSub(&f, fx, fy) }, new(field.Element).Subtract(gx, gy)},
		{"neg", func() { feNeg(&f, fx) }, new(field.Element).Negate(gx)},
		{"cmove 1", func() { f = *fx; feCMove(&f, fy, 1) }, new(field.Element).Set(gy)},
		{"cmove 0", func() { f = *fx; feCMove(&f, fy, 0) }, new(field.Element).Set(gx)},
		// Sums as the point formulas feed them to a product.
		{"mul of sums", func() {
			var a, b fieldElement
			feAdd(&a, fx, fy)
			feSub(&b, fx, fy)
			feMul(&f, &a, &b)
		}, new(field.Element).Multiply(new(field.Element).Add(gx, gy), new(field.Element).Subtract(gx, gy))},
	}
	for _, c := range cases {
		c.f()
		if got := bytesOf(&f); !bytes.Equal(got, c.want.Bytes()) {
			t.Fatalf("%s(%x, %x) = %x, want %x", c.op, x, y, got, c.want.Bytes())
		}
	}
	// Conversions both ways.
	var h fieldElement
	fromField(&h, gx)
	if !bytes.Equal(bytesOf(&h), gx.Bytes()) || toField(fx).Equal(gx) != 1 {
		t.Fatalf("conversion of %x differs", x)
	}
}

func TestFieldAgainstEdwards25519(t *testing.T) {
	in := fieldInputs(t, 200)
	for _, x := range in {
		for _, y := range in[:20] {
			checkFieldOps(t, x, y)
			checkFieldOps(t, y, x)
		}
	}
}

func FuzzField(f *testing.F) {
	in := fieldInputs(f, 0)
	for i := range in {
		f.Add(in[i], in[(i+3)%len(in)])
	}
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) != 32 || len(y) != 32 {
			return
		}
		checkFieldOps(t, x, y)
	})
}

// scalarInputs are scalars whose digits exercise the signed recoding: 0,
// 1, 2, 8, 15, 16, ℓ−1, ℓ−2, 2^252, runs of 8s and 15s (a carry through
// every digit), and random scalars.
func scalarInputs(t testing.TB, n int) []*edwards25519.Scalar {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	one := big.NewInt(1)
	ints := []*big.Int{
		big.NewInt(0), one, big.NewInt(2), big.NewInt(8), big.NewInt(15), big.NewInt(16), big.NewInt(0x88), big.NewInt(0xff),
		new(big.Int).Sub(l, one), new(big.Int).Sub(l, big.NewInt(2)), new(big.Int).Lsh(one, 252),
		new(big.Int).Sub(new(big.Int).Lsh(one, 252), one),
	}
	eights, _ := new(big.Int).SetString("0888888888888888888888888888888888888888888888888888888888888888", 16)
	fs, _ := new(big.Int).SetString("0fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 16)
	ints = append(ints, eights, fs)
	var out []*edwards25519.Scalar
	for _, v := range ints {
		s, err := edwards25519.NewScalar().SetCanonicalBytes(le(v))
		if err != nil {
			t.Fatalf("scalar %v: %v", v, err)
		}
		out = append(out, s)
	}
	for range n {
		b := make([]byte, 64)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		s, _ := edwards25519.NewScalar().SetUniformBytes(b)
		out = append(out, s)
	}
	return out
}

// pointInputs are the identity, the base point, points of small order
// (edwards25519's torsion: (0, −1), (±i... ) decoded from their
// encodings), their sums with the base point, and random multiples of the
// base point.
func pointInputs(t testing.TB, n int) []*edwards25519.Point {
	out := []*edwards25519.Point{edwards25519.NewIdentityPoint(), edwards25519.NewGeneratorPoint()}
	for _, h := range []string{
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // (0, -1), order 2
		"0000000000000000000000000000000000000000000000000000000000000080", // (0, 1) with the sign bit: order 1
		"0000000000000000000000000000000000000000000000000000000000000000", // order 4
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
	} {
		b, _ := hex.DecodeString(h)
		p, err := new(edwards25519.Point).SetBytes(b)
		if err != nil {
			t.Fatalf("torsion point %s: %v", h, err)
		}
		out = append(out, p, new(edwards25519.Point).Add(p, edwards25519.NewGeneratorPoint()))
	}
	for _, s := range scalarInputs(t, n)[len(scalarInputs(t, 0)):] {
		out = append(out, new(edwards25519.Point).ScalarBaseMult(s))
	}
	return out
}

func TestScalarMultAgainstEdwards25519(t *testing.T) {
	scalars := scalarInputs(t, 20)
	points := pointInputs(t, 10)
	for _, s := range scalars {
		want := new(edwards25519.Point).ScalarBaseMult(s)
		if got := ScalarBaseMult(new(edwards25519.Point), s); got.Equal(want) != 1 {
			t.Fatalf("ScalarBaseMult(%x) differs", s.Bytes())
		}
		for _, q := range points {
			want := new(edwards25519.Point).ScalarMult(s, q)
			if got := ScalarMult(new(edwards25519.Point), s, q); got.Equal(want) != 1 {
				t.Fatalf("ScalarMult(%x, %x) differs", s.Bytes(), q.Bytes())
			}
		}
	}
}

func TestMultiScalarMultAgainstEdwards25519(t *testing.T) {
	scalars := scalarInputs(t, 10)
	points := pointInputs(t, 10)
	for n := range 6 {
		for k := range 20 {
			var ss []*edwards25519.Scalar
			var ps []*edwards25519.Point
			for i := range n {
				ss = append(ss, scalars[(k*7+i*3)%len(scalars)])
				ps = append(ps, points[(k*5+i*11)%len(points)])
			}
			want := new(edwards25519.Point).MultiScalarMult(ss, ps)
			if got := MultiScalarMult(new(edwards25519.Point), ss, ps); got.Equal(want) != 1 {
				t.Fatalf("MultiScalarMult of %d terms (case %d) differs", n, k)
			}
		}
	}
}

func FuzzScalarMult(f *testing.F) {
	f.Add(make([]byte, 64), make([]byte, 64), byte(0))
	f.Add(bytes.Repeat([]byte{0xff}, 64), bytes.Repeat([]byte{0x88}, 64), byte(3))
	torsion := pointInputs(f, 0)
	f.Fuzz(func(t *testing.T, sb, qb []byte, tor byte) {
		if len(sb) != 64 || len(qb) != 64 {
			return
		}
		s, _ := edwards25519.NewScalar().SetUniformBytes(sb)
		r, _ := edwards25519.NewScalar().SetUniformBytes(qb)
		q := new(edwards25519.Point).ScalarBaseMult(r)
		q.Add(q, torsion[int(tor)%len(torsion)])
		if ScalarMult(new(edwards25519.Point), s, q).Equal(new(edwards25519.Point).ScalarMult(s, q)) != 1 {
			t.Fatalf("ScalarMult differs")
		}
		if ScalarBaseMult(new(edwards25519.Point), s).Equal(new(edwards25519.Point).ScalarBaseMult(s)) != 1 {
			t.Fatalf("ScalarBaseMult differs")
		}
		ss := []*edwards25519.Scalar{s, r}
		ps := []*edwards25519.Point{q, torsion[int(tor/16)%len(torsion)]}
		if MultiScalarMult(new(edwards25519.Point), ss, ps).Equal(new(edwards25519.Point).MultiScalarMult(ss, ps)) != 1 {
			t.Fatalf("MultiScalarMult differs")
		}
	})
}

func TestMismatchedLengthsPanic(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on mismatched slices")
		}
	}()
	MultiScalarMult(new(edwards25519.Point), []*edwards25519.Scalar{edwards25519.NewScalar()}, nil)
}

func BenchmarkScalarMult(b *testing.B) {
	s := scalarInputs(b, 1)[len(scalarInputs(b, 0))]
	q := new(edwards25519.Point).ScalarBaseMult(s)
	b.Run("edwards32", func(b *testing.B) {
		for b.Loop() {
			ScalarMult(new(edwards25519.Point), s, q)
		}
	})
	b.Run("edwards25519", func(b *testing.B) {
		for b.Loop() {
			new(edwards25519.Point).ScalarMult(s, q)
		}
	})
	b.Run("base/edwards32", func(b *testing.B) {
		for b.Loop() {
			ScalarBaseMult(new(edwards25519.Point), s)
		}
	})
	b.Run("base/edwards25519", func(b *testing.B) {
		for b.Loop() {
			new(edwards25519.Point).ScalarBaseMult(s)
		}
	})
}
