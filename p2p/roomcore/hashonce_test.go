package roomcore

import (
	"testing"
	"time"
)

// TestReceivedEntryHashedOnce: an entry received with its sender's state
// hash is hashed once, though the core needs its hash twice (to record the
// sender's report, then to log it when applied); the report is still
// checked against the entry applied. Before the memo: 2 per entry.
func TestReceivedEntryHashedOnce(t *testing.T) {
	const n, limit = 4, 9
	b := newBench(t, n, 0, 0, limit)
	c := b.core
	t0 := time.Unix(1e6, 0)
	c.Start(t0)
	c.Ready()
	replica := &counter{seats: n, limit: limit}
	received := 0
	for _, e := range b.log {
		if e.Seat == 0 {
			// This seat's own entry: authored from the same body.
			c.Step(Input{Kind: InAuthored, Pos: e.Pos, Body: e.Body})
		} else {
			if err := replica.Apply(e); err != nil {
				t.Fatal(err)
			}
			c.Step(Input{Kind: InMsg, Seat: e.Seat, Msg: &Msg{Type: MsgEntry, Entry: e, State: replica.StateHash()}, At: t0})
			received++
		}
		if e.Seat == 0 {
			if err := replica.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		c.Ready()
	}
	if got := c.next(); got != limit {
		t.Fatalf("applied %d entries, want %d", got, limit)
	}
	for pos, e := range b.log {
		if c.hashes[pos] != e.Hash() {
			t.Fatalf("entry %d logged with a wrong hash", pos)
		}
	}
	if c.hashed > limit {
		t.Fatalf("%d hashes computed for %d entries (%d received with a state hash), want at most one each", c.hashed, limit, received)
	}
}
