//go:build !(js && wasm)

package ristretto

import (
	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// appendEncoding appends the encoding of p (RFC 9496, section 4.3.2) with
// filippo.io/edwards25519's field arithmetic. encode_wasm.go has the same
// steps in package edwards32's field, for js/wasm.
func appendEncoding(b []byte, p *edwards25519.Point) []byte {
	X, Y, Z, T := p.ExtendedCoordinates()
	var u1, u2, t field.Element
	u1.Add(Z, Y)
	u1.Multiply(&u1, t.Subtract(Z, Y)) // u1 = (Z + Y)(Z - Y)
	u2.Multiply(X, Y)                  // u2 = X·Y
	var invSqrt field.Element
	t.Square(&u2)
	invSqrt.SqrtRatio(feOne, t.Multiply(&t, &u1)) // always square
	var den1, den2, zInv field.Element
	den1.Multiply(&invSqrt, &u1)
	den2.Multiply(&invSqrt, &u2)
	zInv.Multiply(&den1, &den2)
	zInv.Multiply(&zInv, T)
	var ix, iy, enchanted field.Element
	ix.Multiply(X, constSqrtM1)
	iy.Multiply(Y, constSqrtM1)
	enchanted.Multiply(&den1, constInvSqrtAMinusD)
	rotate := t.Multiply(T, &zInv).IsNegative()
	var x, y, denInv field.Element
	x.Select(&iy, X, rotate)
	y.Select(&ix, Y, rotate)
	denInv.Select(&enchanted, &den2, rotate)
	negY := t.Multiply(&x, &zInv).IsNegative()
	y.Select(t.Negate(&y), &y, negY)
	var s field.Element
	s.Subtract(Z, &y)
	s.Multiply(&s, &denInv)
	s.Absolute(&s) // s = |den_inv·(z - y)|
	return append(b, s.Bytes()...)
}
