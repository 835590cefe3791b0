package web

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/masqview"
)

// Another seat answering a claim has its answer window, not the table's
// patience: the page is sent the window's time left (and whose it is)
// beside the timeout, and its script says "left to answer, then Boris
// passes" until the window runs out, then the timeout.
func TestPageOthersAnswerWindow(t *testing.T) {
	script, err := mascarade.ParseScript([]byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := mascaradetest.New(script.Options, mascaradetest.ScriptDeal(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range script.Lines {
		if err := tb.PlayLine(ln); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	fs := &fixedSession{upd: make(chan struct{}), snap: session.Snapshot{Seat: 3, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: tb.State, Viewer: masqview.First(),
		Waiting: &session.Wait{Seat: 1, Name: "Boris", Since: now.Add(-5 * time.Second), Deadline: now.Add(5*time.Minute - 5*time.Second)}}}
	for _, tc := range []struct {
		window time.Duration
		want   int64 // seconds of window left
	}{{30 * time.Second, 25}, {4 * time.Second, 0}, {0, 0}} {
		sc := newScreen(fs, Options{ChallengeWindow: tc.window}, slog.New(slog.DiscardHandler))
		sc.refresh(now)
		sc.mu.Lock()
		st := sc.pageState(now)
		sc.mu.Unlock()
		if got := (st.WaitWindowLeft + 500) / 1000; got != tc.want || (tc.want > 0) != (st.WaitWho == "Boris") {
			t.Errorf("window %v: the answer window's time left %d s (%q), want %d s", tc.window, got, st.WaitWho, tc.want)
		}
		if got := (st.WaitLeft + 500) / 1000; got != 295 {
			t.Errorf("window %v: the timeout %d s, want 295", tc.window, got)
		}
	}
	js, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `" left to answer, then " + st.waitWho + " passes)"`) {
		t.Error("app.js does not word the answerer's window")
	}
}

// A seat answering a claim passes when its answer window runs out: the
// page is not sent the table's move time beside the window (it showed
// "· 4:55 left" over "25s left, then you pass"), unless the move time
// runs out first.
func TestPageAnswererOneCountdown(t *testing.T) {
	script, err := mascarade.ParseScript([]byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := mascaradetest.New(script.Options, mascaradetest.ScriptDeal(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range script.Lines {
		if err := tb.PlayLine(ln); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		move     time.Duration
		wantMove bool
	}{{5 * time.Minute, false}, {20 * time.Second, true}} {
		now := time.Now()
		fs := &fixedSession{upd: make(chan struct{}), snap: session.Snapshot{Seat: 1, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: tb.State, Viewer: masqview.First(),
			MyTurn: true, MyDeadline: now.Add(tc.move)}}
		sc := newScreen(fs, Options{ChallengeWindow: 30 * time.Second}, slog.New(slog.DiscardHandler))
		sc.refresh(now)
		sc.mu.Lock()
		st := sc.pageState(now)
		sc.mu.Unlock()
		if !st.Window || st.WindowLeft <= 0 {
			t.Fatalf("move time %v: no answer window sent", tc.move)
		}
		if (st.MoveLeft > 0) != tc.wantMove {
			t.Errorf("move time %v: the page is sent the move time %d ms beside a 30 s window", tc.move, st.MoveLeft)
		}
	}
}

// TestPageAnswerWindowAfterRestart: a seat whose answer window is open
// (a claim to challenge) is restarted mid-window: its page is sent what
// is left of the window, from when the table began waiting for its
// answer (Snapshot.MySince, kept across the restart), not a whole window
// again (the first version opened it anew at every start).
func TestPageAnswerWindowAfterRestart(t *testing.T) {
	script, err := mascarade.ParseScript([]byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := mascaradetest.New(script.Options, mascaradetest.ScriptDeal(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range script.Lines {
		if err := tb.PlayLine(ln); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for _, tc := range []struct {
		since time.Time
		want  int64 // seconds of window left
	}{{now.Add(-20 * time.Second), 10}, {time.Time{}, 30}, {now.Add(time.Minute), 30}} {
		fs := &fixedSession{upd: make(chan struct{}), snap: session.Snapshot{Seat: 1, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: tb.State, Viewer: masqview.First(),
			MyTurn: true, MySince: tc.since}}
		sc := newScreen(fs, Options{ChallengeWindow: 30 * time.Second}, slog.New(slog.DiscardHandler))
		sc.refresh(now)
		sc.mu.Lock()
		st := sc.pageState(now)
		sc.mu.Unlock()
		if got := (st.WindowLeft + 500) / 1000; !st.Window || got != tc.want {
			t.Errorf("asked since %v: the answer window %v, %d s left, want %d s", tc.since, st.Window, got, tc.want)
		}
	}
}

// An answerer that is not connected cannot pass for itself: the page is
// not sent its answer window (the script would say "then Boris passes"),
// only the table's timeout and that Boris is offline.
func TestPageOfflineAnswererNoWindow(t *testing.T) {
	script, err := mascarade.ParseScript([]byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := mascaradetest.New(script.Options, mascaradetest.ScriptDeal(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range script.Lines {
		if err := tb.PlayLine(ln); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	fs := &fixedSession{upd: make(chan struct{}), snap: session.Snapshot{Seat: 3, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: tb.State, Viewer: masqview.First(),
		Waiting: &session.Wait{Seat: 1, Name: "Boris", Since: now.Add(-5 * time.Second), Deadline: now.Add(5*time.Minute - 5*time.Second), Offline: true}}}
	sc := newScreen(fs, Options{ChallengeWindow: 30 * time.Second}, slog.New(slog.DiscardHandler))
	sc.refresh(now)
	sc.mu.Lock()
	st := sc.pageState(now)
	sc.mu.Unlock()
	if st.WaitWindowLeft != 0 || st.WaitWho != "" {
		t.Errorf("an offline answerer's window is sent: %d ms (%q)", st.WaitWindowLeft, st.WaitWho)
	}
	if got := (st.WaitLeft + 500) / 1000; got != 295 || st.Offline != "Boris" {
		t.Errorf("the timeout %d s (want 295), offline %q (want Boris)", got, st.Offline)
	}
}
