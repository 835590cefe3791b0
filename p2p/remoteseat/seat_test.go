package remoteseat

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
)

// still is a replica with no entries to come but one from seat 1.
type still struct{}

func (still) Next() (uint64, uint8, bool) { return 0, 1, true }
func (still) Apply(*ledger.Entry) error   { return nil }
func (still) StateHash() ledger.Hash      { return ledger.Hash{} }

// TestSyncEndNeedsItsNonce: a sync answer's end (the server's log length
// as of the request) is taken only with the nonce of the request in
// flight to that seat: a forwarder replaying an old one, or one sealed
// for another request, changes nothing.
func TestSyncEndNeedsItsNonce(t *testing.T) {
	var keys []ed25519.PrivateKey
	r := &ledger.Roster{TableID: [16]byte{5}, Game: "x"}
	for i := range 2 {
		pub, priv, _ := ed25519.GenerateKey(nil)
		keys = append(keys, priv)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: string(rune('a' + i)), PeerID: []byte{byte(i)}, SignKey: pub})
	}
	// A seat that signed before asks every seat for its log at the start
	// (a fresh one asks nobody: the others' frames bring what it lacks).
	s, err := New(roomcore.Config{Roster: r, Self: 0, SignKey: keys[0], Replica: still{}, Tick: 50 * time.Millisecond, Signed: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	o := s.Start(now)
	var nonce uint64
	for _, p := range o.Packets {
		sd, m, err := roomcore.OpenSealed(p.Sealed, s.game, s.keys)
		if err == nil && m.Type == roomcore.MsgSyncReq && p.To == 1 {
			nonce = sd.Nonce
		}
	}
	if nonce == 0 {
		t.Fatal("no sealed sync request to seat 1 at the start")
	}
	end := func(n uint64) []byte {
		b, err := roomcore.Seal(keys[1], s.game, 1, n, roomcore.EncodeSyncEnd(0))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, n := range []uint64{0, nonce ^ 2, nonce + 1} {
		if _, err := s.Receive(now, end(n)); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.asks[1]; !ok {
			t.Fatalf("a sync end with nonce %x (the request's is %x) was taken", n, nonce)
		}
	}
	if _, err := s.Receive(now, end(nonce)); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.asks[1]; ok {
		t.Fatal("the request's own sync end was not taken")
	}
	// Taken once: the same end again is a replay.
	if _, err := s.Receive(now, end(nonce)); err != nil {
		t.Fatal(err)
	}
}
