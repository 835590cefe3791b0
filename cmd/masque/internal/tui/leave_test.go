package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// leaverSession is a local Mafia session that takes a request to leave
// (session.Leaver) and reports what the test sets.
type leaverSession struct {
	*localsession.Session
	asked        int
	leaving, out bool
	refuse       error
}

func (l *leaverSession) Leave() error {
	if l.refuse != nil {
		return l.refuse
	}
	l.asked++
	l.leaving = true
	return nil
}

func (l *leaverSession) Snapshot() session.Snapshot {
	s := l.Session.Snapshot()
	s.CanLeave = !l.leaving && !l.out
	s.Leaving = l.leaving && !l.out
	s.Retired = l.out
	return s
}

// At a table whose game lets a player leave for good, q asks whether to
// leave the game or only close the screen; l leaves (the session is
// asked once), the screen says the seat is on its way out, and closes
// by itself once the seat is out. At a table without it, q asks the old
// question and l does nothing.
func TestLeaveTheGameFromTheScreen(t *testing.T) {
	ls, err := localsession.New([]string{"Anna", "Boris", "Sasha", "Dima", "Egor"}, 3,
		localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	waitTurn(t, ls)
	lv := &leaverSession{Session: ls}
	m := step(t, New(lv, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(t, m, SnapshotMsg{Snap: lv.Snapshot(), At: t0})
	m, _ = press(t, m, "q")
	if v := m.View(); !strings.Contains(v, "l: leave the game for good") || !strings.Contains(v, "close the screen only") {
		t.Fatalf("q does not offer to leave the game:\n%s", v)
	}
	m, cmd := press(t, m, "l")
	if cmd == nil || m.Quitting() {
		t.Fatal("l did not ask the session to leave")
	}
	msg := cmd()
	if lv.asked != 1 {
		t.Fatalf("the session was asked to leave %d times", lv.asked)
	}
	m = step(t, m, msg)
	if v := m.View(); !strings.Contains(v, "leaving the game at your next move") || m.Quitting() {
		t.Fatalf("the screen does not say the seat is leaving (quitting %v):\n%s", m.Quitting(), v)
	}
	lv.out = true
	next, cmd := m.Update(SnapshotMsg{Snap: lv.Snapshot(), At: t0})
	fm := next.(Model)
	if !fm.Quitting() || !fm.LeftGame() || cmd == nil {
		t.Fatalf("out of the game, the screen stays open (quitting %v, left %v)", fm.Quitting(), fm.LeftGame())
	}

	// A refusal is shown and the seat stays.
	lv2 := &leaverSession{Session: ls, refuse: errTest("not now")}
	m = step(t, New(lv2, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(t, m, SnapshotMsg{Snap: lv2.Snapshot(), At: t0})
	m, _ = press(t, m, "q")
	m, cmd = press(t, m, "l")
	m = step(t, m, cmd())
	if v := m.View(); !strings.Contains(v, "cannot leave: not now") || m.Quitting() {
		t.Fatalf("a refused leave is not shown:\n%s", v)
	}

	// Without leaving: the old question, and l is no answer.
	m = step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(t, m, SnapshotMsg{Snap: ls.Snapshot(), At: t0})
	m, _ = press(t, m, "q")
	if v := m.View(); !strings.Contains(v, "leave the table? y/n") || strings.Contains(v, "leave the game for good") {
		t.Fatalf("a table without leaving offers it:\n%s", v)
	}
	m, cmd = press(t, m, "l")
	if m.Quitting() || m.quitAsk {
		t.Fatal("l answered the question at a table without leaving")
	}
	_ = cmd
}

type errTest string

func (e errTest) Error() string { return string(e) }
