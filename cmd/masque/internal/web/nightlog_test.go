package web

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/view"
	"github.com/masque-games/masque/engine"
)

// nightSeat is a session of a Mafia seat that holds a night power or
// not: it takes a target from a power holder and sleep from a civilian,
// and refuses the other as the real sessions do.
type nightSeat struct {
	session.Session // unused: the test calls only the night choices
	power           bool
}

func (s nightSeat) Decide(uint8, engine.Seat) error {
	if !s.power {
		return errors.New("you hold no such power now")
	}
	return nil
}

func (s nightSeat) Sleep() error {
	if s.power {
		return errors.New("you must choose first")
	}
	return nil
}

// TestNightChoiceLogSaysNothing is the tui test of the same name for the
// web screen: its log file said "night choice sleep=true" for a civilian
// and "sleep=false" for a power holder, and a refusal's reason. It must
// now read the same for every night choice, accepted or refused.
func TestNightChoiceLogSaysNothing(t *testing.T) {
	logs := map[bool]string{} // by refused
	for _, c := range []struct {
		name    string
		power   bool
		n       view.Night
		refused bool
	}{
		{"civilian sleeps", false, view.Night{Sleep: true}, false},
		{"commissar checks seat 2", true, view.Night{Power: 1, Target: 2}, false},
		{"mafioso votes for seat 3", true, view.Night{Power: 2, Target: 3}, false},
		{"civilian picks a target", false, view.Night{Power: 1, Target: 2}, true},
		{"power holder sleeps", true, view.Night{Sleep: true}, true},
	} {
		var buf bytes.Buffer
		lg := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug,
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}))
		sc := newScreen(nightSeat{power: c.power}, Options{}, lg)
		sc.submitNight(c.n)
		if refused := sc.status != ""; refused != c.refused {
			t.Fatalf("%s: status %q", c.name, sc.status)
		}
		got := buf.String()
		if !bytes.Contains(buf.Bytes(), []byte("night choice")) {
			t.Fatalf("%s: the log does not say a night choice was made:\n%s", c.name, got)
		}
		if want, ok := logs[c.refused]; ok && got != want {
			t.Errorf("%s: the log tells this night choice from another:\n%s\nwant\n%s", c.name, got, want)
		}
		logs[c.refused] = got
	}
}
