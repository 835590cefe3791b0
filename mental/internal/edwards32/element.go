package edwards32

import (
	"crypto/subtle"
	"errors"

	"filippo.io/edwards25519/field"
)

// Element is an element of the field mod 2^255 − 19 with the methods of
// filippo.io/edwards25519/field.Element that package msm uses, so that it
// can run on either (msm picks this one on js/wasm). Every method leaves
// its result carried (limbs within ref10's bounds for a product's input),
// so any sequence of calls is within bounds. The zero value is 0.
//
// Constant time, as edwards25519's.
type Element struct {
	v fieldElement
}

// carry brings v's limbs back within the bounds of a product's output.
func (v *Element) carry() {
	l := &v.v
	feCombine(l, int64(l[0]), int64(l[1]), int64(l[2]), int64(l[3]), int64(l[4]),
		int64(l[5]), int64(l[6]), int64(l[7]), int64(l[8]), int64(l[9]))
}

// Zero sets v = 0 and returns v.
func (v *Element) Zero() *Element {
	feZero(&v.v)
	return v
}

// One sets v = 1 and returns v.
func (v *Element) One() *Element {
	feOne(&v.v)
	return v
}

// Set sets v = a and returns v.
func (v *Element) Set(a *Element) *Element {
	*v = *a
	return v
}

// Add sets v = a + b and returns v.
func (v *Element) Add(a, b *Element) *Element {
	feAdd(&v.v, &a.v, &b.v)
	v.carry()
	return v
}

// Subtract sets v = a − b and returns v.
func (v *Element) Subtract(a, b *Element) *Element {
	feSub(&v.v, &a.v, &b.v)
	v.carry()
	return v
}

// Negate sets v = −a and returns v.
func (v *Element) Negate(a *Element) *Element {
	feNeg(&v.v, &a.v)
	v.carry()
	return v
}

// Multiply sets v = a·b and returns v.
func (v *Element) Multiply(a, b *Element) *Element {
	feMul(&v.v, &a.v, &b.v)
	return v
}

// Square sets v = a² and returns v.
func (v *Element) Square(a *Element) *Element {
	feSquare(&v.v, &a.v)
	return v
}

// Mult32 sets v = a·y and returns v.
func (v *Element) Mult32(a *Element, y uint32) *Element {
	var t fieldElement
	t[0] = int32(y & (1<<26 - 1))
	t[1] = int32(y >> 26)
	feMul(&v.v, &a.v, &t)
	return v
}

// Invert sets v = 1/z and returns v (0 if z = 0).
func (v *Element) Invert(z *Element) *Element {
	feInvert(&v.v, &z.v)
	return v
}

// Bytes returns the canonical little-endian encoding of v.
func (v *Element) Bytes() []byte {
	var b [32]byte
	t := v.v // feToBytes reduces its input in place: v is only read
	feToBytes(&b, &t)
	return b[:]
}

// Equal returns 1 if v and u are equal, and 0 otherwise.
func (v *Element) Equal(u *Element) int {
	return subtle.ConstantTimeCompare(v.Bytes(), u.Bytes())
}

// SetField sets v to f and returns v.
func (v *Element) SetField(f *field.Element) *Element {
	fromField(&v.v, f)
	return v
}

// Field returns v as a filippo.io/edwards25519/field.Element.
func (v *Element) Field() *field.Element { return toField(&v.v) }

// SetBytes sets v to x, 32 bytes little-endian, and returns v. As
// edwards25519's, it ignores the top bit and accepts values from p to
// 2^255 − 1 (reduced); it fails only on a length other than 32.
func (v *Element) SetBytes(x []byte) (*Element, error) {
	if len(x) != 32 {
		return nil, errors.New("edwards32: invalid field element input size")
	}
	feFromBytes(&v.v, (*[32]byte)(x))
	return v, nil
}

// IsNegative returns 1 if v is negative (its canonical encoding is odd),
// and 0 otherwise.
func (v *Element) IsNegative() int {
	return int(v.Bytes()[0] & 1)
}

// Select sets v to a if cond == 1 and to b if cond == 0, and returns v.
func (v *Element) Select(a, b *Element, cond int) *Element {
	t := b.v
	feCMove(&t, &a.v, int32(cond))
	v.v = t
	return v
}

// Absolute sets v to |u| and returns v.
func (v *Element) Absolute(u *Element) *Element {
	return v.Select(new(Element).Negate(u), u, u.IsNegative())
}

// SqrtRatio sets r to the non-negative square root of the ratio of u and
// v, as edwards25519's (RFC 9496's SQRT_RATIO_M1): if u/v is square,
// wasSquare is 1 and r = sqrt(u/v); if not, wasSquare is 0 and r =
// sqrt(SQRT_M1·u/v); if u is zero, r = 0 and wasSquare is 1, if v is zero
// and u is not, r = 0 and wasSquare is 0. It returns r.
func (r *Element) SqrtRatio(u, v *Element) (R *Element, wasSquare int) {
	sqrtM1 := &Element{v: sqrtM1}
	t0 := new(Element)
	// r = (u * v3) * (u * v7)^((p-5)/8)
	v2 := new(Element).Square(v)
	uv3 := new(Element).Multiply(u, t0.Multiply(v2, v))
	uv7 := new(Element).Multiply(uv3, t0.Square(v2))
	var pow Element
	fePow22523(&pow.v, &uv7.v)
	rr := new(Element).Multiply(uv3, &pow)
	check := new(Element).Multiply(v, t0.Square(rr)) // check = v * r^2
	uNeg := new(Element).Negate(u)
	correctSignSqrt := check.Equal(u)
	flippedSignSqrt := check.Equal(uNeg)
	flippedSignSqrtI := check.Equal(t0.Multiply(uNeg, sqrtM1))
	rPrime := new(Element).Multiply(rr, sqrtM1) // r_prime = SQRT_M1 * r
	// r = CT_SELECT(r_prime IF flipped_sign_sqrt | flipped_sign_sqrt_i ELSE r)
	rr.Select(rPrime, rr, flippedSignSqrt|flippedSignSqrtI)
	r.Absolute(rr) // the non-negative square root
	return r, correctSignSqrt | flippedSignSqrt
}
