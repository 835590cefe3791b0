package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/spectate"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// A spectator's page ('masque watch --web') draws the table as an
// auditor sees it, growing entry by entry: no seat is the viewer's, no
// card is known to it, no question is asked and nothing can be played;
// the cards every seat's published key opens show at the end.
func TestSpectatorPage(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
	}{{"mascarade", 4}, {"grimm", 3}, {"mafia", 5}} {
		t.Run(tc.game, func(t *testing.T) {
			// A whole game, played by the seat's page against bots, gives
			// the transcript the spectator follows.
			played, ls := newLocal(t, tc.game, tc.players, Options{})
			serve(t, played)
			playByEvents(t, played, 2*time.Minute)
			tr := ls.Transcript()
			tab, sp := followOpening(t, tr)
			srv, err := New(sp, Options{Title: "watching"})
			if err != nil {
				t.Fatal(err)
			}
			serve(t, srv)
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			evs := events(t, ctx, srv.URL()+"events")
			go func() {
				if feed(t, tab, sp, tr.Entries, 0) {
					sp.End("")
				}
			}()
			var last pageState
			states, faceDown, opened, logged := 0, 0, 0, 0
			for ev := range evs {
				st := ev.st
				states++
				if err := faceDownNamed(ev.raw); err != nil {
					t.Fatal(err)
				}
				if st.Question != nil || st.Me != "" || !st.Watching {
					t.Fatalf("a spectator is asked %v, is %q, watching %v", st.Question, st.Me, st.Watching)
				}
				for _, l := range st.Memory { // only public facts (a Grimm round's winner)
					if strings.Contains(strings.ToLower(l), "you") {
						t.Fatalf("a spectator remembers %q", l)
					}
				}
				for _, s := range st.Seats {
					if s.You {
						t.Fatalf("a spectator sits at %s", s.Name)
					}
					for _, c := range s.Cards {
						switch c.Face {
						case "known":
							t.Fatalf("a spectator knows %s's card %s", s.Name, c.Name)
						case "down":
							faceDown++
						}
					}
				}
				if strings.Contains(strings.Join(st.Result, " "), "you") || strings.Contains(st.Outcome, "you") {
					t.Fatalf("the result speaks to the spectator: %q, %q", st.Result, st.Outcome)
				}
				logged = max(logged, len(st.Log))
				last = st
				if st.Over {
					// The rules' end comes first, then the published keys
					// open every card.
					for _, s := range st.Seats {
						for _, c := range s.Cards {
							if c.Face == "up" && c.Note != "" {
								opened++
							}
						}
					}
					if opened > 0 {
						break
					}
				}
			}
			if !last.Over || len(last.Result) == 0 {
				t.Fatalf("the end: over %v, result %q (verdict %q)", last.Over, last.Result, last.Verdict)
			}
			if faceDown == 0 || opened == 0 || logged < 5 || states < 3 {
				t.Fatalf("%d states, %d face-down cards, %d opened at the end, %d log lines", states, faceDown, opened, logged)
			}
			if code, _, _ := post(srv, action{Op: "play", At: last.At, Choice: 0}); code != http.StatusConflict {
				t.Errorf("a spectator's play: %d, want %d", code, http.StatusConflict)
			}
		})
	}
}

// followOpening returns a table at tr's opening and a spectator that
// has followed it there.
func followOpening(t *testing.T, tr *ledger.Transcript) (*table.Table, *spectate.Session) {
	t.Helper()
	g, err := registry.Lookup(tr.Roster.Game)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := table.New(tr.Roster, g.Table())
	if err != nil {
		t.Fatal(err)
	}
	sp := spectate.New(g)
	if err := sp.Follow(tab, nil); err != nil {
		t.Fatal(err)
	}
	return tab, sp
}

// feed applies entries to tab one by one, sp following each, and waits
// pause (if any) after each. On an error it reports it with t.Error (it
// may run on a goroutine of its own) and returns false at once.
func feed(t *testing.T, tab *table.Table, sp *spectate.Session, entries []*ledger.Entry, pause time.Duration) bool {
	for _, e := range entries {
		if err := tab.Apply(e); err != nil {
			t.Error(err)
			return false
		}
		if err := sp.Follow(tab, e); err != nil {
			t.Error(err)
			return false
		}
		if pause > 0 {
			time.Sleep(pause)
		}
	}
	return true
}
