// Package nightlogtest is the log-file attack on a play screen's night
// choices, which the terminal and the web screens share in their tests:
// whoever reads a player's log file learnt from "night choice
// sleep=true" that the seat is a civilian, from "sleep=false" that it
// holds a power, and from a refusal's reason the same. [Check] makes a
// screen submit every kind of night choice, accepted and refused, and
// requires its log to read the same for each.
package nightlogtest

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
)

// Seat is a session of a seat at a game with secret night actions
// (session.Actor) that holds a night power or not: it
// takes a target from a power holder and sleep from a civilian, and
// refuses the other as the real sessions do.
type Seat struct {
	session.Session // unused: the test calls only the night choices
	Power           bool
}

// Decide accepts a target from a power holder only.
func (s Seat) Decide(uint8, engine.Seat) error {
	if !s.Power {
		return errors.New("you hold no such power now")
	}
	return nil
}

// Sleep accepts sleep from a civilian only.
func (s Seat) Sleep() error {
	if s.Power {
		return errors.New("you must choose first")
	}
	return nil
}

// Logger logs to buf as the play commands' log files do, without times.
func Logger(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
}

// Choice is a night choice a seat makes, and whether the table refuses it.
type Choice struct {
	Name    string
	Power   bool // the seat holds a night power
	N       seatview.Night
	Refused bool
}

// Choices are what a civilian and power holders choose at night, and
// what they try that the table refuses (which tells which one the seat is
// just as well).
var Choices = []Choice{
	{"civilian sleeps", false, seatview.Night{Sleep: true}, false},
	{"commissar checks seat 2", true, seatview.Night{Power: 1, Target: 2}, false},
	{"mafioso votes for seat 3", true, seatview.Night{Power: 2, Target: 3}, false},
	{"civilian picks a target", false, seatview.Night{Power: 1, Target: 2}, true},
	{"power holder sleeps", true, seatview.Night{Sleep: true}, true},
}

// Check runs submit for every one of [Choices], with a fresh [Logger]
// writing to a buffer; submit makes a screen over Seat{Power: c.Power}
// submit c.N and fails the test unless the screen accepted or refused it
// as c.Refused says. Check then requires each log to say a night choice
// was made, and the logs of all accepted (all refused) choices to be the
// same.
func Check(t *testing.T, submit func(c Choice, lg *slog.Logger)) {
	t.Helper()
	logs := map[bool]string{} // by refused
	for _, c := range Choices {
		var buf bytes.Buffer
		submit(c, Logger(&buf))
		got := buf.String()
		if !bytes.Contains(buf.Bytes(), []byte("night choice")) {
			t.Fatalf("%s: the log does not say a night choice was made:\n%s", c.Name, got)
		}
		if want, ok := logs[c.Refused]; ok && got != want {
			t.Errorf("%s: the log tells this night choice from another:\n%s\nwant\n%s", c.Name, got, want)
		}
		logs[c.Refused] = got
	}
}
