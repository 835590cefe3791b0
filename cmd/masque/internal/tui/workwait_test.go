package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// TestWaitingForTheTablesWork: when the table waits for a seat's own
// work (session.Wait.What: a Mafia seat's count of the night's votes,
// which its masque posts by itself), the screen says so, as the phone
// page does, not only the seat's name.
func TestWaitingForTheTablesWork(t *testing.T) {
	s := stateAfter(t, "Anna swap Boris yes\n")
	what := "Boris's count of the night's votes (their masque sends it by itself)"
	m, _ := screen(t, s, 0, Options{}, func(sn *session.Snapshot) {
		sn.MyTurn = false
		sn.Waiting = &session.Wait{Seat: 1, Name: "Boris", What: what}
	})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "waiting for "+what) {
		t.Errorf("the screen does not say what the table waits for:\n%s", v)
	}
}
