package web

import (
	"log/slog"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/masqview"
)

// TestPageWaitingForTheTablesWork: the --web page says what the table
// waits for when it is a seat's own work (session.Wait.What), as the
// terminal and the phone page do, not only the seat's name.
func TestPageWaitingForTheTablesWork(t *testing.T) {
	script, err := mascarade.ParseScript([]byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\nAnna swap Boris yes\n"))
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
	what := "Boris's step of the secret test of the night's votes (their masque sends it by itself)"
	fs := &fixedSession{upd: make(chan struct{}), snap: session.Snapshot{Seat: 3, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: tb.State, Viewer: masqview.First(),
		Waiting: &session.Wait{Seat: 1, Name: "Boris", What: what}}}
	now := time.Now()
	sc := newScreen(fs, Options{}, slog.New(slog.DiscardHandler))
	sc.refresh(now)
	sc.mu.Lock()
	st := sc.pageState(now)
	sc.mu.Unlock()
	if st.Waiting != what {
		t.Errorf("the page waits for %q, want %q", st.Waiting, what)
	}
}
