package transcript

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
)

// frame is the reference framing of SPEC.md §2: what the hash must see,
// written out by hand with no buffering.
func frame(label string, data []byte) []byte {
	var b []byte
	b = binary.BigEndian.AppendUint32(b, uint32(len(label)))
	b = append(b, label...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// TestBufferingIsInvisible: whatever the item sizes (empty, small, just
// under, at and over the flush size, several times the buffer), every
// challenge equals SHA-512 of the framed items written directly, and a
// clone taken with bytes still buffered continues the same stream.
func TestBufferingIsInvisible(t *testing.T) {
	sizes := []int{0, 1, 31, 32, 64, 200, flushAt - 9, flushAt - 8, flushAt, flushAt + 1, cap(New("x").buf), 3*flushAt + 7, 10000}
	for _, first := range sizes {
		for _, second := range sizes {
			t.Run(fmt.Sprintf("%d,%d", first, second), func(t *testing.T) {
				ref := sha512.New()
				ref.Write(frame("dom-sep", []byte(Domain)))
				ref.Write(frame("protocol", []byte("test")))
				tr := New("test")
				a := bytes.Repeat([]byte{0xa5}, first)
				b := bytes.Repeat([]byte{0x5a}, second)
				tr.Append("a", a)
				ref.Write(frame("a", a))
				clone := tr.Clone()
				tr.Append("b", b)
				ref.Write(frame("b", b))
				ref.Write(frame("challenge", []byte("c")))
				want := ref.Sum(nil)
				if got := tr.ChallengeBytes("c"); !bytes.Equal(got, want) {
					t.Fatalf("challenge differs from the directly framed hash")
				}
				clone.Append("b", b)
				if got := clone.ChallengeBytes("c"); !bytes.Equal(got, want) {
					t.Fatal("clone taken mid-buffer diverged from the original")
				}
				// A later challenge still depends on everything before it.
				ref.Write(frame("challenge", []byte("d")))
				sc := tr.ChallengeScalar("d")
				var want2 [64]byte
				copy(want2[:], ref.Sum(nil))
				if got := sc.Encode(nil); !bytes.Equal(got, scalarOf(want2).Encode(nil)) {
					t.Fatal("second challenge differs from the directly framed hash")
				}
			})
		}
	}
}

func scalarOf(b [64]byte) *ristretto255.Scalar {
	return ristretto255.NewScalar().FromUniformBytes(b[:])
}

// TestChallengeScalarDoesNotAlias: the scratch space ChallengeScalar uses
// is not shared with a returned scalar or with earlier challenge bytes.
func TestChallengeScalarDoesNotAlias(t *testing.T) {
	tr := New("test")
	raw := tr.ChallengeBytes("a")
	keep := append([]byte(nil), raw...)
	s1 := tr.ChallengeScalar("b")
	e1 := s1.Encode(nil)
	tr.ChallengeScalar("c")
	if !bytes.Equal(raw, keep) {
		t.Fatal("ChallengeScalar overwrote bytes returned by ChallengeBytes")
	}
	if !bytes.Equal(s1.Encode(nil), e1) {
		t.Fatal("a later challenge changed an earlier scalar")
	}
}
