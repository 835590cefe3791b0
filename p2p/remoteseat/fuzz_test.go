package remoteseat

import (
	"bytes"
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
)

// FuzzReceive: a forwarded seat fed arbitrary packets, and arbitrary
// inner frames sealed by another seat of its table (what a lying seat
// can send through the forwarder), drops what does not check, never
// panics, and sends packets to the table's seats only.
func FuzzReceive(f *testing.F) {
	var keys []ed25519.PrivateKey
	r := &ledger.Roster{TableID: [16]byte{5}, Game: "x"}
	for i := range 3 {
		priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, ed25519.SeedSize))
		keys = append(keys, priv)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: string(rune('a' + i)), PeerID: []byte{byte(i)}, SignKey: priv.Public().(ed25519.PublicKey)})
	}
	game, err := r.GameID()
	if err != nil {
		f.Fatal(err)
	}
	e := &ledger.Entry{Pos: 0, Seat: 1, Prev: game, Body: []byte("body")}
	e.Sign(game, keys[1])
	entry, _ := roomcore.EncodeEntry(e, ledger.Hash{4})
	for _, fr := range [][]byte{entry, roomcore.EncodeEcho(0, ledger.Hash{1}, ledger.Hash{2}), roomcore.EncodeDone(1, ledger.Hash{3}),
		roomcore.EncodeSyncReq(game, 0, 64), roomcore.EncodeSyncEnd(9)} {
		f.Add(fr, uint8(1), uint64(0))
		if raw, err := roomcore.Seal(keys[1], game, 1, 5, fr); err == nil {
			f.Add(raw, uint8(2), uint64(5))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, seat uint8, nonce uint64) {
		s, err := New(roomcore.Config{Roster: r, Self: 0, SignKey: keys[0], Replica: still{}, Tick: 50 * time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Unix(1e9, 0)
		s.Start(now)
		s.Receive(now, b)
		from := 1 + seat%2
		raw, err := roomcore.Seal(keys[from], game, from, nonce, b)
		if err != nil {
			return
		}
		o, _ := s.Receive(now.Add(time.Second), raw)
		for _, p := range o.Packets {
			if p.To != ToEvery && p.To > 2 {
				t.Fatalf("a packet to seat %d", p.To)
			}
		}
	})
}
