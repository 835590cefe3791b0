package grimmview

import "testing"

// No two of a seat's sealed choices share a nonce: an opened commitment
// publishes its nonce, which must not give the seat's next one away (a
// second Eavesdrop in the round, with one hint token fewer). The same
// salt, seat, round and tokens give the same nonce (the opening after a
// restart).
func TestSealNonceDistinct(t *testing.T) {
	salt := [32]byte{7}
	a := sealNonce(salt, 1, 2, 7)
	if a != sealNonce(salt, 1, 2, 7) {
		t.Fatal("the nonce is not a function of its inputs")
	}
	for _, b := range [][16]byte{sealNonce(salt, 1, 2, 6), sealNonce(salt, 1, 3, 7), sealNonce(salt, 2, 2, 7), sealNonce([32]byte{8}, 1, 2, 7)} {
		if a == b {
			t.Errorf("two sealed choices share the nonce %x", a)
		}
	}
}
