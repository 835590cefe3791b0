//go:build js && wasm

package ristretto

import (
	"filippo.io/edwards25519"

	"github.com/masque-games/masque/mental/internal/edwards32"
)

// The constants the encoding uses, in package edwards32's field.
var (
	w32One            = new(edwards32.Element).SetField(feOne)
	w32SqrtM1         = new(edwards32.Element).SetField(constSqrtM1)
	w32InvSqrtAMinusD = new(edwards32.Element).SetField(constInvSqrtAMinusD)
)

// appendEncoding appends the encoding of p (RFC 9496, section 4.3.2): the
// steps of encode_native.go in package edwards32's field, 1.4 times as
// fast on js/wasm (its square root is 250 squarings). The same bytes: the
// ristretto tests (RFC vectors, gtank's encoder) run under wasm in
// .ci/wasm-build.sh.
func appendEncoding(b []byte, p *edwards25519.Point) []byte {
	fX, fY, fZ, fT := p.ExtendedCoordinates()
	X, Y, Z, T := new(edwards32.Element).SetField(fX), new(edwards32.Element).SetField(fY), new(edwards32.Element).SetField(fZ), new(edwards32.Element).SetField(fT)
	var u1, u2, t edwards32.Element
	u1.Add(Z, Y)
	u1.Multiply(&u1, t.Subtract(Z, Y)) // u1 = (Z + Y)(Z - Y)
	u2.Multiply(X, Y)                  // u2 = X·Y
	var invSqrt edwards32.Element
	t.Square(&u2)
	invSqrt.SqrtRatio(w32One, t.Multiply(&t, &u1)) // always square
	var den1, den2, zInv edwards32.Element
	den1.Multiply(&invSqrt, &u1)
	den2.Multiply(&invSqrt, &u2)
	zInv.Multiply(&den1, &den2)
	zInv.Multiply(&zInv, T)
	var ix, iy, enchanted edwards32.Element
	ix.Multiply(X, w32SqrtM1)
	iy.Multiply(Y, w32SqrtM1)
	enchanted.Multiply(&den1, w32InvSqrtAMinusD)
	rotate := t.Multiply(T, &zInv).IsNegative()
	var x, y, denInv edwards32.Element
	x.Select(&iy, X, rotate)
	y.Select(&ix, Y, rotate)
	denInv.Select(&enchanted, &den2, rotate)
	negY := t.Multiply(&x, &zInv).IsNegative()
	y.Select(t.Negate(&y), &y, negY)
	var s edwards32.Element
	s.Subtract(Z, &y)
	s.Multiply(&s, &denInv)
	s.Absolute(&s) // s = |den_inv·(z - y)|
	return append(b, s.Bytes()...)
}
