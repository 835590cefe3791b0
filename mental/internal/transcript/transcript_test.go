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
	sizes := []int{0, 1, 31, 32, 64, 200, bufSize/2 - 9, bufSize - 60, bufSize - 9, bufSize - 8, bufSize, bufSize + 1, 3*bufSize + 7, 10000}
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
	c := bufSize
	for _, n := range []int{-1, 0, 1, c/2 - 9, c/2 - 8, c - 8, c - 9, c - 7, c, 2 * c, 5000} {
		for _, pre := range []int{0, 1, 100, c/2 - 1, c - 40} {
			ref := sha512.New()
			ref.Write(frame("dom-sep", []byte(Domain)))
			ref.Write(frame("protocol", []byte("test")))
			tr := New("test")
			p := bytes.Repeat([]byte{1}, pre)
			tr.Append("p", p)
			ref.Write(frame("p", p))
			if n < 0 { // the label whose framing ends exactly at the buffer's capacity
				n = bufSize - tr.n - 8
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

// TestChallengeThenOverflow: challenges taken while every item is still
// buffered (hashed without a SHA-512 state) leave the buffer whole, so
// items that later outgrow it, challenges after that and clones taken on
// either side all see one stream.
func TestChallengeThenOverflow(t *testing.T) {
	for _, size := range []int{1, 100, bufSize - 200, bufSize, 3 * bufSize} {
		ref := sha512.New()
		ref.Write(frame("dom-sep", []byte(Domain)))
		ref.Write(frame("protocol", []byte("test")))
		tr := New("test")
		check := func(tr *Transcript, label, what string) {
			t.Helper()
			r := sha512.New()
			// ref's state so far plus this challenge, without changing ref.
			state, _ := ref.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
			if err := r.(interface{ UnmarshalBinary([]byte) error }).UnmarshalBinary(state); err != nil {
				t.Fatal(err)
			}
			r.Write(frame("challenge", []byte(label)))
			if got := tr.ChallengeBytes(label); !bytes.Equal(got, r.Sum(nil)) {
				t.Fatalf("item of %d bytes: %s: challenge differs from the directly framed hash", size, what)
			}
		}
		small := tr.Clone()
		check(small, "s", "a clone's challenge before anything")
		tr.Append("x", []byte{1, 2, 3})
		ref.Write(frame("x", []byte{1, 2, 3}))
		before := tr.Clone()
		check(tr, "c1", "the challenge while buffered")
		ref.Write(frame("challenge", []byte("c1")))
		data := bytes.Repeat([]byte{9}, size)
		tr.Append("big", data)
		ref.Write(frame("big", data))
		after := tr.Clone()
		check(tr, "c2", "the challenge after the item")
		ref.Write(frame("challenge", []byte("c2")))
		tr.Append("y", data)
		ref.Write(frame("y", data))
		check(tr, "c3", "a third challenge")
		// The clones continue from where they were taken.
		before.Append("z", nil)
		after.Append("z", nil)
		if bytes.Equal(before.ChallengeBytes("q"), after.ChallengeBytes("q")) {
			t.Fatalf("item of %d bytes: clones taken before and after it agree", size)
		}
	}
}

// TestSmallTranscriptAllocations: a proof-sized transcript (the context,
// a few points, the challenge) allocates the transcript itself and the
// challenge scalar, no SHA-512 state and no separate buffer (it made
// four allocations before).
func TestSmallTranscriptAllocations(t *testing.T) {
	var table [32]byte
	pt := make([]byte, 32)
	allocs := testing.AllocsPerRun(100, func() {
		tr := New("masque/test/v1")
		tr.Append("table", table[:])
		tr.AppendUint64("pos", 7)
		tr.AppendUint64("seat", 2)
		for range 6 {
			tr.Append("point", pt)
		}
		_ = tr.ChallengeScalar("challenge")
	})
	if allocs > 2 {
		t.Fatalf("a small transcript and its challenge scalar make %.0f allocations, want at most 2", allocs)
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
		step := int(chunk)%(2*bufSize) + 1
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

// BenchmarkProofTranscript is one small proof's transcript: the context
// (as mental.Context.transcript absorbs it), a statement of a few points,
// the commitments and the challenge scalar.
func BenchmarkProofTranscript(b *testing.B) {
	var table [32]byte
	pt := make([]byte, 32)
	b.ReportAllocs()
	for b.Loop() {
		t := New("masque/bench/v1")
		t.Append("table", table[:])
		t.AppendUint64("pos", 7)
		t.AppendUint64("seat", 2)
		for range 6 {
			t.Append("point", pt)
		}
		_ = t.ChallengeScalar("challenge")
	}
}

// BenchmarkLargeTranscript is a shuffle-sized transcript (16 KiB of
// items, more than the buffer holds) and its challenge.
func BenchmarkLargeTranscript(b *testing.B) {
	pt := make([]byte, 64)
	b.ReportAllocs()
	for b.Loop() {
		t := New("masque/bench/v1")
		for range 256 {
			t.Append("card", pt)
		}
		_ = t.ChallengeScalar("challenge")
	}
}
