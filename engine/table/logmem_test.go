package table_test

import (
	"runtime"
	"slices"
	"testing"
	"weak"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// A table keeps no entry but the last one it applied (issue 28: 18
// tables in one process each held their whole log; the log is its
// holder's, a state directory or a transcript), whether applied one by
// one or in a batch.
func TestTableKeepsOnlyLastEntry(t *testing.T) {
	a := thirteen(t)
	for _, batch := range []bool{false, true} {
		tb, err := table.New(a.tr.Roster, a.game)
		if err != nil {
			t.Fatal(err)
		}
		var seen []weak.Pointer[ledger.Entry]
		copies := make([]*ledger.Entry, 40)
		for i, orig := range a.tr.Entries[:40] {
			e := *orig
			e.Body = slices.Clone(orig.Body)
			copies[i] = &e
			seen = append(seen, weak.Make(&e))
		}
		if batch {
			next := func(pos uint64, seat uint8) *ledger.Entry {
				if pos < uint64(len(copies)) && copies[pos].Seat == seat {
					return copies[pos]
				}
				return nil
			}
			for tb.Len() < len(copies) {
				if failed, err := tb.ApplyBatch(next, 8, func(*ledger.Entry) {}); failed != nil || err != nil {
					t.Fatalf("batch: entry %v: %v", failed, err)
				}
			}
		} else {
			for _, e := range copies {
				if err := tb.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
		}
		clear(copies)
		runtime.GC()
		alive := 0
		for _, p := range seen {
			if p.Value() != nil {
				alive++
			}
		}
		if alive > 1 {
			t.Errorf("batch %v: %d of 40 entries still reachable, want the last one only", batch, alive)
		}
		if last := tb.Last(); last == nil || last.Pos != 39 || tb.Len() != 40 {
			t.Errorf("batch %v: %d entries, the last %v; want 40, the last at 39", batch, tb.Len(), last)
		}
		runtime.KeepAlive(tb)
	}
}
