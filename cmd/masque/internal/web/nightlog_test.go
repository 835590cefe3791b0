package web

import (
	"log/slog"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/nightlogtest"
	"github.com/masque-games/masque/engine/seatview"
)

// TestNightChoiceLogSaysNothing is the tui test of the same name for the
// web screen: its log file said "night choice sleep=true" for a civilian
// and "sleep=false" for a power holder, and a refusal's reason. It must
// now read the same for every night choice, accepted or refused.
func TestNightChoiceLogSaysNothing(t *testing.T) {
	nightlogtest.Check(t, func(c nightlogtest.Choice, lg *slog.Logger) {
		sc := newScreen(nightlogtest.Seat{Power: c.Power}, Options{}, lg)
		n := c.N
		sc.play(seatview.Action{Play: seatview.Play{Night: &n}})
		if refused := sc.status != ""; refused != c.Refused {
			t.Fatalf("%s: status %q", c.Name, sc.status)
		}
	})
}
