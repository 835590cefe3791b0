package wirefmt

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/cryptobyte"
)

// TestFinish: a field's error, a failed read and trailing bytes each make
// an error naming the message; a frame read to its end makes none.
func TestFinish(t *testing.T) {
	cases := []struct {
		name string
		rest cryptobyte.String
		ok   bool
		err  error
		want string
	}{
		{"read to the end", nil, true, nil, ""},
		{"a field's error", nil, true, errors.New("seat: 19"), "message type 3 (x): seat: 19"},
		{"a failed read", nil, false, nil, "message type 3 (x): truncated or over a limit"},
		{"trailing bytes", cryptobyte.String{1, 2}, true, nil, "message type 3 (x): 2 trailing bytes after the last field"},
		{"the field's error first", cryptobyte.String{1}, false, errors.New("name: truncated"), "message type 3 (x): name: truncated"},
	}
	for _, c := range cases {
		err := Finish(3, "x", c.rest, c.ok, c.err)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestTruncate: a cut text never ends inside a UTF-8 character.
func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"}, // é is 2 bytes
		{"€€", 4, "€"}, // € is 3 bytes
		{"€", 2, ""},
	} {
		if got := Truncate(c.s, c.n); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	if got := Truncate(strings.Repeat("é", 600), 1024); len(got) != 1024 {
		t.Errorf("600 é cut to 1024 bytes: %d", len(got))
	}
}
