package web

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// leaver is a local Mafia session that takes a request to leave the game
// (session.Leaver); the test says when the seat is out.
type leaver struct {
	*localsession.Session
	mu           sync.Mutex
	asked        int
	leaving, out bool
}

func (l *leaver) Leave() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked++
	l.leaving = true
	return nil
}

func (l *leaver) setOut() {
	l.mu.Lock()
	l.out = true
	l.mu.Unlock()
}

func (l *leaver) Snapshot() session.Snapshot {
	s := l.Session.Snapshot()
	l.mu.Lock()
	defer l.mu.Unlock()
	s.CanLeave = !l.leaving && !l.out && !s.Over
	s.Leaving = l.leaving && !l.out
	s.Retired = l.out
	return s
}

// At a table whose game lets a player leave for good, the page is told it
// may (canLeave); "leave-game" asks the session once, the page then says
// the seat is leaving, and once the seat is out the page is told (out)
// and the screen stops as if the player had left the table. A session
// without leaving refuses "leave-game" and never offers it.
func TestLeaveTheGameFromThePage(t *testing.T) {
	ls, err := localsession.New([]string{"Me", "Anna", "Boris", "Sasha", "Dima"}, 5,
		localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ls.Close() })
	lv := &leaver{Session: ls}
	srv, err := New(lv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type result struct {
		left bool
		err  error
	}
	res := make(chan result, 1)
	go func() {
		left, err := srv.Run(ctx)
		res <- result{left, err}
	}()
	evs := events(t, ctx, srv.URL()+"events")
	stage := 0 // 0: waiting for canLeave, 1: asked, 2: out
	for ev := range evs {
		st := ev.st
		switch {
		case stage == 0 && st.Dealt && st.CanLeave:
			if code, body, err := post(srv, action{Op: "leave-game"}); err != nil || code != http.StatusNoContent {
				t.Fatalf("leave-game: %d %q %v", code, body, err)
			}
			stage = 1
		case stage == 1 && st.Leaving:
			if st.CanLeave || st.Note == "" {
				t.Fatalf("leaving: can leave %v, note %q", st.CanLeave, st.Note)
			}
			lv.setOut()
			srv.sc.nudge()
			stage = 2
		case stage == 2 && st.Out:
			stage = 3
		}
		if stage == 3 {
			break
		}
	}
	if stage != 3 {
		t.Fatalf("the page never learnt the seat was out (stage %d)", stage)
	}
	select {
	case r := <-res:
		if r.err != nil || !r.left {
			t.Fatalf("Run: left %v, %v", r.left, r.err)
		}
	case <-ctx.Done():
		t.Fatal("the screen did not stop once the seat was out")
	}
	if lv.asked != 1 {
		t.Fatalf("the session was asked to leave %d times", lv.asked)
	}

	// Without leaving: never offered, and refused.
	srv2, _ := newLocal(t, "mafia", 5, Options{})
	serve(t, srv2)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	evs2 := events(t, ctx2, srv2.URL()+"events")
	for ev := range evs2 {
		if ev.st.CanLeave {
			t.Fatal("a session without leaving offers it")
		}
		if ev.st.Dealt {
			break
		}
	}
	if code, _, _ := post(srv2, action{Op: "leave-game"}); code != http.StatusConflict {
		t.Fatalf("leave-game at a table without leaving: %d", code)
	}
}
