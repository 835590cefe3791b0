package msm

import (
	"unsafe"

	"filippo.io/edwards25519"
	"github.com/gtank/ristretto255"
)

// gtank/ristretto255 v0.2.0 (pinned in go.mod) defines
//
//	type Element struct { r edwards25519.Point }
//
// and offers no way to read the point's coordinates, which a bucket
// method needs. edwardsOf reads them through that layout. The two array
// types below stop the build if the sizes ever differ, and
// TestBridgeLayout checks on random elements that the point read this way
// is the element's (additions through both agree).
var (
	_ [unsafe.Sizeof(ristretto255.Element{}) - unsafe.Sizeof(edwards25519.Point{})]struct{}
	_ [unsafe.Sizeof(edwards25519.Point{}) - unsafe.Sizeof(ristretto255.Element{})]struct{}
)

// edwardsOf returns the edwards25519 point that represents e. The caller
// must not modify it.
func edwardsOf(e *ristretto255.Element) *edwards25519.Point {
	return (*edwards25519.Point)(unsafe.Pointer(e))
}

// toElement returns the ristretto255 element that p represents.
func toElement(p *extended) *ristretto255.Element {
	e := ristretto255.NewIdentityElement()
	if _, err := edwardsOf(e).SetExtendedCoordinates(&p.X, &p.Y, &p.Z, &p.T); err != nil {
		panic("msm: result is not on the curve: " + err.Error())
	}
	return e
}
