package spectate

import (
	"errors"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/table"
)

// A spectator follows a table entry by entry: its snapshots are nobody's
// seat (no knowledge, no turn), the log grows, whom the table waits for
// is said, the end is seen, nothing can be played, and End closes the
// updates.
func TestFollow(t *testing.T) {
	for _, game := range []string{"mascarade", "grimm", "mafia"} {
		t.Run(game, func(t *testing.T) {
			names := []string{"Anna", "Boris", "Sasha", "Dima"}
			ls, err := localsession.New(names, 1, localsession.Options{Game: game, PublishKeys: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ls.Close()
			tr := ls.Transcript() // the opening, before any move
			g, err := registry.Lookup(tr.Roster.Game)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := table.New(tr.Roster, g.Table())
			if err != nil {
				t.Fatal(err)
			}
			sp := New(g)
			if err := sp.Follow(tab, nil); err != nil {
				t.Fatal(err)
			}
			waited := 0
			for _, e := range tr.Entries {
				if err := tab.Apply(e); err != nil {
					t.Fatal(err)
				}
				if err := sp.Follow(tab, e); err != nil {
					t.Fatal(err)
				}
				snap := sp.Snapshot()
				if snap.Seat != Seat || snap.MyTurn || snap.Known != nil || snap.Private != nil || snap.Night {
					t.Fatalf("a spectator's snapshot: %+v", snap)
				}
				if snap.Entries != int(e.Pos)+1 || len(snap.Names) != len(names) || snap.Rules != tab.Rules() {
					t.Fatalf("entry %d: snapshot at %d, %d names", e.Pos, snap.Entries, len(snap.Names))
				}
				if snap.Waiting != nil {
					waited++
				}
			}
			snap := sp.Snapshot()
			// Mafia's opening (the deal, the first night's tags) says
			// nothing yet; the others tell their deal.
			if len(snap.Log) == 0 && game != "mafia" || waited == 0 {
				t.Fatalf("%d log lines, waited %d times", len(snap.Log), waited)
			}
			if err := sp.Submit(engine.Move{}, nil); !errors.Is(err, ErrSpectator) {
				t.Fatalf("Submit: %v", err)
			}
			sp.End("stopped")
			select {
			case _, ok := <-sp.Updates():
				if ok {
					// A pending update first, then the close.
					if _, ok := <-sp.Updates(); ok {
						t.Fatal("the updates go on after End")
					}
				}
			case <-time.After(time.Second):
				t.Fatal("End did not close the updates")
			}
			if s := sp.Snapshot(); !s.Over || s.Verdict != "stopped" || s.Waiting != nil {
				t.Fatalf("after End: over %v, verdict %q, waiting %v", s.Over, s.Verdict, s.Waiting)
			}
			sp.End("again") // harmless
		})
	}
}
