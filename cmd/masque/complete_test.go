package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/p2p/lobby"
)

// Shell completion offers the values a flag or argument takes.
func TestCompletionValues(t *testing.T) {
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"__complete", "host", "--game", ""}, []string{"mascarade\n", "mascarade2\n", ":4"}, nil},
		{[]string{"__complete", "play", "--game", "mascarade"}, []string{"mascarade\n", "mascarade2\n"}, nil},
		{[]string{"__complete", "demo", "--scenario", "default-1"}, []string{"default-10\n", "default-12\n"}, []string{"default-4\n"}},
		{[]string{"__complete", "verify", ""}, []string{"masque\n", ":8"}, nil},
		{[]string{"__complete", "replay", ""}, []string{"masque\n", ":8"}, nil},
	} {
		code, out, _ := runOut(c.args...)
		if code != 0 {
			t.Errorf("%v: exit %d", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: completion lacks %q:\n%s", c.args, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%v: completion offers %q:\n%s", c.args, w, out)
			}
		}
	}
	// Table names heard on the LAN: open ones, once each, by prefix.
	got := openTableNames([]lobby.Table{
		{Name: "friday", Game: "mascarade", Taken: 1, Total: 4},
		{Name: "friday", Game: "mascarade", Taken: 2, Total: 4},
		{Name: "full", Game: "mascarade", Taken: 4, Total: 4},
		{Name: "fun\tny", Game: "mascarade", Taken: 1, Total: 4},
		{Name: "saturday", Game: "mascarade2", Taken: 1, Total: 5},
	}, "f")
	if strings.Join(got, ",") != "friday\tmascarade" {
		t.Errorf("table names %q", got)
	}
}

// 'masque man DIR' writes a manual page per command, from the --help text.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runOut("man", dir)
	if code != 0 {
		t.Fatalf("man: exit %d\n%s", code, errOut)
	}
	for _, page := range []string{"masque.1", "masque-host.1", "masque-join.1", "masque-verify.1", "masque-play.1"} {
		data, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Errorf("%s: %v", page, err)
			continue
		}
		if !strings.Contains(string(data), ".TH \"MASQUE\" \"1\"") {
			t.Errorf("%s is not a section 1 manual page:\n%.200s", page, data)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "masque-host.1")); !strings.Contains(string(data), "creator fingerprint") {
		t.Error("masque-host.1 lacks the --help text")
	}
}
