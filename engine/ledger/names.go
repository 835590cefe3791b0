package ledger

import "unicode/utf8"

// printableName reports whether a roster name (a seat's or the game's) is
// valid UTF-8 without control characters (C0, DEL, C1) or the Unicode
// bidi embeddings, overrides and isolates (U+202A..U+202E,
// U+2066..U+2069). Names are shown to people: such characters could clear
// or rewrite their terminal or reorder what they read, so a roster
// carrying them is refused before it enters a log. (Programs still escape
// what they print: a transcript may come from a program that does not
// check.)
func printableName(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return false
		}
	}
	return true
}
