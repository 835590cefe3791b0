package edwards32

import (
	"bytes"
	"crypto/rand"
	"testing"

	"filippo.io/edwards25519/field"
)

// runProgram runs ops on four registers of Element and of field.Element,
// started from the inputs, and fails at the first result that differs.
// Each op byte picks an operation and its operands; chains of additions
// and subtractions feeding products check that the limbs stay in bounds.
func runProgram(t testing.TB, in [4][]byte, ops []byte) {
	var a [4]Element
	var b [4]*field.Element
	for i := range 4 {
		g, err := new(field.Element).SetBytes(in[i])
		if err != nil {
			t.Fatal(err)
		}
		b[i] = g
		a[i].SetField(g)
		var viaBytes Element
		if _, err := viaBytes.SetBytes(in[i]); err != nil || viaBytes.Equal(&a[i]) != 1 {
			t.Fatalf("SetBytes(%x) differs from the conversion", in[i])
		}
		if !bytes.Equal(a[i].Bytes(), g.Bytes()) || a[i].Field().Equal(g) != 1 {
			t.Fatalf("conversion of %x differs", in[i])
		}
	}
	for k, op := range ops {
		d, x := int(op>>4)&3, int(op>>6)&3
		y := (x + 1 + 2*(k&1)) & 3 // x+1 at even positions, x−1 at odd ones
		name := ""
		switch op & 15 {
		case 0:
			name = "add"
			a[d].Add(&a[x], &a[y])
			b[d].Add(b[x], b[y])
		case 1:
			name = "subtract"
			a[d].Subtract(&a[x], &a[y])
			b[d].Subtract(b[x], b[y])
		case 2:
			name = "negate"
			a[d].Negate(&a[x])
			b[d].Negate(b[x])
		case 3, 15:
			name = "multiply"
			a[d].Multiply(&a[x], &a[y])
			b[d].Multiply(b[x], b[y])
		case 4:
			name = "square"
			a[d].Square(&a[x])
			b[d].Square(b[x])
		case 5:
			name = "mult32"
			m := uint32(op)*0x01010101 ^ uint32(k)*2654435761
			a[d].Mult32(&a[x], m)
			b[d].Mult32(b[x], m)
		case 6:
			name = "invert"
			a[d].Invert(&a[x])
			b[d].Invert(b[x])
		case 7:
			name = "set"
			a[d].Set(&a[x])
			b[d].Set(b[x])
		case 8:
			name = "zero"
			a[d].Zero()
			b[d].Zero()
		case 9:
			name = "one"
			a[d].One()
			b[d].One()
		case 10:
			name = "sqrt ratio"
			_, sa := a[d].SqrtRatio(&a[x], &a[y])
			_, sb := b[d].SqrtRatio(b[x], b[y])
			if sa != sb {
				t.Fatalf("op %d (%s) on %x: was square %d, want %d", k, name, in, sa, sb)
			}
		case 11:
			name = "absolute"
			a[d].Absolute(&a[x])
			b[d].Absolute(b[x])
		case 12:
			name = "select"
			a[d].Select(&a[x], &a[y], k&1)
			b[d].Select(b[x], b[y], k&1)
		case 13:
			name = "is negative"
			if a[x].IsNegative() != b[x].IsNegative() {
				t.Fatalf("op %d (%s) on %x: differs", k, name, in)
			}
		case 14:
			name = "set bytes"
			if _, err := a[d].SetBytes(in[k%4]); err != nil {
				t.Fatal(err)
			}
			b[d].SetBytes(in[k%4])
		}
		if !bytes.Equal(a[d].Bytes(), b[d].Bytes()) {
			t.Fatalf("op %d (%s) on %x: %x, want %x", k, name, in, a[d].Bytes(), b[d].Bytes())
		}
		for i := range 4 {
			if a[d].Equal(&a[i]) != b[d].Equal(b[i]) {
				t.Fatalf("op %d (%s): Equal differs", k, name)
			}
		}
	}
}

func TestElementAgainstEdwards25519(t *testing.T) {
	in := fieldInputs(t, 100)
	ops := make([]byte, 64)
	for i := range in {
		if _, err := rand.Read(ops); err != nil {
			t.Fatal(err)
		}
		runProgram(t, [4][]byte{in[i], in[(i+1)%len(in)], in[(i+5)%len(in)], in[(i+7)%len(in)]}, ops)
	}
	// Long chains of additions before a product (the worst case for the
	// limbs' bounds), and of subtractions.
	// r1 = r0 + r1 then r0 = r1 + r0, alternately (Fibonacci: limbs
	// would overflow in a few dozen steps without carries), then products;
	// the same with subtractions and negations.
	for _, pair := range [][]byte{{0x10, 0x40}, {0x11, 0x41}, {0x12, 0x42}} {
		chain := append(bytes.Repeat(pair, 40), 0x03, 0x04, 0x0a, 0x0b)
		for i := range in {
			runProgram(t, [4][]byte{in[i], in[(i+1)%len(in)], in[2], in[3]}, chain)
		}
	}
}

func FuzzElement(f *testing.F) {
	in := fieldInputs(f, 0)
	for i := range in {
		f.Add(in[i], in[(i+1)%len(in)], in[(i+2)%len(in)], in[(i+3)%len(in)], []byte{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff})
	}
	f.Fuzz(func(t *testing.T, x, y, z, w, ops []byte) {
		if len(x) != 32 || len(y) != 32 || len(z) != 32 || len(w) != 32 || len(ops) > 256 {
			return
		}
		runProgram(t, [4][]byte{x, y, z, w}, ops)
	})
}
