package p2p

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// A state directory whose log was changed after the fact (not torn: each
// record whole, with a good checksum) is refused when the room opens on
// it: the stored entries are replayed with their signatures, chain, turn
// and rules checked again. The honest log opens.
func TestTamperedStoreRefused(t *testing.T) {
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	sign := func(pos uint64, seat uint8, prev ledger.Hash, b []byte) *ledger.Entry {
		e := &ledger.Entry{Pos: pos, Seat: seat, Prev: prev, Body: b}
		e.Sign(game, ps[seat].id.SigningKey())
		return e
	}
	honest := func() []*ledger.Entry {
		var log []*ledger.Entry
		prev := game
		for pos := range uint64(4) {
			e := sign(pos, uint8(pos%2), prev, body(pos))
			log = append(log, e)
			prev = e.Hash()
		}
		return log
	}
	for _, c := range []struct {
		name   string
		tamper func(log []*ledger.Entry)
		want   string // in the error, naming the entry; "" for the honest log
	}{
		{"honest", func([]*ledger.Entry) {}, ""},
		{"a body changed after signing", func(log []*ledger.Entry) { log[2].Body = body(2, 'x') }, "entry 2: bad signature"},
		{"an entry re-signed by its seat off the chain", func(log []*ledger.Entry) {
			log[2] = sign(2, 0, ledger.Hash{7}, body(2))
		}, "entry 2 does not chain"},
		{"an entry signed by the seat not due", func(log []*ledger.Entry) {
			log[3] = sign(3, 0, log[2].Hash(), body(3))
		}, "entry 3 by seat 0 is not what the replica expects"},
		{"an entry the rules refuse, signed and chained", func(log []*ledger.Entry) {
			log[3] = sign(3, 1, log[2].Hash(), body(7))
		}, "entry 3: counter"},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := honest()
			c.tamper(log)
			dir := filepath.Join(t.TempDir(), "state")
			st, err := store.Create(dir, tb, []byte("secret"))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range log {
				if err := st.Append(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st, err = store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			room, err := ps[0].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 2, limit: 10}, Author: countAuthor})
			if c.want == "" {
				if err != nil {
					t.Fatalf("the honest log: %v", err)
				}
				if got, err := room.Log(); err != nil || len(got) != len(log) {
					t.Fatalf("the honest log: %d entries replayed (%v), want %d", len(got), err, len(log))
				}
				room.Close()
				return
			}
			if err == nil {
				room.Close()
				t.Fatal("the room opened on a tampered log")
			}
			if !strings.Contains(err.Error(), "replay") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say replay and %q", err, c.want)
			}
		})
	}
}
