//go:build !(js && wasm)

package msm

import (
	"filippo.io/edwards25519/field"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// fe is the field arithmetic of the sums: filippo.io/edwards25519's,
// natively (bridge_wasm.go has the js/wasm one).
type fe = field.Element

// coordinates returns the X, Y, Z coordinates of e's point. The caller
// must not modify them.
func coordinates(e *ristretto.Element) (X, Y, Z *fe) {
	X, Y, Z, _ = ristretto.Point(e).ExtendedCoordinates()
	return X, Y, Z
}

// toElement returns the ristretto255 element that p represents.
func toElement(p *extended) *ristretto.Element {
	e := ristretto.NewIdentityElement()
	if _, err := ristretto.Point(e).SetExtendedCoordinates(&p.X, &p.Y, &p.Z, &p.T); err != nil {
		panic("msm: result is not on the curve: " + err.Error())
	}
	return e
}

// extendedOf returns e's point in this package's coordinates.
func extendedOf(e *ristretto.Element) extended {
	X, Y, Z, T := ristretto.Point(e).ExtendedCoordinates()
	return extended{*X, *Y, *Z, *T}
}
