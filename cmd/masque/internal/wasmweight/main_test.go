package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: the probe does what it links (a seat at a local table of bots,
// its first view; a transcript replayed), so the weight it gives is the
// weight of code that runs, and it refuses what it cannot do.
func TestRun(t *testing.T) {
	for _, game := range []string{"mascarade", "grimm", "mafia"} {
		var out bytes.Buffer
		if err := run([]string{"play", game, "5"}, nil, &out); err != nil {
			t.Fatalf("play %s: %v", game, err)
		}
		if !strings.HasPrefix(out.String(), "{Game:") {
			t.Errorf("play %s: %q, want the seat's view", game, out.String())
		}
	}
	for name, want := range map[string]string{
		"honest-grimm-3-bots.masque":   "grimm: 379 entries, verified",
		"damaged-bad-signature.masque": "error: no game replays this transcript",
		"honest-mafia-6-bots.masque":   "mafia: ",
	} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "vectors", name))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = run([]string{"replay"}, f, &out)
		f.Close()
		got := out.String()
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("replay %s: %q, want %q", name, got, want)
		}
	}
	for _, tc := range []struct {
		args []string
		in   string
		want string
	}{
		{nil, "", "usage"},
		{[]string{"play", "mascarade"}, "", "usage"},
		{[]string{"play", "mascarade", "x"}, "", `players "x"`},
		{[]string{"replay"}, "not a transcript", "transcript"},
		{[]string{"dance"}, "", `unknown command "dance"`},
	} {
		err := run(tc.args, strings.NewReader(tc.in), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one with %q", tc.args, err, tc.want)
		}
	}
}
