package web

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/seatview"
)

// mafiaTruth is every seat's role by name, from the seats' own
// knowledge (every seat of a local table is here).
func mafiaTruth(t testing.TB, ls *localsession.Session) map[string]string {
	t.Helper()
	snap := ls.Snapshot()
	out := map[string]string{}
	for p, n := range snap.Names {
		c, ok := ls.SeatKnown(p)[engine.Slot(p)] // a seat's role lies in its own slot (mafia.State.RoleSlot)
		if !ok || !mafia.IsRole(c) {
			t.Fatalf("seat %d does not know its own role", p)
		}
		out[n] = mafia.CardWords(c)
	}
	return out
}

// mafiaLeak returns what a page state shows of another seat's role or
// incident cards that its seat does not know: a known card in front of
// another seat, or, while that seat is in the game, its role anywhere
// in its row.
func mafiaLeak(st pageState, roles map[string]string) string {
	if st.Over {
		return "" // every card is opened at the end
	}
	for _, s := range st.Seats {
		if s.You {
			continue
		}
		for _, c := range s.Cards {
			if c.Face == "known" || c.Face == "down" && c.Name != "" {
				return s.Name + "'s card " + c.Name + " shows"
			}
		}
		if s.Out {
			continue // its role was revealed when it went out
		}
		row, _ := json.Marshal(s)
		if r := roles[s.Name]; strings.Contains(string(row), r) {
			return s.Name + "'s hidden role " + r + " shows: " + string(row)
		}
	}
	return ""
}

// A whole local game of Mafia plays over the event stream, day moves and
// the night's secret choices alike (a target for a power, or sleep); no
// state ever shows another seat's hidden role or incident card, the seat
// sees its own role, day and night, and the dead may not write in the
// chat (here: a local table has no chat, so none is offered).
func TestEventsPlayMafia(t *testing.T) {
	names := []string{"Me", "Anna", "Boris", "Sasha", "Dima", "Fedya"}
	ls, err := localsession.New(names, 3, localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ls.Close() })
	srv, err := New(ls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, srv)
	roles := mafiaTruth(t, ls)
	ctx := t.Context()
	evs := events(t, ctx, srv.URL()+"events")
	played := uint64(0)
	var nights, days, own, outs, answered int
	var last pageState
	deadline := time.After(3 * time.Minute)
	for last.Over == false {
		var ev event
		var ok bool
		select {
		case ev, ok = <-evs:
		case <-deadline:
			t.Fatal("the game did not end in 3 minutes")
		}
		if !ok {
			t.Fatal("the event stream ended before the game")
		}
		st := ev.st
		last = st
		if leak := mafiaLeak(st, roles); leak != "" {
			t.Fatal(leak)
		}
		if st.Chat {
			t.Error("a local table offers a chat")
		}
		switch st.Phase {
		case "night":
			nights++
		case "day":
			days++
		default:
			if st.Dealt {
				t.Fatalf("a Mafia state without day or night: %q", st.Phase)
			}
		}
		for _, s := range st.Seats {
			if s.You && len(s.Cards) > 0 && s.Cards[0].Face == "known" && s.Cards[0].Name == roles["Me"] {
				own++
			}
			if s.Out {
				outs++
			}
		}
		if st.Question == nil || st.Busy || st.Ask == played {
			continue
		}
		// The last choice: at night a power's target or sleep, by day an
		// abstention or accepting what comes (the game still ends).
		i := len(st.Question.Choices) - 1
		code, body, err := post(srv, action{Op: "play", At: st.At, Ask: st.Ask, Choice: i})
		if err != nil {
			t.Fatal(err)
		}
		if code != http.StatusNoContent && code != http.StatusConflict {
			t.Fatalf("play %q: %d %s", st.Question.Choices[i].Words, code, body)
		}
		played = st.Ask
		if st.Phase == "night" && code == http.StatusNoContent {
			answered++
		}
	}
	if len(last.Result) == 0 || last.Outcome == "" {
		t.Fatalf("the end: result %q, outcome %q", last.Result, last.Outcome)
	}
	if nights == 0 || days == 0 || own == 0 || outs == 0 || answered == 0 {
		t.Fatalf("states at night %d, by day %d, with the seat's own role %d, with a seat out %d; night choices made %d", nights, days, own, outs, answered)
	}
	t.Logf("result %q", last.Result)
}

// The leak check finds a role where it must not be.
func TestMafiaLeakCheck(t *testing.T) {
	roles := map[string]string{"Me": "Civilian", "Anna": "Don"}
	st := pageState{Seats: []seatview.Seat{{Name: "Me", You: true, Cards: []seatview.Card{{Name: "Civilian", Face: "known"}}},
		{Name: "Anna", Status: "alive", Cards: []seatview.Card{{Face: "down", Note: "role"}}}}}
	if leak := mafiaLeak(st, roles); leak != "" {
		t.Fatalf("a clean state: %s", leak)
	}
	for _, bad := range []seatview.Seat{
		{Name: "Anna", Status: "alive; the Don"},
		{Name: "Anna", Cards: []seatview.Card{{Name: "Don", Face: "up", Note: "role"}}},
		{Name: "Anna", Cards: []seatview.Card{{Name: "Misfire", Face: "known", Note: "hand"}}},
		{Name: "Anna", Cards: []seatview.Card{{Name: "Alibi", Face: "down", Note: "hand"}}},
	} {
		st.Seats[1] = bad
		if mafiaLeak(st, roles) == "" {
			t.Errorf("not found: %+v", bad)
		}
	}
}

// chatty is a local session with a table chat, as at a networked table.
type chatty struct {
	*localsession.Session
	mu    sync.Mutex
	lines []session.ChatLine
}

func (c *chatty) Chat(text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, session.ChatLine{Seat: 0, Name: "Me", Text: text})
	return nil
}

func (c *chatty) ChatLog() []session.ChatLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.lines)
}

// The dead may read the table chat but not write in it: once the seat
// is out the page says so and the screen refuses its messages, until
// the game is over.
func TestMafiaDeadMayNotChat(t *testing.T) {
	for seed := uint64(1); seed <= 16; seed++ {
		names := []string{"Me", "Anna", "Boris", "Sasha", "Dima"}
		ls, err := localsession.New(names, seed, localsession.Options{Game: "mafia", PublishKeys: true})
		if err != nil {
			t.Fatal(err)
		}
		cs := &chatty{Session: ls}
		srv, err := New(cs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		done := make(chan struct{})
		go func() { srv.Run(ctx); close(done) }()
		evs := events(t, ctx, srv.URL()+"events")
		played, barred, wrote, sent := uint64(0), false, false, 0
		for ev := range evs {
			st := ev.st
			if !st.Chat {
				t.Fatal("a table with a chat shows none")
			}
			out := false
			for _, s := range st.Seats {
				out = out || s.You && s.Out
			}
			if want := out && !st.Over; (st.ChatBarred != "") != want {
				t.Fatalf("out %v, over %v: chat barred %q", out, st.Over, st.ChatBarred)
			}
			if !wrote && st.Dealt && !out {
				if code, body, _ := post(srv, action{Op: "chat", Text: "hello"}); code != http.StatusNoContent {
					t.Fatalf("a living seat's chat: %d %s", code, body)
				}
				wrote, sent = true, sent+1
			}
			if out && !st.Over && !barred {
				code, _, _ := post(srv, action{Op: "chat", Text: "I was the Commissar!"})
				switch {
				case code == http.StatusConflict:
					barred = true
				case code == http.StatusNoContent && ls.Snapshot().Over:
					sent++ // the game ended meanwhile: the dead may write again
				default:
					t.Fatalf("a dead seat's chat: %d, want %d", code, http.StatusConflict)
				}
			}
			if st.Over {
				break
			}
			if st.Question != nil && !st.Busy && st.Ask != played {
				// Vote to hold the vote, then for someone, and accept
				// every attack and elimination: the seat may well go out.
				i := 0
				if st.Question.Forced {
					i = len(st.Question.Choices) - 1
				}
				post(srv, action{Op: "play", At: st.At, Ask: st.Ask, Choice: i})
				played = st.Ask
			}
		}
		cancel()
		<-done
		ls.Close()
		if n := len(cs.ChatLog()); n != sent {
			t.Fatalf("%d messages sent, want %d: the living seat's", n, sent)
		}
		if barred {
			return
		}
	}
	t.Fatal("the seat was never out before the end in 16 games: the dead's chat was not tested")
}
