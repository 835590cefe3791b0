package tui

import (
	"log/slog"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/nightlogtest"
	"github.com/masque-games/masque/engine/seatview"
)

// TestNightChoiceLogSaysNothing performs the log-file attack: whoever
// reads a player's log file (shared for a bug report, left on a shared
// machine) learnt from "night choice sleep=true" that the seat is a
// civilian and from "sleep=false" that it holds a power, and from a
// refusal's reason the same. The play screen's log must now read the same
// for every night choice, accepted or refused, whatever it was.
func TestNightChoiceLogSaysNothing(t *testing.T) {
	nightlogtest.Check(t, func(c nightlogtest.Choice, lg *slog.Logger) {
		m := New(nightlogtest.Seat{Power: c.Power}, Options{NoColor: true, Logger: lg})
		n := c.N
		msg := m.run(seatview.Action{Play: seatview.Play{Night: &n}})()
		sub, ok := msg.(SubmittedMsg)
		if !ok || (sub.Err != nil) != c.Refused {
			t.Fatalf("%s: %#v", c.Name, msg)
		}
		m.Update(sub)
	})
}
