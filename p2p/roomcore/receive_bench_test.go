package roomcore

import (
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// BenchmarkReceiveEntries feeds a 13-seat table's entries to one seat's
// core, each received from its author with the author's state hash, as
// in a live game; -benchmem shows what the core allocates per game
// (issue 28: a map of reports per position, 3 % of a seat's bytes).
//
//	go test ./p2p/roomcore -run '^$' -bench ReceiveEntries -benchmem
func BenchmarkReceiveEntries(b *testing.B) {
	const n, limit = 13, 130
	bench := newBench(b, n, 0, 0, limit)
	states := make([]ledger.Hash, limit)
	replica := &counter{seats: n, limit: limit}
	for i, e := range bench.log {
		if err := replica.Apply(e); err != nil {
			b.Fatal(err)
		}
		states[i] = replica.StateHash()
	}
	t0 := time.Unix(1e6, 0)
	b.ReportAllocs()
	for b.Loop() {
		c := bench.open(b, Config{})
		c.Start(t0)
		c.Ready()
		for i, e := range bench.log {
			if e.Seat == 0 {
				c.Step(Input{Kind: InAuthored, Pos: e.Pos, Body: e.Body})
			} else {
				c.Step(Input{Kind: InMsg, Seat: e.Seat, Msg: &Msg{Type: MsgEntry, Entry: e, State: states[i]}, At: t0})
			}
			c.Ready()
		}
		if c.next() != limit {
			b.Fatalf("applied %d entries, want %d", c.next(), limit)
		}
	}
}
