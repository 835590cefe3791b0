package bridge

import (
	"crypto/rand"
	"testing"

	"filippo.io/edwards25519"
	"github.com/gtank/ristretto255"
)

func randomElement(t *testing.T) *ristretto255.Element {
	t.Helper()
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return ristretto255.NewIdentityElement().FromUniformBytes(b[:])
}

// TestLayout: the points read through Edwards add up, in edwards25519, to
// the point of the elements' sum in ristretto255; and a point written
// through Edwards is the element ristretto255 then encodes.
func TestLayout(t *testing.T) {
	for range 20 {
		a, b := randomElement(t), randomElement(t)
		sum := edwards25519.NewIdentityPoint().Add(Edwards(a), Edwards(b))
		want := ristretto255.NewIdentityElement().Add(a, b)
		if Edwards(want).Equal(sum) != 1 {
			t.Fatal("points read through Edwards do not add up to the element's sum")
		}
		c := ristretto255.NewIdentityElement()
		Edwards(c).Set(sum)
		if c.Equal(want) != 1 {
			t.Fatal("a point written through Edwards is not the element")
		}
	}
}

// TestSelect: each condition picks its input, for distinct, equal and
// identity inputs, and out may alias either input.
func TestSelect(t *testing.T) {
	id := ristretto255.NewIdentityElement()
	for range 10 {
		a, b := randomElement(t), randomElement(t)
		for _, c := range [][2]*ristretto255.Element{{a, b}, {a, a}, {a, id}, {id, b}} {
			if Select(ristretto255.NewIdentityElement(), c[0], c[1], 1).Equal(c[0]) != 1 {
				t.Fatal("cond 1 did not select the first input")
			}
			if Select(ristretto255.NewIdentityElement(), c[0], c[1], 0).Equal(c[1]) != 1 {
				t.Fatal("cond 0 did not select the second input")
			}
		}
		x := ristretto255.NewIdentityElement().Set(a)
		if Select(x, x, b, 0).Equal(b) != 1 {
			t.Fatal("out aliasing the first input")
		}
		y := ristretto255.NewIdentityElement().Set(b)
		if Select(y, a, y, 1).Equal(a) != 1 {
			t.Fatal("out aliasing the second input")
		}
	}
}
