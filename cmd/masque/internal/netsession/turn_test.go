package netsession

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/store"
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

// Through the real network stack: a person's seat (seat 0 of a 2-seat
// Grimm table, the other a bot) is asked for its move, stops (as after
// kill -9: Close without answering) and starts again on its state
// directory. Its screen's deadline is the one it had before the restart,
// not a full move time from the restart, and so is when it was asked
// (Snapshot.MySince, from which its answer window runs).
func TestRestartedGameKeepsItsDeadline(t *testing.T) {
	gt := seatGrimm(t, 2)
	const timeout = 5 * time.Minute
	start := func(i int, bot bool) *Game {
		t.Helper()
		st, err := store.Open(gt.dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		g, err := Start(context.Background(), GameConfig{Node: gt.peers[i].Node, Store: st, Bot: bot, Seed: uint64(i + 1), Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	myTurn := func(g *Game) session.Snapshot {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			if s := g.Snapshot(); s.MyTurn || s.Over {
				return s
			}
			select {
			case <-g.Updates():
			case <-time.After(20 * time.Millisecond):
			case <-deadline:
				t.Fatal("the seat was never asked for its move")
			}
		}
	}
	bot := start(1, true)
	defer bot.Close()
	person := start(0, false)
	first := myTurn(person)
	if first.Over || first.MyDeadline.IsZero() {
		t.Fatalf("no deadline for the person's move: %+v", first.MyDeadline)
	}
	person.Close()
	time.Sleep(100 * time.Millisecond)
	person = start(0, false)
	defer person.Close()
	again := myTurn(person)
	if again.Entries != first.Entries {
		t.Fatalf("asked at entry %d after the restart, %d before", again.Entries, first.Entries)
	}
	if !again.MyDeadline.Equal(first.MyDeadline) {
		t.Errorf("the deadline after the restart is %v, before it %v: the countdown started over", again.MyDeadline, first.MyDeadline)
	}
	// The seat's answer window (a forced response, a claim's challenge)
	// runs from when the table began waiting for it, which the screens
	// are told, the same after the restart.
	if first.MySince.IsZero() || !again.MySince.Equal(first.MySince) || !first.MySince.Add(timeout).Equal(first.MyDeadline) {
		t.Errorf("asked since %v after the restart, %v before it (deadline %v): the answer window would start over", again.MySince, first.MySince, first.MyDeadline)
	}
}

// A peer waiting for another seat's move shows the same deadline after a
// restart as before it, the one the mover's screen (TurnFile) and the
// peers that did not restart show: the restarted room counts its wait
// from the restart, but the screen counts from when this peer first
// waited at that entry (WaitFile). A later entry starts a new wait.
func TestRestartedPeerKeepsTheMoversDeadline(t *testing.T) {
	dir := t.TempDir()
	const timeout = time.Minute
	// waitFor starts a peer's game on dir and tells it the room waits
	// for seat 2's move at pos, waited since the room's (re)start.
	waitFor := func(pos uint64, waited time.Duration) *session.Wait {
		t.Helper()
		mark, err := loadWait(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := &Game{names: []string{"Anna", "Boris", "Sasha"}, updates: make(chan struct{}, 1), dir: dir, waitMark: mark, waitKept: true, timeout: timeout}
		g.onWait(p2p.Wait{Pos: pos, Seat: 2, Waited: waited, Left: timeout - waited, Connected: true})
		// The room's tick reports the wait again: it lasts, and is kept.
		const tick = 500 * time.Millisecond
		g.onWait(p2p.Wait{Pos: pos, Seat: 2, Waited: waited + tick, Left: timeout - waited - tick, Connected: true})
		return g.wait
	}
	before := waitFor(9, 0)
	if d := time.Until(before.Deadline); d < timeout-5*time.Second || d > timeout {
		t.Fatalf("first wait: %v left, want about %v", d, timeout)
	}
	// Twenty seconds on: the peer restarts, and its room waits anew.
	mark, err := loadWait(dir)
	if err != nil || mark.Pos != 9 {
		t.Fatalf("the wait mark %+v (%v)", mark, err)
	}
	mark.Since = mark.Since.Add(-20 * time.Second)
	if err := keepWait(dir, mark); err != nil {
		t.Fatal(err)
	}
	want := mark.Since.Add(timeout)
	after := waitFor(9, 0)
	if diff := after.Deadline.Sub(want); diff < -time.Second || diff > time.Second {
		t.Errorf("after a restart the deadline moved by %v (shows %v left; the mover's screen shows %v)", diff.Round(time.Second),
			time.Until(after.Deadline).Round(time.Second), time.Until(want).Round(time.Second))
	}
	if d := after.Left; d > timeout-19*time.Second {
		t.Errorf("after a restart %v left, want the %v the others show", d.Round(time.Second), time.Until(want).Round(time.Second))
	}
	// The next entry: a new wait, the full time.
	if d := time.Until(waitFor(10, 0).Deadline); d < timeout-5*time.Second {
		t.Errorf("a new entry's wait shows %v left, want about %v", d, timeout)
	}
}

// A wait that ends before the room's tick reports it again (nearly every
// wait of a fast table: the next entry comes within milliseconds) writes
// no wait mark: writing one per entry (a file replaced and synced) was a
// third of a 13-process bot game's CPU (issue 28, cpu28b). The tick's
// report of the same wait keeps it, once; a restart then counts on from
// it.
func TestShortWaitWritesNoMark(t *testing.T) {
	dir := t.TempDir()
	const timeout = time.Minute
	g := &Game{names: []string{"Anna", "Boris", "Sasha"}, updates: make(chan struct{}, 1), dir: dir, waitKept: true, timeout: timeout}
	path := filepath.Join(dir, WaitFile)
	for pos := uint64(1); pos <= 5; pos++ {
		g.onWait(p2p.Wait{Pos: pos, Seat: uint8(pos % 3), Left: timeout, Connected: true})
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("entry %d: a wait that has just begun wrote %s (%v)", pos, WaitFile, err)
		}
	}
	// The tick: the wait at 5 lasts.
	g.onWait(p2p.Wait{Pos: 5, Seat: 2, Waited: 400 * time.Millisecond, Left: timeout - 400*time.Millisecond, Connected: true})
	mark, err := loadWait(dir)
	if err != nil || mark.Pos != 5 || !mark.Since.Equal(g.waitMark.Since) {
		t.Fatalf("after the tick the wait mark is %+v (%v), want position 5 since %v", mark, err, g.waitMark.Since)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Later ticks of the same wait do not write it again.
	if err := os.Chtimes(path, time.Time{}, info.ModTime().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	g.onWait(p2p.Wait{Pos: 5, Seat: 2, Waited: 900 * time.Millisecond, Left: timeout - 900*time.Millisecond, Connected: true})
	if again, err := os.Stat(path); err != nil || !again.ModTime().Equal(info.ModTime().Add(-time.Hour)) {
		t.Errorf("a later tick of the same wait wrote %s again (%v)", WaitFile, err)
	}
}
