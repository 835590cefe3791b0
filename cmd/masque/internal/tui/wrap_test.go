package tui

import (
	"strings"
	"testing"
)

// TestWrap: a word that ends exactly at the width leaves its space
// behind, so the next line starts at the indent, not one space further.
func TestWrap(t *testing.T) {
	cases := []struct {
		s      string
		width  int
		indent int
		want   []string
	}{
		{"short", 20, 4, []string{"short"}},
		{"aaaa bbbb cccc dddd eeee", 14, 2, []string{"aaaa bbbb cccc", "  dddd eeee"}},
		{"aaaa bbbb cccc dddd eeee", 11, 0, []string{"aaaa bbbb", "cccc dddd", "eeee"}},
		{"the vote is held only if most want it.", 16, 4, []string{"the vote is held", "    only if most", "    want it."}},
		{"abcdefghijklmnopqrstuvwxyz end", 13, 2, []string{"abcdefghijklm", "  nopqrstuvwx", "  yz end"}},
	}
	for _, c := range cases {
		got := wrap(c.s, c.width, c.indent)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d, %d) = %q, want %q", c.s, c.width, c.indent, got, c.want)
		}
		for _, l := range got {
			if len([]rune(l)) > c.width {
				t.Errorf("wrap(%q, %d, %d): line %q is longer than the width", c.s, c.width, c.indent, l)
			}
		}
	}
}
