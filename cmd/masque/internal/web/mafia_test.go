package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
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
	st := pageState{Seats: []pageSeat{{Name: "Me", You: true, Cards: []pageCard{{Name: "Civilian", Face: "known"}}},
		{Name: "Anna", Status: "alive", Cards: []pageCard{{Face: "down", Note: "role"}}}}}
	if leak := mafiaLeak(st, roles); leak != "" {
		t.Fatalf("a clean state: %s", leak)
	}
	for _, bad := range []pageSeat{
		{Name: "Anna", Status: "alive; the Don"},
		{Name: "Anna", Cards: []pageCard{{Name: "Don", Face: "up", Note: "role"}}},
		{Name: "Anna", Cards: []pageCard{{Name: "Misfire", Face: "known", Note: "hand"}}},
		{Name: "Anna", Cards: []pageCard{{Name: "Alibi", Face: "down", Note: "hand"}}},
	} {
		st.Seats[1] = bad
		if mafiaLeak(st, roles) == "" {
			t.Errorf("not found: %+v", bad)
		}
	}
}
