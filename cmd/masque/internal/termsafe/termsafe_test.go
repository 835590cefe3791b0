package termsafe

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", "Friday night", "Friday night"},
		{"other scripts and emoji kept", "Зоя 李 🎭 café", "Зоя 李 🎭 café"},
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example\x1b\click\x1b]8;;\x1b\`},
		{"OSC 52 clipboard, BEL-terminated", "\x1b]52;c;cm0gLXJmIH4=\x07", `\x1b]52;c;cm0gLXJmIH4=\x07`},
		{"carriage return overwrite", "Alice\rMallory", `Alice\rMallory`},
		{"newline and tab", "a\nb\tc", `a\nb\tc`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`},
		{"C1 CSI as a rune", "a\u009b2Jb", `a\u009b2Jb`},
		{"bidi override", "user\u202Egnp.exe", `user\u202egnp.exe`},
		{"bidi isolates and marks", "\u2066x\u2069\u200F\u061C", `\u2066x\u2069\u200f\u061c`},
		{"every override", "\u202A\u202B\u202C\u202D\u202E", `\u202a\u202b\u202c\u202d\u202e`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"invalid UTF-8", "a\xff\xc3b", `a\xff\xc3b`},
		{"raw C1 byte", "a\x9bb", `a\x9bb`},
		{"truncated rune at the end", "ab\xe2\x80", `ab\xe2\x80`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := String(c.in)
			if got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
			for _, r := range got {
				if unsafe(r) || r == 0xfffd && !strings.ContainsRune(c.in, 0xfffd) {
					t.Errorf("String(%q) = %q still holds %U", c.in, got, r)
				}
			}
			if String(got) != got {
				t.Errorf("String is not idempotent on %q", got)
			}
		})
	}
}

func TestStringsAndLines(t *testing.T) {
	if got := Strings([]string{"ok", "\x1b[31m"}); got[0] != "ok" || got[1] != `\x1b[31m` {
		t.Errorf("Strings: %q", got)
	}
	if Strings(nil) != nil {
		t.Error("Strings(nil) is not nil")
	}
	if got := Lines("one\x1b[2J\ntwo\r"); got != "one\\x1b[2J\ntwo\\r" {
		t.Errorf("Lines: %q", got)
	}
}
