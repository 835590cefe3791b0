package tui

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade/masqview"
)

// evil are terminal attacks a peer can put in the text it controls: clear
// the screen, an OSC 8 hyperlink, an OSC 52 clipboard write, a carriage
// return that overwrites the line, a bidi override, a C1 CSI and bytes
// that are not UTF-8.
var evil = []string{"\x1b[2J", "\x1b]8;;https://evil.example\x1b\\", "\x1b]52;c;cm0gLXJm\x07", "\rBoris won", "\u202e", "\u2066", "\u009b2J", "\xff"}

// evilNames are rules whose player names (and so slot names and move
// texts) carry the attacks: a roster from a program that does not check.
type evilNames struct{ masqview.Rules }

func (e evilNames) Name(p engine.Seat) string {
	return e.Rules.Name(p) + evil[int(p)%len(evil)]
}
func (e evilNames) SlotName(x engine.Slot) string {
	return e.Rules.SlotName(x) + evil[int(x)%len(evil)]
}
func (e evilNames) FormatMove(m engine.Move) string { return e.Rules.FormatMove(m) + evil[0] }

// TestScreenEscapesPeerText performs the escape-injection attack on the
// play screen: names in the roster, the public log, whom the table waits
// for, a peer's verdict reason, a refusal and the title all carry control
// sequences. None may reach the terminal raw; each shows escaped.
func TestScreenEscapesPeerText(t *testing.T) {
	s := stateAfter(t, "Anna swap Boris yes\n")
	rules, _ := rulesOf(s)
	for _, c := range []struct {
		seat int
		over bool
	}{{1, false}, {2, false}, {2, true}} { // on turn, waiting for another, stopped
		seat := c.seat
		m, _ := screen(t, s, seat, Options{Title: "table \x1b[2J", NoColor: true}, func(snap *session.Snapshot) {
			snap.Over = c.over
			snap.Rules = evilNames{rules}
			for i := range snap.Names {
				snap.Names[i] += evil[i]
			}
			snap.Log = append(snap.Log, "turn 2  Boris"+strings.Join(evil, "")+" swap Anna")
			if snap.Waiting != nil {
				snap.Waiting.Name += evil[2]
			}
			snap.Verdict = "timeout: seat 3 " + strings.Join(evil, "")
		})
		m = step(t, m, SubmittedMsg{Err: errors.New("peer says \x1b]52;c;AAAA\x07")})
		view := m.View()
		for _, bad := range []string{"\x1b", "\r", "\a", "\u202e", "\u2066", "\u009b", "\xff"} {
			if strings.Contains(view, bad) {
				t.Errorf("seat %d: %q reached the screen raw:\n%q", seat, bad, view)
			}
		}
		// Long lines wrap: read them joined again, at a space or inside a word.
		joined := regexp.MustCompile(`\n +`).ReplaceAllString(view, " ")
		glued := regexp.MustCompile(`\n +`).ReplaceAllString(view, "")
		has := func(w string) bool { return strings.Contains(joined, w) || strings.Contains(glued, w) }
		for _, want := range []string{`\x1b[2J`, `\u202e`, `\x1b]52;c;`, `\rBoris won`, `\xff`} {
			if !has(want) || c.over && !has(`seat 3 \x1b[2J`) {
				t.Errorf("seat %d: the screen does not show %s escaped:\n%s", seat, want, view)
			}
		}
	}
}
