package mental

import (
	"errors"
	"testing"
)

func TestKeyProof(t *testing.T) {
	k := GenerateKey()
	kc := KeyContext{Table: [32]byte{1}, Seat: 2, Identity: []byte("peer-a")}
	pk := k.ProvePublic(kc)
	if err := pk.Verify(kc); err != nil {
		t.Fatalf("honest key proof rejected: %v", err)
	}
	enc, _ := pk.MarshalBinary()
	pk2, err := UnmarshalPublicKey(enc)
	if err != nil {
		t.Fatal(err)
	}
	if err := pk2.Verify(kc); err != nil {
		t.Fatalf("decoded key proof rejected: %v", err)
	}
	for name, other := range map[string]KeyContext{
		"table":    {Table: [32]byte{2}, Seat: 2, Identity: []byte("peer-a")},
		"seat":     {Table: [32]byte{1}, Seat: 3, Identity: []byte("peer-a")},
		"identity": {Table: [32]byte{1}, Seat: 2, Identity: []byte("peer-b")},
	} {
		if err := pk.Verify(other); !errors.Is(err, ErrProof) {
			t.Errorf("proof replayed under another %s: got %v, want ErrProof", name, err)
		}
	}
}

// A viewing key's proof and a card key's proof have different labels: one
// does not pass as the other, so a seat cannot present its card key (which
// a table may publish) as the key its private views are encrypted to
// without the roster saying so, nor copy another seat's card key proof.
func TestViewingKeyProof(t *testing.T) {
	k := GenerateKey()
	kc := KeyContext{Table: [32]byte{1}, Seat: 2, Identity: []byte("peer-a")}
	view, card := k.ProveViewing(kc), k.ProvePublic(kc)
	if err := view.VerifyViewing(kc); err != nil {
		t.Fatalf("honest viewing key proof rejected: %v", err)
	}
	if err := view.Verify(kc); !errors.Is(err, ErrProof) {
		t.Errorf("a viewing key proof passes as a card key proof: %v", err)
	}
	if err := card.VerifyViewing(kc); !errors.Is(err, ErrProof) {
		t.Errorf("a card key proof passes as a viewing key proof: %v", err)
	}
	for name, other := range map[string]KeyContext{
		"table":    {Table: [32]byte{2}, Seat: 2, Identity: []byte("peer-a")},
		"seat":     {Table: [32]byte{1}, Seat: 3, Identity: []byte("peer-a")},
		"identity": {Table: [32]byte{1}, Seat: 2, Identity: []byte("peer-b")},
	} {
		if err := view.VerifyViewing(other); !errors.Is(err, ErrProof) {
			t.Errorf("viewing key proof replayed under another %s: got %v, want ErrProof", name, err)
		}
	}
}
