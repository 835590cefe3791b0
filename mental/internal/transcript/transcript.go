// Package transcript is the single Fiat–Shamir transcript used by every
// proof in package mental (SPEC.md §2).
//
// It has the shape of gtank/merlin, built on SHA-512 instead of STROBE:
// every absorbed item is framed as
//
//	len(label) (u32 BE) || label || len(data) (u32 BE) || data
//
// so no two different sequences of items can produce the same hash input.
// A challenge absorbs its own label, then reads SHA-512 of everything so far
// (64 bytes, reduced to a scalar with ristretto255's uniform mapping, which
// has negligible bias). The running state is never reset, so later
// challenges depend on earlier ones.
package transcript

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"hash"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Domain is absorbed first by every transcript: it separates masque's
// proofs from every other use of SHA-512.
const Domain = "masque/mental/v1"

// Transcript is a Fiat–Shamir transcript. The zero value is not usable;
// call New.
//
// Items are framed into a buffer inside the transcript. A transcript whose
// items fit in it (most proofs') never makes a SHA-512 state: each
// challenge is SHA-512 of the buffered bytes, computed on the stack. Once
// the items outgrow the buffer, a SHA-512 state takes it whenever it is
// full (whole blocks) and each challenge reads that state. Either way the
// hash input is the same byte string as writing each item directly, and
// callers' data is only copied, never handed to the hash.Hash interface
// (where it would escape to the heap).
type Transcript struct {
	h      hash.Hash // nil while every item so far is in buf
	n      int       // bytes in buf
	buf    [bufSize]byte
	digest [sha512.Size]byte // scratch for ChallengeScalar
}

// bufSize is the buffer's size: a whole number of SHA-512 blocks, and
// more than most proofs' transcripts.
const bufSize = 8 * sha512.BlockSize

// New starts a transcript for one protocol: it absorbs the domain and the
// protocol label (SPEC.md §2.1 lists the labels).
func New(protocol string) *Transcript {
	t := new(Transcript)
	t.Append("dom-sep", []byte(Domain))
	t.Append("protocol", []byte(protocol))
	return t
}

// flush hands the buffered bytes to the SHA-512 state, making it first.
func (t *Transcript) flush() {
	if t.h == nil {
		t.h = sha512.New()
	}
	t.h.Write(t.buf[:t.n])
	t.n = 0
}

// write absorbs p unframed, through the buffer.
func write[S ~string | ~[]byte](t *Transcript, p S) {
	for len(p) > 0 {
		if t.n == bufSize {
			t.flush()
		}
		k := copy(t.buf[t.n:], p)
		t.n += k
		p = p[k:]
	}
}

// Clone returns an independent copy of t.
func (t *Transcript) Clone() *Transcript {
	c := new(Transcript)
	if t.h != nil {
		t.flush()
		state, err := t.h.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
		if err != nil {
			panic("transcript: sha512 state cannot be cloned: " + err.Error())
		}
		c.h = sha512.New()
		if err := c.h.(interface{ UnmarshalBinary([]byte) error }).UnmarshalBinary(state); err != nil {
			panic("transcript: sha512 state cannot be restored: " + err.Error())
		}
		return c
	}
	c.n = copy(c.buf[:], t.buf[:t.n])
	return c
}

// Append absorbs one framed item.
func (t *Transcript) Append(label string, data []byte) {
	if k := t.n; k+8+len(label)+len(data) <= bufSize {
		// The whole item fits: frame it in place.
		binary.BigEndian.PutUint32(t.buf[k:], uint32(len(label)))
		k += 4 + copy(t.buf[k+4:], label)
		binary.BigEndian.PutUint32(t.buf[k:], uint32(len(data)))
		t.n = k + 4 + copy(t.buf[k+4:], data)
		return
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(label)))
	write(t, n[:])
	write(t, label)
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	write(t, n[:])
	write(t, data)
}

// AppendUint64 absorbs an integer as 8 big-endian bytes.
func (t *Transcript) AppendUint64(label string, v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	t.Append(label, b[:])
}

// AppendElement absorbs the canonical encoding of a group element.
func (t *Transcript) AppendElement(label string, e *ristretto.Element) {
	var b [32]byte
	t.Append(label, e.AppendBytes(b[:0]))
}

// AppendElements absorbs a count and then each element.
func (t *Transcript) AppendElements(label string, es []*ristretto.Element) {
	t.AppendUint64(label+"/n", uint64(len(es)))
	var b [32]byte
	for _, e := range es {
		t.Append(label, e.AppendBytes(b[:0]))
	}
}

// AppendScalar absorbs the canonical encoding of a scalar.
func (t *Transcript) AppendScalar(label string, s *ristretto.Scalar) {
	var b [32]byte
	t.Append(label, ristretto.AppendScalar(b[:0], s))
}

// ChallengeBytes absorbs label and returns 64 bytes derived from the whole
// transcript so far.
func (t *Transcript) ChallengeBytes(label string) []byte {
	return t.challenge(label, nil)
}

// challenge absorbs label and appends the 64-byte digest to out.
func (t *Transcript) challenge(label string, out []byte) []byte {
	t.Append("challenge", []byte(label))
	if t.h == nil {
		// Everything so far is in the buffer, which stays: later items
		// follow it, and a later challenge hashes it again.
		sum := sha512.Sum512(t.buf[:t.n])
		return append(out, sum[:]...)
	}
	t.flush()
	return t.h.Sum(out)
}

// ChallengeScalar absorbs label and returns a scalar derived from the whole
// transcript so far.
func (t *Transcript) ChallengeScalar(label string) *ristretto.Scalar {
	// The digest goes into the transcript's own scratch space: a stack
	// array would escape through the hash.Hash interface.
	return ristretto.UniformScalar(t.challenge(label, t.digest[:0]))
}

// NonceSource derives hedged nonces (SPEC.md §2.3): each nonce is
// SHA-512(label || transcript state || secrets || 32 fresh bytes from
// crypto/rand || counter). A broken random generator alone cannot leak a
// secret (the nonce still depends on the secret and the statement), and a
// fault that repeats the transcript alone cannot either (fresh bytes differ).
type NonceSource struct {
	seed [64]byte
	ctr  uint64
}

// Nonces returns a NonceSource bound to the transcript's current state and
// to the prover's secrets (their canonical encodings). It does not change t.
func (t *Transcript) Nonces(secrets ...*ristretto.Scalar) *NonceSource {
	c := t.Clone()
	var buf [32]byte
	for _, s := range secrets {
		c.Append("witness", ristretto.AppendScalar(buf[:0], s))
	}
	var fresh [32]byte
	if _, err := rand.Read(fresh[:]); err != nil {
		panic("transcript: crypto/rand failed: " + err.Error())
	}
	c.Append("rng", fresh[:])
	ns := &NonceSource{}
	copy(ns.seed[:], c.ChallengeBytes("nonce-seed"))
	return ns
}

// Scalar returns the next nonce.
func (ns *NonceSource) Scalar() *ristretto.Scalar {
	h := sha512.New()
	h.Write([]byte("masque/mental/v1/nonce"))
	h.Write(ns.seed[:])
	var c [8]byte
	binary.BigEndian.PutUint64(c[:], ns.ctr)
	ns.ctr++
	h.Write(c[:])
	return ristretto.UniformScalar(h.Sum(nil))
}
