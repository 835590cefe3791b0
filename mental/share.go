package mental

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

const (
	labelShare    = "masque/share/v1"
	labelEncShare = "masque/enc-share/v1"
)

// Share is one player's decryption share of a card: D_i = x·A_i for every
// component, with a Chaum–Pedersen proof that log_G X = log_{A_i} D_i
// (SPEC.md §3.6).
type Share struct {
	D     []*Element
	proof *SigmaProof
	known encodings // D's encodings, when made or decoded from bytes
}

func shareStatement(ctx Context, X *Element, c Card, D []*Element, known ...encodings) (*transcriptT, *Formula) {
	t := ctx.transcript(labelShare)
	absorbElement(t, "X", X, known...)
	absorbCard(t, "card", c)
	absorbElements(t, "D", D, known...)
	eqs := []Equation{{
		Secret: []Term{{Witness: 0, Base: generator}},
		Public: []Term{{Base: X}},
	}}
	for i, ct := range c {
		eqs = append(eqs, Equation{Secret: []Term{{Witness: 0, Base: ct.A}}, Public: []Term{{Base: D[i]}}})
	}
	return t, Leaf(Statement{Witnesses: 1, Equations: eqs})
}

// Share returns this player's decryption share of c with its proof, bound
// to ctx. Constant time in the secret key.
func (k *SecretKey) Share(ctx Context, c Card) (*Share, error) {
	if len(c) == 0 || len(c) > MaxWidth {
		return nil, fmt.Errorf("mental: share: card width %d", len(c))
	}
	D := make([]*Element, len(c))
	for i, ct := range c {
		D[i] = ristretto.NewIdentityElement().ScalarMult(k.x, ct.A)
	}
	known := make(encodings, len(D)) // encoded once: absorbed now, sent and checked later
	for _, d := range D {
		known.keep(d)
	}
	t, f := shareStatement(ctx, k.pub, c, D, known)
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{{k.x}}})
	if err != nil {
		return nil, fmt.Errorf("mental: share proof: %w", err)
	}
	return &Share{D: D, proof: p, known: known}, nil
}

func shareChecks(ctx Context, X *Element, c Card, s *Share, keys encodings) ([]equationCheck, []byte, error) {
	if s == nil || s.proof == nil || len(s.D) != len(c) || len(c) == 0 || len(c) > MaxWidth {
		return nil, nil, fmt.Errorf("%w: share does not match the card's width", ErrProof)
	}
	t, f := shareStatement(ctx, X, c, s.D, s.known, keys)
	return sigmaChecks(t, f, s.proof)
}

// VerifyShare checks that s is the decryption share of c for the player
// whose public key is X, made under ctx.
func VerifyShare(ctx Context, X *Element, c Card, s *Share) error {
	checks, seed, err := shareChecks(ctx, X, c, s, nil)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("share: %w", ErrProof)
	}
	return nil
}

// MarshalBinary encodes width || D_1..D_w || proof (SPEC.md §6).
func (s *Share) MarshalBinary() ([]byte, error) {
	b := []byte{byte(len(s.D))}
	for _, d := range s.D {
		b = append(b, encodingOf(d, s.known)...)
	}
	return s.proof.AppendBinary(b), nil
}

// UnmarshalShare decodes a share strictly.
func UnmarshalShare(b []byte) (*Share, error) {
	r := &reader{b: b, known: encodings{}}
	w := int(r.byte("share width"))
	if r.err == nil && (w == 0 || w > MaxWidth) {
		return nil, fmt.Errorf("%w: share width %d", ErrEncoding, w)
	}
	s := &Share{}
	for range w {
		s.D = append(s.D, r.element("share D"))
	}
	shape := Leaf(Statement{Witnesses: 1, Equations: make([]Equation, w+1)})
	s.proof = r.sigma(shape, "share proof")
	if err := r.done("share"); err != nil {
		return nil, err
	}
	s.known = r.known
	return s, nil
}

// Open combines decryption shares into the card's points: M_i = B_i - Σ D_i
// (public reveal: every seat's share).
func Open(c Card, shares [][]*Element) ([]*Element, error) {
	out := make([]*Element, len(c))
	for i, ct := range c {
		m := ristretto.NewIdentityElement().Set(ct.B)
		for j, d := range shares {
			if len(d) != len(c) {
				return nil, fmt.Errorf("mental: open: share %d has width %d, card %d", j, len(d), len(c))
			}
			m.Subtract(m, d[i])
		}
		out[i] = m
	}
	return out, nil
}

// Peek opens c for its viewer: the other seats' public shares plus the
// viewer's own share, computed locally and never published.
func (k *SecretKey) Peek(c Card, others [][]*Element) ([]*Element, error) {
	own := make([]*Element, len(c))
	for i, ct := range c {
		own[i] = ristretto.NewIdentityElement().ScalarMult(k.x, ct.A)
	}
	return Open(c, append(append([][]*Element{}, others...), own))
}

// Catalogue maps card points back to card kinds.
type Catalogue struct {
	byPoint map[[32]byte]int
}

// NewCatalogue returns a lookup table for card kinds 0..n-1.
func NewCatalogue(n int) *Catalogue {
	c := &Catalogue{byPoint: make(map[[32]byte]int, n)}
	for k := range n {
		var key [32]byte
		CardPoint(k).AppendBytes(key[:0])
		c.byPoint[key] = k
	}
	return c
}

// Kind returns the card kind of point m, or false if m encodes no kind.
func (c *Catalogue) Kind(m *Element) (int, bool) {
	var key [32]byte
	m.AppendBytes(key[:0])
	k, ok := c.byPoint[key]
	return k, ok
}

// EncryptedShare is a decryption share encrypted to one recipient's public
// key, with a proof that it encrypts the right share (SPEC.md §3.7): for
// each component, (E1, E2) = (t·G, x·A + t·Y) where Y is the recipient's
// key. Anyone can verify it; only the recipient can read it.
type EncryptedShare struct {
	E1, E2 []*Element
	proof  *SigmaProof
	known  encodings // E1's and E2's encodings, when made or decoded from bytes
}

func encShareStatement(ctx Context, X, Y *Element, c Card, E1, E2 []*Element, known ...encodings) (*transcriptT, *Formula) {
	t := ctx.transcript(labelEncShare)
	absorbElement(t, "X", X, known...)
	absorbElement(t, "Y", Y, known...)
	absorbCard(t, "card", c)
	absorbElements(t, "E1", E1, known...)
	absorbElements(t, "E2", E2, known...)
	G := generator
	eqs := []Equation{{Secret: []Term{{Witness: 0, Base: G}}, Public: []Term{{Base: X}}}}
	for i, ct := range c {
		eqs = append(eqs,
			Equation{Secret: []Term{{Witness: 1 + i, Base: G}}, Public: []Term{{Base: E1[i]}}},
			Equation{Secret: []Term{{Witness: 0, Base: ct.A}, {Witness: 1 + i, Base: Y}}, Public: []Term{{Base: E2[i]}}})
	}
	return t, Leaf(Statement{Witnesses: 1 + len(c), Equations: eqs})
}

// EncryptShare returns this player's share of c encrypted to recipient Y.
func (k *SecretKey) EncryptShare(ctx Context, c Card, Y *Element) (*EncryptedShare, error) {
	if len(c) == 0 || len(c) > MaxWidth {
		return nil, fmt.Errorf("mental: encrypted share: card width %d", len(c))
	}
	ts := randomScalars(len(c))
	es := &EncryptedShare{}
	for i, ct := range c {
		es.E1 = append(es.E1, ristretto.NewIdentityElement().ScalarBaseMult(ts[i]))
		es.E2 = append(es.E2, ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{k.x, ts[i]}, []*Element{ct.A, Y}))
	}
	// Encoded once: absorbed now, sent, and absorbed again by every
	// statement about the recipient's view (ballots, checks, not-held).
	es.known = make(encodings, 2*len(c))
	for i := range es.E1 {
		es.known.keep(es.E1[i])
		es.known.keep(es.E2[i])
	}
	t, f := encShareStatement(ctx, k.pub, Y, c, es.E1, es.E2, es.known)
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{append([]*Scalar{k.x}, ts...)}})
	if err != nil {
		return nil, fmt.Errorf("mental: encrypted share proof: %w", err)
	}
	es.proof = p
	return es, nil
}

func encShareChecks(ctx Context, X, Y *Element, c Card, es *EncryptedShare, keys encodings) ([]equationCheck, []byte, error) {
	if es == nil || es.proof == nil || len(es.E1) != len(c) || len(es.E2) != len(c) || len(c) == 0 || len(c) > MaxWidth {
		return nil, nil, fmt.Errorf("%w: encrypted share does not match the card's width", ErrProof)
	}
	t, f := encShareStatement(ctx, X, Y, c, es.E1, es.E2, es.known, keys)
	return sigmaChecks(t, f, es.proof)
}

// VerifyEncryptedShare checks that es encrypts, to Y, the decryption share
// of c of the player whose key is X.
func VerifyEncryptedShare(ctx Context, X, Y *Element, c Card, es *EncryptedShare) error {
	checks, seed, err := encShareChecks(ctx, X, Y, c, es, nil)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("encrypted share: %w", ErrProof)
	}
	return nil
}

// Decrypt returns the share inside es, for its recipient: D = E2 - y·E1.
func (k *SecretKey) Decrypt(es *EncryptedShare) []*Element {
	out := make([]*Element, len(es.E1))
	for i := range es.E1 {
		yE := ristretto.NewIdentityElement().ScalarMult(k.x, es.E1[i])
		out[i] = yE.Subtract(es.E2[i], yE)
	}
	return out
}

// WithoutProof returns es's ciphertexts and their kept encodings without
// its proof: what a table keeps of a share once the proof is checked (the
// recipient decrypts E1 and E2; a statement about the card absorbs their
// encodings), at about a third of the memory. The result verifies as
// nothing and does not marshal.
func (es *EncryptedShare) WithoutProof() *EncryptedShare {
	if es == nil {
		return nil
	}
	out := &EncryptedShare{E1: es.E1, E2: es.E2}
	if es.known != nil {
		// Only E1's and E2's encodings: the decoder's cache holds the
		// proof's points too.
		out.known = make(encodings, len(es.E1)+len(es.E2))
		for _, e := range slices.Concat(es.E1, es.E2) {
			if b, ok := es.known[e]; ok {
				out.known[e] = b
			}
		}
	}
	return out
}

// MarshalBinary encodes width || (E1_i || E2_i)... || proof.
func (es *EncryptedShare) MarshalBinary() ([]byte, error) {
	if es == nil || es.proof == nil {
		return nil, fmt.Errorf("mental: encrypted share has no proof")
	}
	b := []byte{byte(len(es.E1))}
	for i := range es.E1 {
		b = append(b, encodingOf(es.E1[i], es.known)...)
		b = append(b, encodingOf(es.E2[i], es.known)...)
	}
	return es.proof.AppendBinary(b), nil
}

// UnmarshalEncryptedShare decodes an encrypted share strictly.
func UnmarshalEncryptedShare(b []byte) (*EncryptedShare, error) {
	r := &reader{b: b, known: encodings{}}
	w := int(r.byte("encrypted share width"))
	if r.err == nil && (w == 0 || w > MaxWidth) {
		return nil, fmt.Errorf("%w: encrypted share width %d", ErrEncoding, w)
	}
	es := &EncryptedShare{}
	for range w {
		es.E1 = append(es.E1, r.element("E1"))
		es.E2 = append(es.E2, r.element("E2"))
	}
	shape := Leaf(Statement{Witnesses: 1 + w, Equations: make([]Equation, 1+2*w)})
	es.proof = r.sigma(shape, "encrypted share proof")
	if err := r.done("encrypted share"); err != nil {
		return nil, err
	}
	es.known = r.known
	return es, nil
}
