package phoneseat

import (
	"bytes"
	"testing"

	"github.com/masque-games/masque/p2p/identity"
)

// TestPeerID: the phone's peer id, written without libp2p, is the one
// libp2p makes of its key (the roster checks they match).
func TestPeerID(t *testing.T) {
	for range 5 {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if got := PeerID(id.PublicKey()); !bytes.Equal(got, []byte(id.PeerID())) {
			t.Fatalf("PeerID = %x, libp2p says %x", got, []byte(id.PeerID()))
		}
	}
}
