package table_test

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// TestRosterKeysFaultNamesFirstBadSeat: table.New checks each card key's
// proof once (in the joint key), yet a bad roster is still refused with
// the Fault the seat-by-seat checks find first: the lowest seat with any
// bad key, whatever is wrong with later seats.
func TestRosterKeysFaultNamesFirstBadSeat(t *testing.T) {
	cases := []struct {
		name string
		mod  func(r *ledger.Roster, keys []tabletest.Keys)
		seat int
	}{
		{"only a card key proven under another seat's context", func(r *ledger.Roster, keys []tabletest.Keys) {
			bad := keys[2].Secrets().PublicKeys(r.TableID, 1, r.Seats[2].PeerID)
			r.Seats[2].Keys = append(bad[:96:96], r.Seats[2].Keys[96:]...)
		}, 2},
		{"only a card key proof broken, after a viewing key equal to another seat's", func(r *ledger.Roster, keys []tabletest.Keys) {
			bad := keys[1].Secrets().PublicKeys(r.TableID, 0, r.Seats[1].PeerID)
			r.Seats[1].Keys = append(bad[:96:96], r.Seats[1].Keys[96:]...)
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), r.Seats[0].Keys[96:]...)
		}, 1},
		{"a bad card key proof before a key that does not decode", func(r *ledger.Roster, keys []tabletest.Keys) {
			r.Seats[1].Keys = keys[1].Secrets().PublicKeys(r.TableID, 0, r.Seats[1].PeerID)
			r.Seats[3].Keys = r.Seats[3].Keys[:32]
		}, 1},
		{"a key that does not decode before a bad card key proof", func(r *ledger.Roster, keys []tabletest.Keys) {
			r.Seats[0].Keys = r.Seats[0].Keys[:32]
			r.Seats[2].Keys = keys[2].Secrets().PublicKeys(r.TableID, 1, r.Seats[2].PeerID)
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			refuseSeatKeys(t, rosterOf(t, "roster-keys", tc.mod), tc.seat)
		})
	}
}

// BenchmarkTableNew builds a 4-seat table from its roster, as every peer
// does at seating; -benchmem shows the key checks' allocations (issue 28:
// each card key's proof was checked twice).
//
//	go test ./engine/table -run '^$' -bench TableNew -benchmem
func BenchmarkTableNew(b *testing.B) {
	g, err := mascarade.Options{Players: names4, Coins: mascarade.DefaultCoins}.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	keys := tabletest.SeatKeys("bench-new", names4)
	r, _, err := tabletest.Roster(mascarade.Game{}, tabletest.TableID("bench-new"), keys, table.Options{Game: g})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := table.New(r, mascarade.Game{}); err != nil {
			b.Fatal(err)
		}
	}
}
