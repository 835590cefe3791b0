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
