package phoneseat

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/lobby"
)

// TestTableCode: the phone's join code of a table is package lobby's.
func TestTableCode(t *testing.T) {
	for range 50 {
		var id [16]byte
		rand.Read(id[:])
		pub, _, _ := ed25519.GenerateKey(nil)
		want, err := lobby.ParseCode(lobby.Code(id, peer.ID(PeerID(pub))))
		if err != nil {
			t.Fatal(err)
		}
		if got := tableCode(id, PeerID(pub)); got != normalCode(want) {
			t.Fatalf("table %x: code %s, lobby's %s", id, got, want)
		}
	}
}

// TestOfferCode: the serving machine tells the phone which table to
// join (its id, in the "table" message) and carries the roster: a
// forwarder that steers the phone to another table than the one whose
// join code the page's address names (printed beside its QR code, as the
// host prints it) gets no signature. The first version signed any table
// the server named: a forwarder could seat its phones at a table of its
// own (its own seats around them) while their players believed they sat
// at their friends'. A page whose address carries the key but no code
// (a cut or hand-made link) signs no roster at all: it could not tell
// its table from another (the second version signed any).
func TestOfferCode(t *testing.T) {
	now := time.Now()
	friends, elsewhere := [16]byte{1}, [16]byte{2}
	pub, _, _ := ed25519.GenerateKey(nil)
	mallory, _, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	code := lobby.Code(friends, peer.ID(PeerID(pub)))
	for _, c := range []struct {
		name    string
		id      [16]byte
		creator ed25519.PublicKey
		code    string
		want    string
	}{
		{"the table the address names", friends, pub, code, ""},
		{"the same, the code as typed", friends, pub, strings.ToLower(code), ""},
		{"another table id", elsewhere, pub, code, "not of the table"},
		{"the same table id, another creator", friends, mallory, code, "not of the table"},
		{"no code in the address, another table", elsewhere, mallory, "", "names no table's code"},
		{"no code in the address, the table itself", friends, pub, "", "names no table's code"},
	} {
		p, _, err := New("mila", Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.SetCode(c.code)
		if _, err := p.OnControl(now, Control{T: "table", ID: c.id[:], Seat: 1}); err != nil {
			t.Fatal(err)
		}
		r := &ledger.Roster{TableID: c.id, Game: mascarade.GameName, Seats: []ledger.SeatInfo{
			{Name: "alice", PeerID: PeerID(c.creator), SignKey: c.creator, Keys: host.PublicKeys(c.id, 0, PeerID(c.creator))},
			{Name: "mila", PeerID: PeerID(p.Key()), SignKey: p.Key(), Keys: p.secrets.PublicKeys(c.id, 1, PeerID(p.Key()))},
		}}
		enc, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		eff, err := p.OnControl(now, Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}})
		switch {
		case c.want == "" && (err != nil || len(eff.Control) != 1 || eff.Control[0].T != "sign"):
			t.Errorf("%s: %v, want a signature", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || len(eff.Control) != 0):
			t.Errorf("%s: %v (%d messages), want a refusal about %q and nothing signed", c.name, err, len(eff.Control), c.want)
		}
	}
}
