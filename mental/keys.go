package mental

import (
	"crypto/subtle"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Protocol labels (SPEC.md §2.1).
const (
	labelKey     = "masque/key-pok/v1"
	labelViewKey = "masque/view-key-pok/v1"
)

// SecretKey is one player's share x of the joint card key. Its methods run
// in constant time with respect to x.
type SecretKey struct {
	x   *Scalar
	pub *Element
}

// GenerateKey returns a fresh key from crypto/rand.
func GenerateKey() *SecretKey {
	x := randomScalar()
	return &SecretKey{x: x, pub: ristretto.NewIdentityElement().ScalarBaseMult(x)}
}

// Public returns X = x·G.
func (k *SecretKey) Public() *Element { return ristretto.NewIdentityElement().Set(k.pub) }

// Bytes returns the canonical encoding of x (for the player's state
// directory and for the optional end-of-game key publication).
func (k *SecretKey) Bytes() []byte { return ristretto.AppendScalar(nil, k.x) }

// Equal reports whether two secret keys are equal, in constant time.
func (k *SecretKey) Equal(o *SecretKey) bool {
	return subtle.ConstantTimeCompare(k.Bytes(), o.Bytes()) == 1
}

// SecretKeyFromBytes decodes a secret key. It rejects a non-canonical or
// zero scalar.
func SecretKeyFromBytes(b []byte) (*SecretKey, error) {
	x, err := decodeScalar(b)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if x.Equal(ristretto.NewScalar()) == 1 {
		return nil, fmt.Errorf("secret key: %w: zero", ErrEncoding)
	}
	return &SecretKey{x: x, pub: ristretto.NewIdentityElement().ScalarBaseMult(x)}, nil
}

// KeyContext is what a key's proof of knowledge is bound to: the table,
// the seat and the player's network identity (SPEC.md §3.4), so a proof
// copied from another table, seat or peer does not verify.
type KeyContext struct {
	Table    [32]byte
	Seat     uint32
	Identity []byte
}

// PublicKey is a player's public card key X with a Schnorr proof of
// knowledge of x. Only keys whose proofs verified enter a [JointKey].
type PublicKey struct {
	X     *Element
	proof *SigmaProof
}

func keyFormula(X *Element) *Formula {
	return Leaf(Statement{Witnesses: 1, Equations: []Equation{{
		Secret: []Term{{Witness: 0, Base: generator}},
		Public: []Term{{Base: X}},
	}}})
}

func (kc KeyContext) transcript(label string, X *Element) *transcriptT {
	t := Context{Table: kc.Table, Seat: kc.Seat}.transcript(label)
	t.Append("identity", kc.Identity)
	t.AppendElement("X", X)
	return t
}

// ProvePublic returns the public key with a proof of knowledge bound to
// kc, for use as a card key (a share of the joint key).
func (k *SecretKey) ProvePublic(kc KeyContext) *PublicKey { return k.prove(labelKey, kc) }

// ProveViewing returns the public key with a proof of knowledge bound to
// kc, for use as a viewing key: the key private views are encrypted to
// (SPEC.md §3.7). Its proof has its own label, so a card key's proof does
// not pass as a viewing key's, nor the reverse.
func (k *SecretKey) ProveViewing(kc KeyContext) *PublicKey { return k.prove(labelViewKey, kc) }

func (k *SecretKey) prove(label string, kc KeyContext) *PublicKey {
	f := keyFormula(k.pub)
	p, err := proveSigma(kc.transcript(label, k.pub), f, Assignment{Leaves: [][]*Scalar{{k.x}}})
	if err != nil {
		panic("mental: key proof: " + err.Error())
	}
	return &PublicKey{X: k.Public(), proof: p}
}

// Verify checks the proof of knowledge of a card key under kc, and rejects
// the identity element.
func (pk *PublicKey) Verify(kc KeyContext) error { return pk.verify(labelKey, "public key", kc) }

// VerifyViewing checks the proof of knowledge of a viewing key under kc,
// and rejects the identity element.
func (pk *PublicKey) VerifyViewing(kc KeyContext) error {
	return pk.verify(labelViewKey, "viewing key", kc)
}

func (pk *PublicKey) verify(label, what string, kc KeyContext) error {
	if isIdentity(pk.X) {
		return fmt.Errorf("%s of seat %d: identity element", what, kc.Seat)
	}
	if err := verifySigma(kc.transcript(label, pk.X), keyFormula(pk.X), pk.proof); err != nil {
		return fmt.Errorf("%s of seat %d: proof of knowledge: %w", what, kc.Seat, err)
	}
	return nil
}

// MarshalBinary encodes X || R || s (96 bytes).
func (pk *PublicKey) MarshalBinary() ([]byte, error) {
	b := appendElement(make([]byte, 0, 96), pk.X)
	return pk.proof.AppendBinary(b), nil
}

// UnmarshalPublicKey decodes a public key with its proof strictly. It does
// not verify the proof; call Verify.
func UnmarshalPublicKey(b []byte) (*PublicKey, error) {
	r := &reader{b: b}
	X := r.element("public key")
	if r.err != nil {
		return nil, r.err
	}
	p := r.sigma(keyFormula(X), "key proof")
	if err := r.done("public key"); err != nil {
		return nil, err
	}
	return &PublicKey{X: X, proof: p}, nil
}

// JointKey is H = Σ X_i over every seat's verified public key (SPEC.md §3.4).
// H and Keys must not be changed once the key is in use.
type JointKey struct {
	H    *Element
	Keys []*Element // X_i by seat

	hEnc []byte // H's encoding, cached by NewJointKey (every proof absorbs it)
}

// hBytes returns the encoding of H.
func (k *JointKey) hBytes() []byte {
	if k.hEnc != nil {
		return k.hEnc
	}
	return k.H.AppendBytes(nil)
}

// NewJointKey verifies every key's proof (keys[i] under contexts[i]) and
// returns the joint key. It rejects the identity, duplicate keys and a
// joint key equal to the identity.
func NewJointKey(keys []*PublicKey, contexts []KeyContext) (*JointKey, error) {
	if len(keys) == 0 || len(keys) != len(contexts) {
		return nil, fmt.Errorf("mental: joint key needs one context per key (%d keys, %d contexts)", len(keys), len(contexts))
	}
	jk := &JointKey{H: ristretto.NewIdentityElement()}
	for i, k := range keys {
		if err := k.Verify(contexts[i]); err != nil {
			return nil, err
		}
		for j := range i {
			if keys[j].X.Equal(k.X) == 1 {
				return nil, fmt.Errorf("mental: seats %d and %d have the same public key", j, i)
			}
		}
		jk.H.Add(jk.H, k.X)
		jk.Keys = append(jk.Keys, ristretto.NewIdentityElement().Set(k.X))
	}
	if isIdentity(jk.H) {
		return nil, fmt.Errorf("mental: joint key is the identity")
	}
	jk.hEnc = jk.H.AppendBytes(nil)
	return jk, nil
}
