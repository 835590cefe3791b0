package netsession

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// A restarted seat's move countdown goes on from when the table started
// waiting for that move, not from the restart: the first seat records
// the start of its turn in the state directory, and a seat started again
// on that directory, asked for the same move, reports the same start.
// Asked for a later move, it starts a new countdown.
func TestRestartedSeatKeepsItsCountdown(t *testing.T) {
	src := "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief\nAnna swap Boris yes\n"
	tr, _, keys, sign := scriptedSeat(t, src, 1)
	dir := t.TempDir()

	// since starts a seat on dir, asks it for the move at pos and returns
	// when its turn began by its view.
	since := func(entries []*ledger.Entry, pos uint64) time.Time {
		t.Helper()
		turn, err := loadTurn(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewSeat(SeatConfig{Seat: 1, Roster: tr.Roster, Sign: sign, Keys: keys, Turn: turn,
			KeepTurn: func(m TurnMark) error { return keepTurn(dir, m) }})
		if err != nil {
			t.Fatal(err)
		}
		d.narr.Start(d.tab)
		for _, e := range entries {
			if err := d.Apply(e); err != nil {
				t.Fatalf("entry %d: %v", e.Pos, err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, err := d.Author(ctx, pos); done <- err }()
		deadline := time.Now().Add(5 * time.Second)
		for !d.View().MyTurn {
			if time.Now().After(deadline) {
				t.Fatal("the seat was never asked for its move")
			}
			time.Sleep(time.Millisecond)
		}
		v := d.View()
		cancel()
		<-done
		return v.TurnSince
	}
	pos := uint64(len(tr.Entries))
	first := since(tr.Entries, pos)
	time.Sleep(20 * time.Millisecond)
	again := since(tr.Entries, pos)
	if !again.Equal(first) {
		t.Errorf("after a restart the turn began at %v, want %v (the first ask): the countdown started over", again, first)
	}
	fi, err := os.Stat(filepath.Join(dir, TurnFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the turn file: %v", err)
	}
	// Another move (a later entry) starts a countdown of its own.
	if err := keepTurn(dir, TurnMark{Pos: pos - 1, Since: first.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if later := since(tr.Entries, pos); !later.After(first) {
		t.Errorf("a mark for another entry was taken for this move: %v", later)
	}
	// A damaged file is an error, not a silent new countdown.
	os.WriteFile(filepath.Join(dir, TurnFile), []byte("12 x\n"), 0o600)
	if _, err := loadTurn(dir); err == nil {
		t.Error("a damaged turn file was accepted")
	}
}
