//go:build js && wasm

package ristretto

import (
	"filippo.io/edwards25519"

	"github.com/masque-games/masque/mental/internal/edwards32"
)

// The constant-time scalar multiplications on js/wasm: package edwards32's
// field of ten 32-bit limbs, 1.4 times as fast there as
// filippo.io/edwards25519's five 64-bit limbs (whose products WebAssembly
// must emulate), with the same results (edwards32's tests check them
// against edwards25519, and .ci/wasm-build.sh the vectors under wasm).
// Native builds use mult_native.go.

func scalarBaseMult(dst *edwards25519.Point, s *Scalar) { edwards32.ScalarBaseMult(dst, s) }

func scalarMult(dst *edwards25519.Point, s *Scalar, q *edwards25519.Point) {
	edwards32.ScalarMult(dst, s, q)
}

func multiScalarMult(dst *edwards25519.Point, s []*Scalar, q []*edwards25519.Point) {
	edwards32.MultiScalarMult(dst, s, q)
}
