//go:build !(js && wasm)

package ristretto

import "filippo.io/edwards25519"

// The constant-time scalar multiplications, natively: filippo.io/edwards25519's
// (amd64 assembly for its field, or its generic Go). mult_wasm.go has the
// js/wasm ones.

func scalarBaseMult(dst *edwards25519.Point, s *Scalar) { dst.ScalarBaseMult(s) }

func scalarMult(dst *edwards25519.Point, s *Scalar, q *edwards25519.Point) { dst.ScalarMult(s, q) }

func multiScalarMult(dst *edwards25519.Point, s []*Scalar, q []*edwards25519.Point) {
	dst.MultiScalarMult(s, q)
}
