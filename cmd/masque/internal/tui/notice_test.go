package tui

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/seatview"
)

// A notice's title and its text read as one line: a colon after a title
// that is not a question ("This morning: You were attacked.", "The vote:
// 2 of 6 voted"), none after one that is ("Vote today? 0 of 6 answered").
func TestNoticeTitleAndText(t *testing.T) {
	m := Model{st: newStyles(true)}
	for _, c := range []struct{ title, text, want string }{
		{"This morning", "You were attacked.", "This morning: You were attacked."},
		{"The vote", "2 of 6 voted: Anna 2", "The vote: 2 of 6 voted: Anna 2"},
		{"Vote today?", "0 of 6 answered", "Vote today? 0 of 6 answered"},
		{"Claim", "Anna claims to be the King", "Claim: Anna claims to be the King"},
	} {
		m.tv = &seatview.Table{Notices: []seatview.Notice{{Title: c.title, Text: c.text}}}
		var b strings.Builder
		m.viewNotices(&b)
		if got := strings.TrimSpace(b.String()); got != c.want {
			t.Errorf("notice %q: %q, want %q", c.title, got, c.want)
		}
	}
}
