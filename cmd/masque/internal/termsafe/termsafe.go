// Package termsafe makes text that others wrote safe to print on a
// terminal: table and player names from mDNS advertisements and rosters,
// verdict reasons and refusals from peers, narration that quotes them.
//
// A peer that could put raw control characters on our terminal could clear
// the screen (ESC [2J), rewrite what was printed before (CR, cursor
// moves), plant hyperlinks (OSC 8) or write to the clipboard (OSC 52), and
// reorder what is shown with Unicode bidi controls (U+202E makes "txt.exe"
// read "exe.txt"). [String] escapes all of them in a visible form instead:
// the text stays readable and the trick shows.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether r must not reach a terminal as is: C0 controls,
// DEL, C1 controls, the bidi embeddings, overrides and isolates
// (U+202A..U+202E, U+2066..U+2069), the bidi marks (U+200E, U+200F,
// U+061C) and the line and paragraph separators (U+2028, U+2029).
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// String returns s with every character a terminal would act on rather
// than show escaped visibly: tab, newline and carriage return as \t, \n and
// \r, other C0 controls, DEL and bytes that are not UTF-8 as \xHH (ESC is
// \x1b), C1 controls and the bidi and separator characters as \uHHHH
// (\u202e). Everything else, other scripts and emoji included, is kept.
// Backslashes are kept as they are: a peer can write "\x1b" as text, but
// that only prints four harmless characters.
func String(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafe(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Strings applies [String] to each element of ss, in a new slice.
func Strings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = String(s)
	}
	return out
}

// Lines is [String] for text of several lines: each line is made safe and
// the newlines between them are kept.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = String(l)
	}
	return strings.Join(lines, "\n")
}
