package netsession

import (
	"testing"

	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
)

// TestWaitSaysTheTablesWork: while the room waits for another seat's
// entry that is the table's own work (here the deal's coin: its
// commitments and reveals), the seat's snapshot says what for (session.Wait.What, in
// seatview.WorkWaiting's words, which the phone's page uses too); the
// terminal and the --web page said only the seat's name.
func TestWaitSaysTheTablesWork(t *testing.T) {
	src := "game mascarade players=Anna,Boris,Sasha,Dima\n"
	tr, _, keys, sign := scriptedSeat(t, src, 1)
	d, err := NewSeat(SeatConfig{Seat: 1, Roster: tr.Roster, Sign: sign, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	d.narr.Start(d.tab)
	names := []string{"Anna", "Boris", "Sasha", "Dima"}
	g := &Game{seat: d, names: names, done: make(chan struct{}), updates: make(chan struct{}, 1)}
	seen := map[table.BodyKind]bool{}
	for _, e := range tr.Entries {
		_, kind, ok := d.tab.Expect()
		if !ok {
			break
		}
		if int(e.Seat) != 1 && kind != table.BodyMove && !seen[kind] {
			seen[kind] = true
			g.onWait(p2p.Wait{Pos: e.Pos, Seat: e.Seat, Connected: true})
			w := g.Snapshot().Waiting
			want := seatview.WorkWaiting(names[e.Seat], kind)
			if w == nil || want == "" || w.What != want {
				t.Errorf("waiting for %s's %s entry at %d: %+v, want What %q", names[e.Seat], kind, e.Pos, w, want)
			}
		}
		if err := d.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
	}
	if len(seen) < 2 {
		t.Fatalf("the deal waited for %v only", seen)
	}
	// A move: no words of the table's work (the game's view words it).
	_, kind, _ := d.tab.Expect()
	g.onWait(p2p.Wait{Pos: d.tab.Pos(), Seat: 0, Connected: true})
	if w := g.Snapshot().Waiting; kind == table.BodyMove && (w == nil || w.What != "") {
		t.Errorf("waiting for a move: %+v, want no What", w)
	}
}
