package msm

import (
	"filippo.io/edwards25519"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// edwardsOf returns the edwards25519 point that represents e. The caller
// must not modify it.
func edwardsOf(e *ristretto.Element) *edwards25519.Point { return ristretto.Point(e) }

// toElement returns the ristretto255 element that p represents.
func toElement(p *extended) *ristretto.Element {
	e := ristretto.NewIdentityElement()
	if _, err := ristretto.Point(e).SetExtendedCoordinates(&p.X, &p.Y, &p.Z, &p.T); err != nil {
		panic("msm: result is not on the curve: " + err.Error())
	}
	return e
}
