package ledger

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"

	"filippo.io/edwards25519"
)

// ErrWeakSigningKey is wrapped by CheckSigningKey's errors.
var ErrWeakSigningKey = errors.New("weak signing key")

// CheckSigningKey rejects an Ed25519 public key that is not the canonical
// encoding of a point of the curve, or whose point has small order ([8]P is
// the identity: the identity itself and the 7 other points of order 2, 4
// or 8). Under a small-order key Go's ed25519.Verify accepts one signature
// for every message, so anyone could sign as that seat. Every signing key
// read from a roster, a join request or a file goes through it.
func CheckSigningKey(key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes, want %d", ErrWeakSigningKey, len(key), ed25519.PublicKeySize)
	}
	p, err := new(edwards25519.Point).SetBytes(key)
	if err != nil {
		return fmt.Errorf("%w: not a point of the curve", ErrWeakSigningKey)
	}
	// SetBytes accepts non-canonical encodings (y >= p, or x = 0 with the
	// sign bit set); the canonical one is the point's own encoding.
	if !bytes.Equal(p.Bytes(), key) {
		return fmt.Errorf("%w: not the canonical encoding of its point", ErrWeakSigningKey)
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return fmt.Errorf("%w: a point of small order", ErrWeakSigningKey)
	}
	return nil
}
