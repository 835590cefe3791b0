package msm

import (
	"filippo.io/edwards25519"
	"github.com/gtank/ristretto255"

	"github.com/masque-games/masque/mental/internal/bridge"
)

// edwardsOf returns the edwards25519 point that represents e (through
// internal/bridge, which checks the layout). The caller must not modify
// it.
func edwardsOf(e *ristretto255.Element) *edwards25519.Point { return bridge.Edwards(e) }

// toElement returns the ristretto255 element that p represents.
func toElement(p *extended) *ristretto255.Element {
	e := ristretto255.NewIdentityElement()
	if _, err := edwardsOf(e).SetExtendedCoordinates(&p.X, &p.Y, &p.Z, &p.T); err != nil {
		panic("msm: result is not on the curve: " + err.Error())
	}
	return e
}
