// Package bridge reaches the edwards25519 point inside a gtank/ristretto255
// Element, for the two things package mental needs that ristretto255 v0.2.0
// does not offer: the point's coordinates (for the bucket method of
// internal/msm) and a constant-time selection between two elements (for
// the hidden swap, mental SPEC.md §3.5; edwards25519 v1.2.0's
// Point.Select does the selecting).
package bridge

import (
	"unsafe"

	"filippo.io/edwards25519"
	"github.com/gtank/ristretto255"
)

// gtank/ristretto255 v0.2.0 (pinned in go.mod) defines
//
//	type Element struct { r edwards25519.Point }
//
// and offers no way to read the point's coordinates. Edwards reads them
// through that layout. The two array types below stop the build if the
// sizes ever differ, and TestLayout checks on random elements that the
// point read this way is the element's (additions through both agree).
var (
	_ [unsafe.Sizeof(ristretto255.Element{}) - unsafe.Sizeof(edwards25519.Point{})]struct{}
	_ [unsafe.Sizeof(edwards25519.Point{}) - unsafe.Sizeof(ristretto255.Element{})]struct{}
)

// Edwards returns the edwards25519 point that represents e, sharing its
// memory: writing the point writes the element.
func Edwards(e *ristretto255.Element) *edwards25519.Point {
	return (*edwards25519.Point)(unsafe.Pointer(e))
}

// Select sets out to a if cond is 1 and to b if cond is 0, in constant
// time: the same instructions and memory accesses either way
// (edwards25519's Point.Select, a field-element selection by mask). cond
// must be 0 or 1. It returns out.
func Select(out, a, b *ristretto255.Element, cond int) *ristretto255.Element {
	Edwards(out).Select(Edwards(a), Edwards(b), cond)
	return out
}
