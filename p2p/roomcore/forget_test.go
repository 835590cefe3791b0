package roomcore

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// A core with Config.Read keeps only the latest HotEntries entries in
// memory once they are durable (issue 28), and still proves an
// equivocation about an older entry: it reads that entry back whole.
func TestForgottenEntryReadBackForEquivocation(t *testing.T) {
	const n, limit = 2, 300
	keys := seatKeys(n)
	roster := testRoster(keys)
	game, _ := roster.GameID()
	order := func(uint64) uint8 { return 1 }
	log := honestLog(keys, game, limit, order)
	var disk []*ledger.Entry // what the driver made durable
	reads := 0
	read := func(from, to uint64) ([]*ledger.Entry, error) {
		reads++
		if to > uint64(len(disk)) || from > to {
			return nil, errors.New("not on disk")
		}
		return disk[from:to], nil
	}
	c, err := New(Config{Roster: roster, Self: 0, SignKey: keys[0], Replica: &counter{seats: n, limit: limit + 1, order: order},
		Tick: 500 * time.Millisecond, Timeout: time.Minute, Read: read}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	c.Start(now)
	for _, e := range log {
		c.Step(Input{Kind: InMsg, Seat: 1, Now: now, At: now, Msg: &Msg{Type: MsgEntry, Entry: e}})
		disk = append(disk, c.Ready().Entries...)
	}
	if len(disk) != limit {
		t.Fatalf("%d entries durable, want %d", len(disk), limit)
	}
	entries, _ := c.Log()
	held := 0
	for _, e := range entries {
		if e != nil {
			held++
		}
	}
	if len(entries) != limit || held > HotEntries {
		t.Fatalf("the core holds %d of %d entries, want at most %d", held, len(entries), HotEntries)
	}
	if reads != 0 {
		t.Fatalf("%d reads of the state directory during honest play", reads)
	}
	// Seat 1 signs another entry for position 5, long forgotten.
	bad := *log[5]
	bad.Body = body(5, 0xff)
	bad.Sign(game, keys[1])
	c.Step(Input{Kind: InMsg, Seat: 1, Now: now, At: now, Msg: &Msg{Type: MsgEntry, Entry: &bad}})
	rd := c.Ready()
	if rd.Outcome == nil || rd.Outcome.Verdict == nil || rd.Outcome.Verdict.Kind != VerdictEquivocation || rd.Outcome.Verdict.Pos != 5 {
		t.Fatalf("outcome %+v, err %v; want an equivocation verdict at 5", rd.Outcome, rd.Err)
	}
	ev := rd.Outcome.Verdict.Evidence
	want, _ := log[5].MarshalBinary()
	found := false
	for _, e := range ev {
		if enc, _ := e.MarshalBinary(); bytes.Equal(enc, want) {
			found = true
		}
	}
	if !found || reads != 1 {
		t.Fatalf("the evidence %v does not hold the entry read back (%d reads)", ev, reads)
	}
}
