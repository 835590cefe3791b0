package seatview

import "time"

// AnswerWindow is a seat's answer window as its screen keeps it: open
// while the seat's question is one the table waits for within its answer
// window ([Question.Window]), counted from when the screen first saw it at
// that entry; when it runs out the screen plays the pass
// ([PassIndex]), once. Its zero value is not ready: use
// [NewAnswerWindow].
type AnswerWindow struct {
	at       int // the entry count of the open window, or -1
	deadline time.Time
	passed   int // the entry count of the window the screen passed in, or -1
}

// NewAnswerWindow returns a closed window.
func NewAnswerWindow() AnswerWindow { return AnswerWindow{at: -1, passed: -1} }

// Update opens the window at entry count at for d from since (when the
// table began waiting for the seat's answer: kept across a restart, so
// that a restarted screen counts down what is left, not a whole window
// again; the caller's now when unknown), or keeps it open if it is open
// at that entry already (ending earlier if since says it began earlier),
// when q is an answer window and d is set; otherwise it closes it.
func (w *AnswerWindow) Update(q *Question, at int, since time.Time, d time.Duration) {
	if q == nil || !q.Window || d <= 0 {
		w.at = -1
		return
	}
	if end := since.Add(d); w.at != at || end.Before(w.deadline) {
		w.at, w.deadline = at, end
	}
}

// Deadline returns when the open window runs out, or ok=false when it is
// closed.
func (w AnswerWindow) Deadline() (deadline time.Time, ok bool) {
	return w.deadline, w.at >= 0
}

// Due reports whether the open window ran out at now and the screen has
// not passed in it yet.
func (w AnswerWindow) Due(now time.Time) bool {
	return w.at >= 0 && w.passed != w.at && !now.Before(w.deadline)
}

// Passed records that the screen passed in the open window.
func (w *AnswerWindow) Passed() { w.passed = w.at }

// OthersWindow returns when another seat's answer window runs out: t
// shows a notice that another seat must answer within the table's
// answer window ([Notice.Window], not [Notice.Yours]), which this screen
// began waiting for at since; d is the answer window (the screen's own,
// as every screen of the table has it by default). ok is false when t
// shows no such notice, d is not set or since is unknown.
func OthersWindow(t Table, since time.Time, d time.Duration) (deadline time.Time, ok bool) {
	if d <= 0 || since.IsZero() {
		return time.Time{}, false
	}
	for _, n := range t.Notices {
		if n.Window != "" && !n.Yours {
			return since.Add(d), true
		}
	}
	return time.Time{}, false
}
