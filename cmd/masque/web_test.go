package main

import (
	"strings"
	"testing"
)

// --web's flags are checked before anything is done: a non-loopback
// address, --web-addr or --no-open without --web, and --bot with --web
// are usage errors.
func TestWebFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--web", "--web-addr", "0.0.0.0:8080"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "192.168.1.2:8080"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "example.com:80"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "127.0.0.1"}, "missing port"},
		{[]string{"play", "--web-addr", "127.0.0.1:0"}, "go with --web"},
		{[]string{"play", "--no-open"}, "go with --web"},
		{[]string{"host", "--web", "--web-addr", "[::]:80", "--config", t.TempDir()}, "loopback address only"},
		{[]string{"join", "--web", "--bot", "x", "--config", t.TempDir()}, "--bot and --web are exclusive"},
		{[]string{"join", "--no-open", "x", "--config", t.TempDir()}, "go with --web"},
	} {
		code, _, errOut := runOut(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("masque %s: exit %d (want %d)\n%s", strings.Join(c.args, " "), code, exitUsage, errOut)
		}
	}
}

func TestTranscriptNotes(t *testing.T) {
	got := transcriptNotes("g.masque", true, "when you leave")
	if len(got) != 3 || !strings.Contains(got[2], "masque replay g.masque --reveal") {
		t.Errorf("with keys published: %q", got)
	}
	got = transcriptNotes("g.masque", false, "when you leave")
	if len(got) != 3 || strings.Contains(got[2], "--reveal") {
		t.Errorf("with keys kept: %q", got)
	}
}
