package mental

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/masque-games/masque/mental/internal/ristretto"

	"github.com/masque-games/masque/mental/internal/transcript"
)

// Scalar is an element of the ristretto255 scalar field.
type Scalar = ristretto.Scalar

// Element is a ristretto255 group element.
type Element = ristretto.Element

// Sizes of canonical encodings (SPEC.md §1).
const (
	ElementSize = 32
	ScalarSize  = 32
)

// Errors shared by every decoder and verifier.
var (
	// ErrEncoding reports bytes that are not the canonical encoding of a
	// value: wrong length, trailing bytes, a non-canonical point or scalar.
	ErrEncoding = errors.New("mental: invalid encoding")
	// ErrProof reports a proof that does not verify.
	ErrProof = errors.New("mental: proof does not verify")
)

// Context binds a proof to where it was made (SPEC.md §2.2): the table (or
// game) id, the log position and the prover's seat. A proof made under one
// Context does not verify under any other.
type Context struct {
	Table [32]byte
	Pos   uint64
	Seat  uint32
}

// transcript starts a transcript for protocol and absorbs the context.
func (c Context) transcript(protocol string) *transcript.Transcript {
	t := transcript.New(protocol)
	t.Append("table", c.Table[:])
	t.AppendUint64("pos", c.Pos)
	t.AppendUint64("seat", uint64(c.Seat))
	return t
}

// randomScalar returns a uniformly random scalar from crypto/rand.
func randomScalar() *Scalar {
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("mental: crypto/rand failed: " + err.Error())
	}
	return ristretto.UniformScalar(b[:])
}

// hashToElement maps a label and index to a group element whose discrete
// log nobody knows (ristretto255's one-way map over SHA-512).
func hashToElement(label string, i uint64) *Element {
	h := sha512.New()
	h.Write([]byte("masque/mental/v1/hash-to-group"))
	var n [8]byte
	binary.BigEndian.PutUint32(n[:4], uint32(len(label)))
	h.Write(n[:4])
	h.Write([]byte(label))
	binary.BigEndian.PutUint64(n[:], i)
	h.Write(n[:])
	return ristretto.UniformElement(h.Sum(nil))
}

// CardPoint returns the group element that encodes card kind k (SPEC.md
// §3.1). Points are hashed to the group, so no algebraic relation between
// two kinds is known.
func CardPoint(k int) *Element {
	return hashToElement("card", uint64(k))
}

// maxSharedKind bounds the kinds sharedCardPoint caches.
const maxSharedKind = 1024

// cardPoints caches the card points statements use (sharedCardPoint).
var cardPoints sync.Map // int -> *Element

// sharedCardPoint returns CardPoint(k) as one shared pointer per kind,
// never modified: statements use it, so that a batch merges the same
// kind's terms across its proofs (batchHolds merges by pointer), and a
// formula does not hash its kinds again. Never returned to callers.
func sharedCardPoint(k int) *Element {
	if k < 0 || k >= maxSharedKind {
		return CardPoint(k) // not cached: the cache stays bounded
	}
	if p, ok := cardPoints.Load(k); ok {
		return p.(*Element)
	}
	p, _ := cardPoints.LoadOrStore(k, CardPoint(k))
	return p.(*Element)
}

// Base returns the ristretto255 generator G.
func Base() *Element { return ristretto.NewGeneratorElement() }

// Identity returns a new element set to the identity.
func Identity() *Element { return ristretto.NewIdentityElement() }

// NewScalar returns a new scalar set to zero.
func NewScalar() *Scalar { return ristretto.NewScalar() }

// generator is the base point G shared by every statement this package
// builds, never modified. Sharing one pointer lets a batch merge the G
// terms of all its proofs into one point (batchHolds merges by pointer).
var generator = ristretto.NewGeneratorElement()

// decodeElement decodes a canonical 32-byte element.
func decodeElement(b []byte) (*Element, error) {
	if len(b) != ElementSize {
		return nil, fmt.Errorf("%w: element is %d bytes, want %d", ErrEncoding, len(b), ElementSize)
	}
	e := ristretto.NewIdentityElement()
	if _, err := e.SetCanonicalBytes(b); err != nil {
		return nil, fmt.Errorf("%w: non-canonical element", ErrEncoding)
	}
	return e, nil
}

// decodeScalar decodes a canonical 32-byte scalar.
func decodeScalar(b []byte) (*Scalar, error) {
	if len(b) != ScalarSize {
		return nil, fmt.Errorf("%w: scalar is %d bytes, want %d", ErrEncoding, len(b), ScalarSize)
	}
	s := ristretto.NewScalar()
	if _, err := s.SetCanonicalBytes(b); err != nil {
		return nil, fmt.Errorf("%w: non-canonical scalar", ErrEncoding)
	}
	return s, nil
}

// isIdentity reports whether e is the identity element.
func isIdentity(e *Element) bool {
	return e.Equal(ristretto.NewIdentityElement()) == 1
}

// reader walks a byte string of fixed-size fields.
type reader struct {
	b   []byte
	err error
	// known, if set, collects the encoding of every element read, so
	// that verifying the decoded value does not encode it again.
	known encodings
	// last is the encoding of the last element read.
	last []byte
}

func (r *reader) element(what string) *Element {
	if r.err != nil {
		return nil
	}
	if len(r.b) < ElementSize {
		r.err = fmt.Errorf("%w: %s truncated", ErrEncoding, what)
		return nil
	}
	e, err := decodeElement(r.b[:ElementSize])
	if err != nil {
		r.err = fmt.Errorf("%s: %w", what, err)
		return nil
	}
	if r.known != nil {
		r.known.remember(e, r.b[:ElementSize])
	}
	r.last = r.b[:ElementSize]
	r.b = r.b[ElementSize:]
	return e
}

func (r *reader) scalar(what string) *Scalar {
	if r.err != nil {
		return nil
	}
	if len(r.b) < ScalarSize {
		r.err = fmt.Errorf("%w: %s truncated", ErrEncoding, what)
		return nil
	}
	s, err := decodeScalar(r.b[:ScalarSize])
	if err != nil {
		r.err = fmt.Errorf("%s: %w", what, err)
		return nil
	}
	r.b = r.b[ScalarSize:]
	return s
}

func (r *reader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 1 {
		r.err = fmt.Errorf("%w: %s truncated", ErrEncoding, what)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// done returns the first error, or an error if bytes are left over.
func (r *reader) done(what string) error {
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %s has %d trailing bytes", ErrEncoding, what, len(r.b))
	}
	return nil
}

func appendElement(b []byte, e *Element) []byte { return e.AppendBytes(b) }
func appendScalar(b []byte, s *Scalar) []byte   { return ristretto.AppendScalar(b, s) }

// selectScalar returns bit ? a : b for bit in {0,1}, in constant time.
func selectScalar(bit int, a, b *Scalar) *Scalar {
	var ab, bb [32]byte
	ristretto.AppendScalar(ab[:0], a)
	ristretto.AppendScalar(bb[:0], b)
	mask := byte(-bit) // 0xff when bit == 1
	var out [32]byte
	for i := range out {
		out[i] = bb[i] ^ (mask & (ab[i] ^ bb[i]))
	}
	s := ristretto.NewScalar()
	if _, err := s.SetCanonicalBytes(out[:]); err != nil {
		panic("mental: selectScalar produced a non-canonical scalar")
	}
	return s
}

// bitScalar returns the scalar 0 or 1.
func bitScalar(bit int) *Scalar {
	var b [32]byte
	b[0] = byte(bit & 1)
	s := ristretto.NewScalar()
	if _, err := s.SetCanonicalBytes(b[:]); err != nil {
		panic("mental: bitScalar")
	}
	return s
}

type transcriptT = transcript.Transcript
