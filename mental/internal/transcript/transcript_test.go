package transcript

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
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
				if got := ristretto.AppendScalar(nil, sc); !bytes.Equal(got, ristretto.AppendScalar(nil, scalarOf(want2))) {
					t.Fatal("second challenge differs from the directly framed hash")
				}
			})
		}
	}
}

func scalarOf(b [64]byte) *ristretto.Scalar {
	return ristretto.UniformScalar(b[:])
}

// TestLongLabels: labels of any length, up to several buffers, including
// ones whose framing fills the buffer exactly to its capacity, are framed
// like any other item (and never stall the copy loop).
func TestLongLabels(t *testing.T) {
	c := cap(New("x").buf)
	for _, n := range []int{-1, 0, 1, flushAt - 9, flushAt - 8, c - 8, c - 9, c - 7, c, 2 * c, 5000} {
		for _, pre := range []int{0, 1, 100, flushAt - 1} {
			ref := sha512.New()
			ref.Write(frame("dom-sep", []byte(Domain)))
			ref.Write(frame("protocol", []byte("test")))
			tr := New("test")
			p := bytes.Repeat([]byte{1}, pre)
			tr.Append("p", p)
			ref.Write(frame("p", p))
			if n < 0 { // the label whose framing ends exactly at the buffer's capacity
				n = cap(tr.buf) - len(tr.buf) - 8
			}
			label := string(bytes.Repeat([]byte{'L'}, n))
			for _, data := range [][]byte{{2}, nil, bytes.Repeat([]byte{3}, 3*c)} {
				tr.Append(label, data)
				ref.Write(frame(label, data))
			}
			ref.Write(frame("challenge", []byte("c")))
			if !bytes.Equal(tr.ChallengeBytes("c"), ref.Sum(nil)) {
				t.Fatalf("label of %d bytes after %d buffered: challenge differs from direct framing", n, pre)
			}
		}
	}
}

// TestChallengeScalarDoesNotAlias: the scratch space ChallengeScalar uses
// is not shared with a returned scalar or with earlier challenge bytes.
func TestChallengeScalarDoesNotAlias(t *testing.T) {
	tr := New("test")
	raw := tr.ChallengeBytes("a")
	keep := append([]byte(nil), raw...)
	s1 := tr.ChallengeScalar("b")
	e1 := ristretto.AppendScalar(nil, s1)
	tr.ChallengeScalar("c")
	if !bytes.Equal(raw, keep) {
		t.Fatal("ChallengeScalar overwrote bytes returned by ChallengeBytes")
	}
	if !bytes.Equal(ristretto.AppendScalar(nil, s1), e1) {
		t.Fatal("a later challenge changed an earlier scalar")
	}
}

// FuzzFraming: any sequence of items, split from the fuzzer's bytes, gives
// the same challenges through the buffered transcript as through SHA-512
// of the framed items written directly, including challenges in the middle
// and a clone taken at any point.
func FuzzFraming(f *testing.F) {
	f.Add([]byte("a\x00bc\x01def"), uint16(3), uint8(1))
	f.Add(bytes.Repeat([]byte{7}, 3000), uint16(700), uint8(2))
	f.Add([]byte{}, uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint16, cloneAt uint8) {
		step := int(chunk)%(2*flushAt) + 1
		ref := sha512.New()
		ref.Write(frame("dom-sep", []byte(Domain)))
		ref.Write(frame("protocol", []byte("fuzz")))
		tr := New("fuzz")
		var clone *Transcript
		for i := 0; len(data) > 0; i++ {
			n := min(step, len(data))
			item := data[:n]
			data = data[n:]
			if i == int(cloneAt) {
				clone = tr.Clone()
			}
			label := fmt.Sprintf("item-%d", i)
			tr.Append(label, item)
			ref.Write(frame(label, item))
			if clone != nil {
				clone.Append(label, item)
			}
			if i%3 == 2 {
				ref.Write(frame("challenge", []byte("mid")))
				want := ref.Sum(nil)
				if got := tr.ChallengeBytes("mid"); !bytes.Equal(got, want) {
					t.Fatalf("challenge after item %d differs from direct framing", i)
				}
				if clone != nil {
					clone.ChallengeBytes("mid")
				}
			}
		}
		ref.Write(frame("challenge", []byte("end")))
		want := ref.Sum(nil)
		if got := tr.ChallengeBytes("end"); !bytes.Equal(got, want) {
			t.Fatal("final challenge differs from direct framing")
		}
		if clone != nil {
			if got := clone.ChallengeBytes("end"); !bytes.Equal(got, want) {
				t.Fatal("a clone fed the same items diverged")
			}
		}
	})
}
