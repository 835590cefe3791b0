// Package edwards32 multiplies edwards25519 points by scalars with a field
// of ten 25.5-bit limbs in int32 (the "ref10" arithmetic): every product is
// one 64-bit multiplication, where filippo.io/edwards25519's five 51-bit
// limbs need a 64×64→128 multiply that WebAssembly lacks and Go emulates
// with four 32-bit ones. Package ristretto uses it for its scalar
// multiplications in js/wasm builds only; natively edwards25519 is faster
// (assembly on amd64) and is used. Inputs and outputs are
// filippo.io/edwards25519 values, converted through their canonical byte
// encodings, so that the rest of the program never sees this
// representation.
//
// Everything here is constant time: no branch and no memory access depends
// on a scalar or a point (table lookups read every entry and keep one by
// mask, as edwards25519 does). The tests check every operation against
// filippo.io/edwards25519 on random and edge inputs.
package edwards32

import (
	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// fromField converts a field element of filippo.io/edwards25519.
func fromField(out *fieldElement, v *field.Element) {
	feFromBytes(out, (*[32]byte)(v.Bytes()))
}

// toField converts a field element to filippo.io/edwards25519's.
func toField(v *fieldElement) *field.Element {
	var b [32]byte
	t := *v // feToBytes reduces its input in place: v is only read
	feToBytes(&b, &t)
	f, err := new(field.Element).SetBytes(b[:])
	if err != nil {
		panic("edwards32: field element encoding of the wrong length")
	}
	return f
}

// fromPoint converts a point of filippo.io/edwards25519.
func fromPoint(out *extended, p *edwards25519.Point) {
	X, Y, Z, T := p.ExtendedCoordinates()
	fromField(&out.X, X)
	fromField(&out.Y, Y)
	fromField(&out.Z, Z)
	fromField(&out.T, T)
}

// toPoint sets dst to p. The coordinates are those of a point this package
// computed from valid points; edwards25519 checks them again (on the curve,
// XY = ZT), and a failure would be a bug here, so it panics.
func toPoint(dst *edwards25519.Point, p *extended) *edwards25519.Point {
	if _, err := dst.SetExtendedCoordinates(toField(&p.X), toField(&p.Y), toField(&p.Z), toField(&p.T)); err != nil {
		panic("edwards32: computed a point off the curve: " + err.Error())
	}
	return dst
}

// signedRadix16 returns the digits e of s in [-8, 8], with s = Σ e[i]·16^i,
// without branching on s (as ref10's GeScalarMultBase). A canonical scalar
// is below 2^253, so its top byte is below 128, as the recoding needs.
func signedRadix16(s *edwards25519.Scalar) [64]int8 {
	a := s.Bytes()
	var e [64]int8
	for i, v := range a {
		e[2*i] = int8(v & 15)
		e[2*i+1] = int8((v >> 4) & 15)
	}
	carry := int8(0)
	for i := range 63 {
		e[i] += carry
		carry = (e[i] + 8) >> 4
		e[i] -= carry << 4
	}
	e[63] += carry
	return e
}

// cachedTable holds 1·Q .. 8·Q.
type cachedTable [8]cached

func (t *cachedTable) init(q *extended) {
	var r completed
	var acc extended
	q.ToCached(&t[0])
	for i := 1; i < 8; i++ {
		geAdd(&r, q, &t[i-1])
		r.ToExtended(&acc)
		acc.ToCached(&t[i])
	}
}

func (c *cached) zero() {
	feOne(&c.yPlusX)
	feOne(&c.yMinusX)
	feOne(&c.Z)
	feZero(&c.T2d)
}

// cmove sets c = u if b == 1 and leaves c if b == 0, in constant time. One
// loop over the four coordinates rather than four calls of feCMove: on
// wasm a call is dear, and this is the inner loop of every table lookup.
func (c *cached) cmove(u *cached, b int32) {
	m := -b
	for i := range 10 {
		c.yPlusX[i] ^= m & (c.yPlusX[i] ^ u.yPlusX[i])
		c.yMinusX[i] ^= m & (c.yMinusX[i] ^ u.yMinusX[i])
		c.Z[i] ^= m & (c.Z[i] ^ u.Z[i])
		c.T2d[i] ^= m & (c.T2d[i] ^ u.T2d[i])
	}
}

// selectInto sets c = b·Q for b in [-8, 8], reading every entry.
func (t *cachedTable) selectInto(c *cached, b int32) {
	bNegative := negative(b)
	bAbs := b - (((-bNegative) & b) << 1)
	c.zero()
	for i := int32(0); i < 8; i++ {
		c.cmove(&t[i], equal(bAbs, i+1))
	}
	var minus cached
	feCopy(&minus.yPlusX, &c.yMinusX)
	feCopy(&minus.yMinusX, &c.yPlusX)
	feCopy(&minus.Z, &c.Z)
	feNeg(&minus.T2d, &c.T2d)
	c.cmove(&minus, bNegative)
}

// double4 sets h = 16·h.
func double4(h *extended) {
	var r completed
	var p projective
	h.Double(&r)
	r.ToProjective(&p)
	p.Double(&r)
	r.ToProjective(&p)
	p.Double(&r)
	r.ToProjective(&p)
	p.Double(&r)
	r.ToExtended(h)
}

// ScalarMult sets dst = s·q and returns dst, in constant time.
func ScalarMult(dst *edwards25519.Point, s *edwards25519.Scalar, q *edwards25519.Point) *edwards25519.Point {
	return MultiScalarMult(dst, []*edwards25519.Scalar{s}, []*edwards25519.Point{q})
}

// MultiScalarMult sets dst = Σ s[i]·q[i] and returns dst, in time that
// depends only on the number of terms (it panics if the slices differ in
// length).
func MultiScalarMult(dst *edwards25519.Point, s []*edwards25519.Scalar, q []*edwards25519.Point) *edwards25519.Point {
	if len(s) != len(q) {
		panic("edwards32: multi-scalar multiplication with mismatched slice lengths")
	}
	tables := make([]cachedTable, len(q))
	digits := make([][64]int8, len(s))
	for i := range q {
		var e extended
		fromPoint(&e, q[i])
		tables[i].init(&e)
		digits[i] = signedRadix16(s[i])
	}
	var h extended
	h.Zero()
	var r completed
	var c cached
	for j := 63; j >= 0; j-- {
		if j < 63 {
			double4(&h)
		}
		for i := range tables {
			tables[i].selectInto(&c, int32(digits[i][j]))
			geAdd(&r, &h, &c)
			r.ToExtended(&h)
		}
	}
	return toPoint(dst, &h)
}

// ScalarBaseMult sets dst = s·B for the edwards25519 base point B and
// returns dst, in constant time (ref10's fixed-base tables).
func ScalarBaseMult(dst *edwards25519.Point, s *edwards25519.Scalar) *edwards25519.Point {
	var h extended
	geScalarMultBase(&h, (*[32]byte)(s.Bytes()))
	return toPoint(dst, &h)
}
