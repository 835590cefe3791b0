package games

import (
	"errors"
	"strings"
	"testing"
)

func TestScanScript(t *testing.T) {
	header := func(f []string) error {
		return HeaderPairs(f, "g", "game g players=NAMES", func(k, v string) error {
			if k != "players" {
				return errors.New("unknown key " + k)
			}
			return nil
		})
	}
	for _, tc := range []struct {
		name, src string
		lines     int
		err       string // "" for none; else the *ScriptError's text
	}{
		{"bom and comments", "\ufeff# c\n\ngame g players=A,B # x\nA go\n  # only a comment\nB go 1\n", 2, ""},
		{"missing header", "# nothing\n\n", 0, "line 2: missing header: game g players=NAMES"},
		{"wrong game", "game h players=A\n", 0, "line 1: the first line must be: game g players=NAMES"},
		{"key twice", "game g players=A players=B\n", 0, "line 1: header: players given twice"},
		{"bad key", "\ngame g colour=red\n", 0, "line 2: header: unknown key colour"},
		{"no value", "game g players=\n", 0, `line 1: header: expected KEY=VALUE, got "players="`},
		{"short line", "game g players=A\nA\n", 0, `line 2: expected SEAT VERB ARGS, got "A"`},
		{"stranger", "game g players=A\nZed go\n", 0, `line 2: no player named "Zed"`},
		{"too long", "game g players=A\n" + strings.Repeat("A go\n", 6), 0, "line 7: script too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			err := ScanScript([]byte(tc.src), 6, "game g players=NAMES", header, func(no int, text string, f []string) error {
				if err := SeatLine([]string{"A", "B"}, f, text); err != nil {
					return err
				}
				n++
				return nil
			})
			var se *ScriptError
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.err != "" && (!errors.As(err, &se) || err.Error() != tc.err):
				t.Fatalf("error %v, want *ScriptError %q", err, tc.err)
			case tc.err == "" && n != tc.lines:
				t.Fatalf("%d lines, want %d", n, tc.lines)
			}
		})
	}
}
