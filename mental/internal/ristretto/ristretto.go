// Package ristretto implements the ristretto255 prime-order group of RFC
// 9496 (section 4) over filippo.io/edwards25519: the encoding, decoding,
// equality and element derivation (the one-way map from 64 uniform
// bytes), with the group operations delegated to edwards25519's points.
// It replaces github.com/gtank/ristretto255, whose Element hid its point,
// so that package mental reads coordinates (internal/msm) and selects in
// constant time through exported API only.
//
// Everything is constant time except what is named VarTime, and the
// validity checks of SetCanonicalBytes, which branch on whether the
// (public) encoding is valid and nothing else.
//
// Scalars are edwards25519's: the scalar field of ristretto255 is the
// scalar field of edwards25519, with the same canonical encoding.
package ristretto

import (
	"crypto/subtle"
	"encoding/hex"
	"errors"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// Scalar is an element of the scalar field, the integers modulo ℓ =
// 2^252 + 27742317777372353535851937790883648493.
type Scalar = edwards25519.Scalar

// NewScalar returns a new scalar set to zero.
func NewScalar() *Scalar { return edwards25519.NewScalar() }

// Element is an element of ristretto255. The zero value is not valid:
// make one with NewIdentityElement or NewGeneratorElement.
type Element struct {
	p edwards25519.Point
}

// NewIdentityElement returns a new element set to the identity.
func NewIdentityElement() *Element {
	e := &Element{}
	e.p.Set(edwards25519.NewIdentityPoint())
	return e
}

// NewGeneratorElement returns a new element set to the canonical
// generator (the edwards25519 base point).
func NewGeneratorElement() *Element {
	e := &Element{}
	e.p.Set(edwards25519.NewGeneratorPoint())
	return e
}

// Point returns the edwards25519 point that represents e, sharing its
// memory. A function, not a method, so that it stays inside module
// internals: every point written through it must be a representative
// of a ristretto255 element (an even point: a sum or multiple of
// elements' points, or the result of the formulas here).
func Point(e *Element) *edwards25519.Point { return &e.p }

// Set sets e = x and returns e.
func (e *Element) Set(x *Element) *Element {
	e.p.Set(&x.p)
	return e
}

// Equal returns 1 if e and x are the same element and 0 otherwise, in
// constant time (RFC 9496, section 4.3.3): X1·Y2 = Y1·X2 or Y1·Y2 = X1·X2.
func (e *Element) Equal(x *Element) int {
	X1, Y1, _, _ := e.p.ExtendedCoordinates()
	X2, Y2, _, _ := x.p.ExtendedCoordinates()
	var a, b field.Element
	a.Multiply(X1, Y2)
	b.Multiply(Y1, X2)
	out := a.Equal(&b)
	a.Multiply(Y1, Y2)
	b.Multiply(X1, X2)
	return out | a.Equal(&b)
}

// Select sets e to a if cond is 1 and to b if cond is 0, in constant time
// (the same instructions and memory accesses either way). cond must be 0
// or 1. It returns e; e may alias a or b.
func (e *Element) Select(a, b *Element, cond int) *Element {
	e.p.Select(&a.p, &b.p, cond)
	return e
}

// Add sets e = a + b and returns e.
func (e *Element) Add(a, b *Element) *Element {
	e.p.Add(&a.p, &b.p)
	return e
}

// Subtract sets e = a - b and returns e.
func (e *Element) Subtract(a, b *Element) *Element {
	e.p.Subtract(&a.p, &b.p)
	return e
}

// Negate sets e = -a and returns e.
func (e *Element) Negate(a *Element) *Element {
	e.p.Negate(&a.p)
	return e
}

// ScalarBaseMult sets e = s·G for the generator G and returns e.
func (e *Element) ScalarBaseMult(s *Scalar) *Element {
	scalarBaseMult(&e.p, s)
	return e
}

// ScalarMult sets e = s·a and returns e, in constant time.
func (e *Element) ScalarMult(s *Scalar, a *Element) *Element {
	scalarMult(&e.p, s, &a.p)
	return e
}

// MultiScalarMult sets e = Σ s[i]·a[i] and returns e, in time that
// depends only on the number of terms. It panics if the slices differ in
// length.
func (e *Element) MultiScalarMult(s []*Scalar, a []*Element) *Element {
	multiScalarMult(&e.p, s, points(s, a))
	return e
}

// VarTimeMultiScalarMult sets e = Σ s[i]·a[i] and returns e, in time that
// depends on the inputs: for public values only. It panics if the slices
// differ in length.
func (e *Element) VarTimeMultiScalarMult(s []*Scalar, a []*Element) *Element {
	e.p.VarTimeMultiScalarMult(s, points(s, a))
	return e
}

// VarTimeDoubleScalarBaseMult sets e = a·A + b·G for the generator G and
// returns e, in time that depends on the inputs: for public values only.
func (e *Element) VarTimeDoubleScalarBaseMult(a *Scalar, A *Element, b *Scalar) *Element {
	e.p.VarTimeDoubleScalarBaseMult(a, &A.p, b)
	return e
}

func points(s []*Scalar, a []*Element) []*edwards25519.Point {
	if len(s) != len(a) {
		panic("ristretto: multi-scalar multiplication with mismatched slice lengths")
	}
	ps := make([]*edwards25519.Point, len(a))
	for i := range a {
		ps[i] = &a[i].p
	}
	return ps
}

// Constants of RFC 9496, section 4.1, little-endian (TestConstants checks
// them against the RFC's decimal values).
var (
	constD              = fe("a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352")
	constSqrtM1         = fe("b0a00e4a271beec478e42fad0618432fa7d7fb3d99004d2b0bdfc14f8024832b")
	constSqrtADMinusOne = fe("1b2e7b49a0f6977ebd54781b0c8e9daffdd1f531c9fc3c0fac48832bbf316937")
	constInvSqrtAMinusD = fe("ea405d80aafdc899be72415a17162f9d40d801fe917bc216a2fcafcf05896c78")
	constOneMinusDSQ    = fe("76c15f94c1097ce20f355ecd38a1812ce4df70beddab9499d7e0b3b2a8729002")
	constDMinusOneSQ    = fe("204ded44aa5aad3199191eb02c4a9ed2eb4e9b522fd3dc4c41226cf67ab36859")
	feOne               = new(field.Element).One()
)

// fe decodes a 64-hex-digit little-endian constant.
func fe(h string) *field.Element {
	b, err := hex.DecodeString(h)
	if err != nil {
		panic("ristretto: bad constant")
	}
	v, err := new(field.Element).SetBytes(b)
	if err != nil {
		panic("ristretto: bad constant")
	}
	return v
}

// ErrEncoding reports bytes that are not the canonical encoding of an
// element.
var ErrEncoding = errors.New("ristretto: invalid element encoding")

// SetCanonicalBytes sets e to the element encoded by b (RFC 9496, section
// 4.3.1) and returns e. If b is not a canonical encoding (not 32 bytes, a
// field element not below p, negative, not the encoding of a point), it
// returns nil and ErrEncoding and leaves e unchanged. It branches on the
// validity of b only: an encoding is public.
func (e *Element) SetCanonicalBytes(b []byte) (*Element, error) {
	if len(b) != 32 {
		return nil, ErrEncoding
	}
	var s field.Element
	s.SetBytes(b) // length checked above; the top bit is ignored here...
	if subtle.ConstantTimeCompare(s.Bytes(), b) != 1 {
		return nil, ErrEncoding // ...and caught here, with values ≥ p
	}
	if s.IsNegative() == 1 {
		return nil, ErrEncoding
	}
	var ss, u1, u2, u2Sqr, v, t field.Element
	ss.Square(&s)
	u1.Subtract(feOne, &ss) // u1 = 1 - s²
	u2.Add(feOne, &ss)      // u2 = 1 + s²
	u2Sqr.Square(&u2)
	v.Square(&u1)
	v.Multiply(&v, constD)
	v.Negate(&v)
	v.Subtract(&v, &u2Sqr) // v = -(D·u1²) - u2²
	var invSqrt field.Element
	_, wasSquare := invSqrt.SqrtRatio(feOne, t.Multiply(&v, &u2Sqr))
	var denX, denY field.Element
	denX.Multiply(&invSqrt, &u2)
	denY.Multiply(&invSqrt, &denX)
	denY.Multiply(&denY, &v)
	var X, Y, Z, T field.Element
	X.Add(&s, &s)
	X.Multiply(&X, &denX)
	X.Absolute(&X) // x = |2·s·den_x|
	Y.Multiply(&u1, &denY)
	Z.One()
	T.Multiply(&X, &Y)
	var zero field.Element
	if wasSquare == 0 || T.IsNegative() == 1 || Y.Equal(&zero) == 1 {
		return nil, ErrEncoding
	}
	if _, err := e.p.SetExtendedCoordinates(&X, &Y, &Z, &T); err != nil {
		panic("ristretto: decoded coordinates not on the curve") // unreachable
	}
	return e, nil
}

// Bytes returns the canonical 32-byte encoding of e (RFC 9496, section
// 4.3.2).
func (e *Element) Bytes() []byte {
	var b [32]byte
	return e.AppendBytes(b[:0])
}

// AppendBytes appends the canonical 32-byte encoding of e to b and
// returns the extended slice.
func (e *Element) AppendBytes(b []byte) []byte {
	return appendEncoding(b, &e.p)
}

// SetUniformBytes sets e to the element derived from 64 uniformly random
// bytes (RFC 9496, section 4.3.4: the one-way map applied to each half,
// the two points added) and returns e: a hash to the group when b is a
// hash output. If b is not 64 bytes it returns nil and an error and
// leaves e unchanged.
func (e *Element) SetUniformBytes(b []byte) (*Element, error) {
	if len(b) != 64 {
		return nil, errors.New("ristretto: SetUniformBytes input is not 64 bytes")
	}
	var t field.Element
	var p1, p2 edwards25519.Point
	t.SetBytes(b[:32]) // the top bit of each half is ignored, as the RFC says
	mapToPoint(&p1, &t)
	t.SetBytes(b[32:])
	mapToPoint(&p2, &t)
	e.p.Add(&p1, &p2)
	return e, nil
}

// mapToPoint sets out to MAP(t), the Elligator-based one-way map of RFC
// 9496, section 4.3.4, in constant time.
func mapToPoint(out *edwards25519.Point, t *field.Element) {
	var r, u, c, v, tmp field.Element
	r.Square(t)
	r.Multiply(&r, constSqrtM1) // r = SQRT_M1·t²
	u.Add(&r, feOne)
	u.Multiply(&u, constOneMinusDSQ) // u = (r + 1)·ONE_MINUS_D_SQ
	c.Negate(feOne)                  // c = -1
	v.Multiply(&r, constD)
	v.Subtract(&c, &v)
	v.Multiply(&v, tmp.Add(&r, constD)) // v = (c - r·D)(r + D)
	var s, sPrime field.Element
	_, wasSquare := s.SqrtRatio(&u, &v)
	sPrime.Multiply(&s, t)
	sPrime.Absolute(&sPrime)
	sPrime.Negate(&sPrime) // s' = -|s·t|
	s.Select(&s, &sPrime, wasSquare)
	c.Select(&c, &r, wasSquare)
	var N field.Element
	N.Subtract(&r, feOne)
	N.Multiply(&N, &c)
	N.Multiply(&N, constDMinusOneSQ)
	N.Subtract(&N, &v) // N = c·(r - 1)·D_MINUS_ONE_SQ - v
	var s2, w0, w1, w2, w3 field.Element
	s2.Square(&s)
	w0.Multiply(&s, &v)
	w0.Add(&w0, &w0) // w0 = 2·s·v
	w1.Multiply(&N, constSqrtADMinusOne)
	w2.Subtract(feOne, &s2)
	w3.Add(feOne, &s2)
	var X, Y, Z, T field.Element
	X.Multiply(&w0, &w3)
	Y.Multiply(&w2, &w1)
	Z.Multiply(&w1, &w3)
	T.Multiply(&w0, &w2)
	if _, err := out.SetExtendedCoordinates(&X, &Y, &Z, &T); err != nil {
		panic("ristretto: mapped coordinates not on the curve") // unreachable
	}
}

// UniformScalar returns the scalar that 64 uniformly random bytes reduce
// to (a hash output, little-endian, modulo ℓ). It panics if b is not 64
// bytes long: callers pass a SHA-512 output.
func UniformScalar(b []byte) *Scalar {
	s, err := NewScalar().SetUniformBytes(b)
	if err != nil {
		panic("ristretto: UniformScalar input is not 64 bytes")
	}
	return s
}

// UniformElement returns the element derived from 64 uniformly random
// bytes (SetUniformBytes): a hash to the group. It panics if b is not 64
// bytes long: callers pass a SHA-512 output.
func UniformElement(b []byte) *Element {
	e, err := NewIdentityElement().SetUniformBytes(b)
	if err != nil {
		panic("ristretto: UniformElement input is not 64 bytes")
	}
	return e
}

// AppendScalar appends the canonical 32-byte encoding of s to b and
// returns the extended slice.
func AppendScalar(b []byte, s *Scalar) []byte {
	return append(b, s.Bytes()...)
}
