//go:build js && wasm

package msm

import (
	"github.com/masque-games/masque/mental/internal/edwards32"
	"github.com/masque-games/masque/mental/internal/ristretto"
)

// fe is the field arithmetic of the sums on js/wasm: package edwards32's
// ten 32-bit limbs, faster there than filippo.io/edwards25519's five
// 64-bit ones (whose products WebAssembly must emulate); the same values
// (edwards32's tests check every operation against edwards25519). Native
// builds use bridge.go.
type fe = edwards32.Element

// coordinates returns the X, Y, Z coordinates of e's point.
func coordinates(e *ristretto.Element) (X, Y, Z *fe) {
	x, y, z, _ := ristretto.Point(e).ExtendedCoordinates()
	return new(fe).SetField(x), new(fe).SetField(y), new(fe).SetField(z)
}

// toElement returns the ristretto255 element that p represents.
func toElement(p *extended) *ristretto.Element {
	e := ristretto.NewIdentityElement()
	if _, err := ristretto.Point(e).SetExtendedCoordinates(p.X.Field(), p.Y.Field(), p.Z.Field(), p.T.Field()); err != nil {
		panic("msm: result is not on the curve: " + err.Error())
	}
	return e
}

// extendedOf returns e's point in this package's coordinates.
func extendedOf(e *ristretto.Element) extended {
	X, Y, Z, T := ristretto.Point(e).ExtendedCoordinates()
	var p extended
	p.X.SetField(X)
	p.Y.SetField(Y)
	p.Z.SetField(Z)
	p.T.SetField(T)
	return p
}
