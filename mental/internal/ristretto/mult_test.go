package ristretto

import (
	"bytes"
	"crypto/rand"
	"testing"

	"filippo.io/edwards25519"
)

// TestMultsMatchEdwards25519: the constant-time multiplications of this
// build (edwards25519's natively, package edwards32's on js/wasm) give
// filippo.io/edwards25519's results, aliased receivers included, and the
// encoding of this build (encode_wasm.go on js/wasm) gtank's. Natively
// it checks the wiring; under wasm (.ci/wasm-build.sh runs this package's
// tests in Node) it checks the wasm arithmetic through this package's API:
//
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./mental/internal/ristretto
func TestMultsMatchEdwards25519(t *testing.T) {
	for i := range 20 {
		var b [64]byte
		rand.Read(b[:])
		s, _ := NewScalar().SetUniformBytes(b[:])
		if i == 0 {
			s = NewScalar()
		}
		p, q := randomElement(t), randomElement(t)
		if i == 1 {
			p = NewIdentityElement()
		}
		// The encoding (encode_wasm.go on js/wasm): gtank's decoder
		// accepts it and encodes the element back to the same bytes, and
		// decoding it here gives the same element.
		for _, x := range []*Element{p, q, NewIdentityElement().Add(p, q), NewIdentityElement().Negate(q)} {
			enc := x.Bytes()
			if o := oracle(enc); o == nil || !bytes.Equal(o, enc) {
				t.Fatalf("encoding %x: gtank re-encodes it as %x", enc, o)
			}
			if d, err := NewIdentityElement().SetCanonicalBytes(enc); err != nil || d.Equal(x) != 1 {
				t.Fatalf("encoding %x does not decode to its element", enc)
			}
		}
		if got, want := NewIdentityElement().ScalarBaseMult(s), new(edwards25519.Point).ScalarBaseMult(s); got.p.Equal(want) != 1 {
			t.Fatalf("ScalarBaseMult(%x)", s.Bytes())
		}
		want := new(edwards25519.Point).ScalarMult(s, &p.p)
		if got := NewIdentityElement().ScalarMult(s, p); got.p.Equal(want) != 1 {
			t.Fatalf("ScalarMult(%x, %x)", s.Bytes(), p.Bytes())
		}
		alias := NewIdentityElement().Set(p)
		if alias.ScalarMult(s, alias); alias.p.Equal(want) != 1 {
			t.Fatal("ScalarMult with the receiver aliasing the point")
		}
		ss := []*Scalar{s, NewScalar().Add(s, s)}
		want = new(edwards25519.Point).MultiScalarMult(ss, []*edwards25519.Point{&p.p, &q.p})
		if got := NewIdentityElement().MultiScalarMult(ss, []*Element{p, q}); got.p.Equal(want) != 1 {
			t.Fatal("MultiScalarMult")
		}
		alias.Set(q)
		if alias.MultiScalarMult(ss, []*Element{p, alias}); alias.p.Equal(want) != 1 {
			t.Fatal("MultiScalarMult with the receiver aliasing a point")
		}
	}
}
