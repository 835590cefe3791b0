package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// MaxWidth is the largest number of ciphertexts that travel together as one
// card (SPEC.md §3.2). Mafia deals tuples of five: the role, the team
// before and after the Madman joins, the secret before and after
// (docs/mafia.md §2).
const MaxWidth = 5

// Ciphertext is an ElGamal pair (A, B) = (r·G, M + r·H) under a joint key H
// (SPEC.md §3.1). A face-up card is the trivial pair (0, M).
type Ciphertext struct {
	A, B *Element
	// enc caches the canonical encoding A||B, for the A and B it was
	// computed from: it saves the square root that every ristretto255
	// encoding costs when a card is absorbed into a transcript or sent
	// again. Elements are never modified in place; a ciphertext whose A
	// or B is replaced is encoded afresh (a transcript must never absorb
	// bytes of points other than the ones its equations use).
	enc *ctEncoding
}

type ctEncoding struct {
	a, b  *Element
	bytes [64]byte
}

// encoding returns A||B, computing it once.
func (ct *Ciphertext) encoding() *[64]byte {
	if ct.enc == nil || ct.enc.a != ct.A || ct.enc.b != ct.B {
		e := &ctEncoding{a: ct.A, b: ct.B}
		ct.A.AppendBytes(e.bytes[:0])
		ct.B.AppendBytes(e.bytes[32:32])
		ct.enc = e
	}
	return &ct.enc.bytes
}

// Card is a tuple of 1..MaxWidth ciphertexts that always move together.
type Card []Ciphertext

// FaceUp returns the trivially masked card holding the given points.
func FaceUp(points ...*Element) Card {
	c := make(Card, len(points))
	for i, m := range points {
		c[i] = Ciphertext{A: ristretto.NewIdentityElement(), B: ristretto.NewIdentityElement().Set(m)}
	}
	return c
}

// Width returns the number of ciphertexts in c.
func (c Card) Width() int { return len(c) }

// Clone returns a deep copy of c.
func (c Card) Clone() Card {
	out := make(Card, len(c))
	for i, ct := range c {
		out[i] = Ciphertext{A: ristretto.NewIdentityElement().Set(ct.A), B: ristretto.NewIdentityElement().Set(ct.B)}
	}
	return out
}

// Equal reports whether two cards are the same ciphertexts. Not constant
// time; ciphertexts are public.
func (c Card) Equal(d Card) bool {
	if len(c) != len(d) {
		return false
	}
	for i := range c {
		if c[i].A.Equal(d[i].A) != 1 || c[i].B.Equal(d[i].B) != 1 {
			return false
		}
	}
	return true
}

// Encrypt masks the points under the joint key with fresh randomness.
func (k *JointKey) Encrypt(points ...*Element) Card {
	c := FaceUp(points...)
	out, _ := k.remask(c, randomScalars(len(c)))
	return out
}

// Remask returns c re-randomised: (A + s·G, B + s·H) for fresh s per
// ciphertext, and the randomness used (SPEC.md §3.3). Constant time in s.
func (k *JointKey) Remask(c Card) (Card, []*Scalar) {
	s := randomScalars(len(c))
	return k.remask(c, s)
}

func (k *JointKey) remask(c Card, s []*Scalar) (Card, []*Scalar) {
	out := make(Card, len(c))
	for i, ct := range c {
		sG := ristretto.NewIdentityElement().ScalarBaseMult(s[i])
		sH := ristretto.NewIdentityElement().ScalarMult(s[i], k.H)
		out[i] = Ciphertext{A: sG.Add(sG, ct.A), B: sH.Add(sH, ct.B)}
	}
	return out, s
}

func randomScalars(n int) []*Scalar {
	s := make([]*Scalar, n)
	for i := range s {
		s[i] = randomScalar()
	}
	return s
}

// AppendBinary appends the canonical encoding of c: one width byte, then
// A||B per ciphertext (SPEC.md §6).
func (c Card) AppendBinary(b []byte) ([]byte, error) {
	if len(c) == 0 || len(c) > MaxWidth {
		return nil, fmt.Errorf("mental: card width %d, want 1..%d", len(c), MaxWidth)
	}
	b = append(b, byte(len(c)))
	for i := range c {
		b = append(b, c[i].encoding()[:]...)
	}
	return b, nil
}

// MarshalBinary returns the canonical encoding of c.
func (c Card) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// readCard reads one card from r.
func (r *reader) card(what string) Card {
	w := int(r.byte(what + " width"))
	if r.err != nil {
		return nil
	}
	if w == 0 || w > MaxWidth {
		r.err = fmt.Errorf("%w: %s width %d, want 1..%d", ErrEncoding, what, w, MaxWidth)
		return nil
	}
	c := make(Card, w)
	for i := range c {
		raw := r.b
		c[i].A = r.element(what + ".A")
		c[i].B = r.element(what + ".B")
		if r.err == nil {
			e := &ctEncoding{a: c[i].A, b: c[i].B}
			copy(e.bytes[:], raw[:64])
			c[i].enc = e
		}
	}
	if r.err != nil {
		return nil
	}
	return c
}

// UnmarshalCard decodes a card strictly.
func UnmarshalCard(b []byte) (Card, error) {
	r := &reader{b: b}
	c := r.card("card")
	if err := r.done("card"); err != nil {
		return nil, err
	}
	return c, nil
}

// Select returns the sub-tuple of c made of the components comps, in that
// order, sharing c's ciphertexts (SPEC.md §3.2). A private view of some
// components of a tuple card is a view of this sub-tuple: its encrypted
// shares and every statement about it are over the sub-tuple, and a
// component index in them counts within it. It rejects an empty or
// over-long list, an index out of range and a repeated index.
func (c Card) Select(comps ...int) (Card, error) {
	if len(comps) == 0 || len(comps) > len(c) {
		return nil, fmt.Errorf("mental: select: %d components of a width-%d card", len(comps), len(c))
	}
	out := make(Card, len(comps))
	for i, k := range comps {
		if k < 0 || k >= len(c) {
			return nil, fmt.Errorf("mental: select: component %d of a width-%d card", k, len(c))
		}
		for _, j := range comps[:i] {
			if j == k {
				return nil, fmt.Errorf("mental: select: component %d named twice", k)
			}
		}
		out[i] = c[k]
	}
	return out, nil
}
