package table_test

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// TestSharedTablesKeepOneCopy: tables of one process sharing a
// table.Shared (masque demo's 18 seats) keep one copy of a private view's
// encrypted shares and of the night's ballots, the same pointers, while
// each still checks every entry itself: their states stay those of a
// table that shares nothing, entry by entry (applied concurrently, for
// the race detector); a seat that restarts mid-game replays the log into
// a new table sharing the others' values, follows the rest of the game,
// and refuses a forged ballot with the fault an unshared table gives.
// The values go when no table keeps them.
func TestSharedTablesKeepOneCopy(t *testing.T) {
	tr := mafiaBots(t)
	game := mafia.Game{}.Table()
	newTable := func() *table.Table {
		tb, err := table.New(tr.Roster, game)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	shared := table.NewShared()
	ref, a, b := newTable(), newTable(), newTable()
	a.Share(shared)
	b.Share(shared)
	restartAt := len(tr.Entries) / 2
	var c *table.Table // the restarted seat's table, from restartAt on
	var sameShares, sameBallots, forged int
	for n, e := range tr.Entries {
		if n == restartAt {
			c = newTable()
			c.Share(shared)
			for _, old := range tr.Entries[:n] {
				if err := c.ApplyVerified(old); err != nil {
					t.Fatalf("restart: replaying entry %d: %v", old.Pos, err)
				}
			}
		}
		// A forged ballot after the restart: every table refuses it as an
		// unshared one does, and is left as it was.
		if req := ref.Pending(); c != nil && forged < 2 && req != nil && req.Kind == engine.EffectBallot {
			if j := firstBallot(req); j >= 0 {
				body, err := ref.Body(e)
				if err != nil {
					t.Fatal(err)
				}
				bad := *body
				bad.Actions = append([][]byte(nil), body.Actions...)
				bad.Actions[j] = corruptProof(t, body.Actions[j], engine.EffectBallot)
				enc, err := bad.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				fe := &ledger.Entry{Pos: e.Pos, Seat: e.Seat, Prev: e.Prev, Body: enc}
				want := ref.ApplyVerified(fe)
				var wf *table.Fault
				if !errors.As(want, &wf) || wf.Reason != table.ReasonBadBallot || wf.Seat != int(e.Seat) {
					t.Fatalf("entry %d: the unshared table's fault: %v", e.Pos, want)
				}
				for name, tb := range map[string]*table.Table{"a": a, "restarted": c} {
					before := tb.StateHash()
					got := tb.ApplyVerified(fe)
					var gf *table.Fault
					if !errors.As(got, &gf) || gf.Reason != wf.Reason || gf.Seat != wf.Seat || gf.Pos != wf.Pos || got.Error() != want.Error() {
						t.Fatalf("entry %d, table %s: got %v, want %v", e.Pos, name, got, want)
					}
					if tb.StateHash() != before {
						t.Fatalf("entry %d, table %s: the forged entry changed the table", e.Pos, name)
					}
				}
				forged++
			}
		}
		tables := []*table.Table{ref, a, b}
		if c != nil {
			tables = append(tables, c)
		}
		errs := make([]error, len(tables))
		var wg sync.WaitGroup
		for k, tb := range tables {
			wg.Go(func() { errs[k] = tb.ApplyVerified(e) })
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("entry %d, table %d: %v", e.Pos, k, err)
			}
			if tables[k].StateHash() != ref.StateHash() {
				t.Fatalf("entry %d: table %d's state differs from the unshared table's", e.Pos, k)
			}
		}
		ra, rb, rr := a.CompletedAll(), b.CompletedAll(), ref.CompletedAll()
		for k := range ra {
			for i := range ra[k].Enc {
				if ref.Retired(int(ra[k].Seats[i])) {
					// A retired seat's shares are computed by each table
					// from its published key, not decoded from an entry.
					continue
				}
				for j, es := range ra[k].Enc[i] {
					if rb[k].Enc[i][j] != es {
						t.Fatalf("entry %d: seat %d's encrypted share %d is kept twice", e.Pos, ra[k].Seats[i], j)
					}
					if rr[k].Enc[i][j] == es || rr[k].Enc[i][j].E1[0].Equal(es.E1[0]) != 1 {
						t.Fatalf("entry %d: seat %d's shared encrypted share %d is not the unshared table's value", e.Pos, ra[k].Seats[i], j)
					}
					sameShares++
				}
			}
			for i := range ra[k].Posts {
				for j, p := range ra[k].Posts[i] {
					if p.Ballot == nil {
						continue
					}
					if rb[k].Posts[i][j].Ballot != p.Ballot || (c != nil && c.CompletedAll()[k].Posts[i][j].Ballot != p.Ballot) {
						t.Fatalf("entry %d: seat %d's ballot %d is kept twice", e.Pos, ra[k].Seats[i], j)
					}
					sameBallots++
				}
			}
		}
	}
	if sameShares == 0 || sameBallots == 0 || forged < 2 {
		t.Fatalf("%d shared encrypted shares, %d shared ballots, %d forged ballots: want some of each", sameShares, sameBallots, forged)
	}
	if shared.Len() == 0 {
		t.Fatal("the shared values are gone while the tables keep them")
	}
	runtime.KeepAlive([]*table.Table{a, b, c})
	ref, a, b, c = nil, nil, nil, nil
	for start := time.Now(); shared.Len() > 0; {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("%d shared values kept 30 s after every table is gone", shared.Len())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// firstBallot returns the index of an actions request's first ballot
// part, or -1.
func firstBallot(req *table.Request) int {
	for j, p := range req.Parts {
		if p.Kind == engine.EffectBallot {
			return j
		}
	}
	return -1
}
