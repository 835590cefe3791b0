package ledger_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// The eight small-order points of edwards25519, canonically encoded, and
// non-canonical encodings of points (y >= p; x = 0 with the sign bit set).
var weakKeys = map[string]string{
	"identity (order 1)":             "0100000000000000000000000000000000000000000000000000000000000000",
	"order 2 (0, -1)":                "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"order 4 (i, 0)":                 "0000000000000000000000000000000000000000000000000000000000000000",
	"order 4 (-i, 0)":                "0000000000000000000000000000000000000000000000000000000000000080",
	"order 8 (a)":                    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
	"order 8 (b)":                    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
	"order 8 (c)":                    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
	"order 8 (d)":                    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
	"identity, y = p+1":              "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"order 2, y = 2p-1 (y >= p)":     "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
	"identity with the sign bit set": "0100000000000000000000000000000000000000000000000000000000000080",
	"not a point":                    "0200000000000000000000000000000000000000000000000000000000000000",
}

func TestCheckSigningKey(t *testing.T) {
	for name, h := range weakKeys {
		k, _ := hex.DecodeString(h)
		if err := ledger.CheckSigningKey(k); !errors.Is(err, ledger.ErrWeakSigningKey) {
			t.Errorf("%s: %v, want ErrWeakSigningKey", name, err)
		}
	}
	for i := range 50 {
		seed := make([]byte, ed25519.SeedSize)
		seed[0], seed[1] = byte(i), 7
		if err := ledger.CheckSigningKey(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)); err != nil {
			t.Fatalf("an honest key refused: %v", err)
		}
	}
	if err := ledger.CheckSigningKey(make([]byte, 31)); !errors.Is(err, ledger.ErrWeakSigningKey) {
		t.Errorf("31 bytes: %v", err)
	}
}

// The attack: a seat whose signing key is the identity point. Under it
// ed25519.Verify accepts the signature R = identity, s = 0 for every
// message, so anyone could write that seat's entries. Such a roster is
// refused by both the encoder and the decoder, and no entry verifies
// under such a key.
func TestWeakSigningKeyRefused(t *testing.T) {
	weak, _ := hex.DecodeString(weakKeys["identity (order 1)"])
	forged := make([]byte, ed25519.SignatureSize)
	forged[0] = 1 // R = the identity, s = 0
	// The attack works against bare ed25519.Verify: two different messages.
	if !ed25519.Verify(weak, []byte("entry 1"), forged) || !ed25519.Verify(weak, []byte("entry 2"), forged) {
		t.Skip("this Go's ed25519.Verify refuses the small-order key: the attack does not apply")
	}
	honest := func(b byte) ed25519.PublicKey {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = b
		return ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	}
	r := &ledger.Roster{Game: "mascarade", Seats: []ledger.SeatInfo{
		{Name: "ann", PeerID: []byte("p0"), SignKey: honest(1)},
		{Name: "mallory", PeerID: []byte("p1"), SignKey: honest(2)},
	}}
	enc, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r.Seats[1].SignKey = weak
	if _, err := r.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "seat 1: signing key") {
		t.Errorf("MarshalBinary with a weak key: %v", err)
	}
	if _, err := r.GameID(); err == nil {
		t.Error("a roster with a weak key has a game id")
	}
	// The same roster as bytes: the decoder refuses it too.
	good := string(honest(2))
	i := strings.Index(string(enc), good)
	if i < 0 {
		t.Fatal("the key is not in the encoding")
	}
	bad := []byte(string(enc[:i]) + string(weak) + string(enc[i+len(good):]))
	if _, err := ledger.UnmarshalRoster(bad); !errors.Is(err, ledger.ErrWeakSigningKey) {
		t.Errorf("UnmarshalRoster with a weak key: %v", err)
	}
	// An entry "signed" with the forged signature does not verify.
	e := &ledger.Entry{Pos: 3, Seat: 1, Body: []byte{1, 2, 3}}
	copy(e.Sig[:], forged)
	if err := e.VerifySignature(ledger.Hash{}, weak); err == nil {
		t.Error("an entry verifies under the small-order key")
	}
}
