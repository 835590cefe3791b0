package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Exit statuses mean the same for every command: 2 for the command line,
// 3 for a file that is unreadable or damaged (never 1, which names a seat
// to blame).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.masque")
	os.WriteFile(garbage, []byte("not a transcript\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"nosuch"}, exitUsage, "'masque --help' lists the commands"},
		{[]string{"replay"}, exitUsage, "usage: masque replay FILE"},
		{[]string{"verify"}, exitUsage, "usage: masque verify FILE"},
		{[]string{"verify", "--nosuch", "x"}, exitUsage, "--help"},
		{[]string{"verify", filepath.Join(dir, "missing.masque")}, exitDamaged, "no such file"},
		{[]string{"replay", filepath.Join(dir, "missing.masque")}, exitDamaged, "no such file"},
		{[]string{"verify", garbage}, exitDamaged, "not a whole transcript"},
		{[]string{"replay", garbage}, exitDamaged, "not a whole transcript"},
		{[]string{"verify", "--json", garbage}, exitDamaged, ""},
	} {
		code, _, errOut := runOut(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("masque %s: exit %d (want %d)\n%s", strings.Join(c.args, " "), code, c.code, errOut)
		}
	}
	code, out, _ := runOut("--help")
	if code != 0 || !strings.Contains(out, "Exit status, for every command:") || !strings.Contains(out, "3  a file is unreadable") {
		t.Errorf("--help does not document the exit statuses:\n%s", out)
	}
}
