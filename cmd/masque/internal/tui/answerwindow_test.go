package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// Another seat answering a claim has its answer window, not the table's
// patience: its screen passes for it when the window runs out. The
// others count that window down from when they began waiting, then,
// should it run out unanswered (the seat's program stopped), the
// table's timeout.
func TestOthersSeeTheAnswerWindow(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, _ := screen(t, claim, 3, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.Waiting.Since = t0.Add(-5 * time.Second)
		s.Waiting.Deadline = t0.Add(5*time.Minute - 5*time.Second)
		s.Waiting.Left = 5*time.Minute - 5*time.Second
	})
	v := m.View()
	if !strings.Contains(v, "waiting for Boris") || !strings.Contains(v, "(0:25 left to answer, then Boris passes)") || strings.Contains(v, "before the timeout") {
		t.Errorf("the answerer's window is not counted down:\n%s", v)
	}
	m = step(t, m, TickMsg(t0.Add(30*time.Second)))
	if v := m.View(); !strings.Contains(v, "(4:25 before the timeout)") || strings.Contains(v, "left to answer") {
		t.Errorf("once the window ran out, the table's timeout:\n%s", v)
	}
	// A seat waited for on its own move (no claim) keeps the timeout.
	opening := stateAfter(t, "")
	m, _ = screen(t, opening, 2, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.Waiting.Since, s.Waiting.Deadline = t0, t0.Add(time.Minute)
	})
	if v := m.View(); !strings.Contains(v, "(1:00 before the timeout)") || strings.Contains(v, "left to answer") {
		t.Errorf("a move's wait:\n%s", v)
	}
}

// A seat answering a claim in its answer window passes when the window
// runs out: the table's move time (minutes) is not its countdown, and
// must not stand beside the window's seconds ("Your move · 4:54 left"
// over "25s left, then you pass"), nor its "hurry" warning.
func TestAnswererSeesOneCountdown(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, _ := screen(t, claim, 1, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.MyDeadline = t0.Add(5 * time.Minute)
	})
	v := m.View()
	if !strings.Contains(v, "(30s left, then you pass)") || strings.Contains(v, "5:00 left") {
		t.Errorf("the answerer sees another countdown than its window:\n%s", v)
	}
	// A move time shorter than the window is the one that counts.
	m, _ = screen(t, claim, 1, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.MyDeadline = t0.Add(20 * time.Second)
	})
	if v := m.View(); !strings.Contains(v, "0:20 left") {
		t.Errorf("a move time shorter than the window is not shown:\n%s", v)
	}
	// A move of one's own keeps the move time.
	opening := stateAfter(t, "")
	m, _ = screen(t, opening, 0, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.MyDeadline = t0.Add(5 * time.Minute)
	})
	if v := m.View(); !strings.Contains(v, "Your move · 5:00 left") {
		t.Errorf("a move's own countdown is gone:\n%s", v)
	}
}

// TestAnswerWindowAfterRestart: a seat whose answer window is open (a
// claim to challenge) is restarted mid-window (killed and run again):
// its screen counts down what is left of the window, from when the
// table began waiting for its answer (Snapshot.MySince, kept across the
// restart), not a whole window again (the first version opened it anew
// at every start: 30 s more, while the others' screens said 10); a
// window that ran out while the seat was down passes at once.
func TestAnswerWindowAfterRestart(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, _ := screen(t, claim, 1, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.MySince = t0.Add(-20 * time.Second)
		s.MyDeadline = s.MySince.Add(5 * time.Minute)
	})
	if v := m.View(); !strings.Contains(v, "challenge window: your answer (10s left, then you pass)") {
		t.Errorf("the restarted answerer's window, 20 s into it:\n%s", v)
	}
	if m = step(t, m, TickMsg(t0.Add(time.Second))); m.status != "" {
		t.Errorf("with 9 s left: %q", m.status)
	}
	m, _ = screen(t, claim, 1, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.MySince = t0.Add(-40 * time.Second)
	})
	if m = step(t, m, TickMsg(t0.Add(time.Second))); m.status != "time is up: you pass" {
		t.Errorf("a window that ran out while the seat was down: status %q, want the pass", m.status)
	}
}

// An answerer whose masque is not connected (killed mid-window) cannot
// pass for itself: its screen is what passes. The others' screens used
// to promise "then Boris passes" all the same, and once the window ran
// out nothing happened and the table's timeout appeared in its place.
// They now count down the table's timeout, beside the warning.
func TestOfflineAnswererNoPassPromised(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, _ := screen(t, claim, 3, Options{ChallengeWindow: 30 * time.Second}, func(s *session.Snapshot) {
		s.Waiting.Since = t0.Add(-5 * time.Second)
		s.Waiting.Deadline = t0.Add(5*time.Minute - 5*time.Second)
		s.Waiting.Left = 5*time.Minute - 5*time.Second
		s.Waiting.Offline = true
	})
	v := m.View()
	if strings.Contains(v, "then Boris passes") || !strings.Contains(v, "(4:55 before the timeout)") || !strings.Contains(v, "Boris is not connected") {
		t.Errorf("an offline answerer is promised to pass:\n%s", v)
	}
}
