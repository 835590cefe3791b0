package main

import (
	"github.com/masque-games/masque/engine/games/registry"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
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

// Two players on one machine with one config directory share an identity:
// the joiner is told so, and how to give each player their own, instead of
// libp2p's "dial to self attempted".
func TestJoinOwnIdentity(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cfg")
	logPath := filepath.Join(t.TempDir(), "host.log")
	hostErr := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"host", "--bot", "--players", "2", "--name", "self", "--no-mdns", "--wait", "4s", "--json", "--log", logPath,
			"--config", cfg, "--state", filepath.Join(t.TempDir(), "host"), "--listen", "/ip4/127.0.0.1/tcp/0"}, nil, io.Discard, hostErr)
	}()
	invite := pollFor(inviteRE, 15*time.Second, hostErr.String)
	if invite == "" {
		t.Fatalf("the host printed no invite:\n%s", hostErr.String())
	}
	code, _, errOut := runOut("join", "--bot", invite, "--config", cfg, "--listen", "/ip4/127.0.0.1/tcp/0")
	if code != exitUsage || !strings.Contains(errOut, "share the config directory") || !strings.Contains(errOut, "--config DIR") {
		t.Errorf("join with the host's own config: exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "dial to self") {
		t.Errorf("libp2p's error reaches the player:\n%s", errOut)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the host did not give up")
	}
	// --log: the host's diagnostics went to the file.
	if data, err := os.ReadFile(logPath); err != nil || !strings.Contains(string(data), "msg=masque") || !strings.Contains(string(data), "version=") {
		t.Errorf("--log file: %v\n%s", err, data)
	}
}

// A host announced nowhere (--no-mdns, no relay) prints no join code,
// which nobody could look up, and says what the joiners run instead:
// 'masque join' with its invite.
func TestHostNoMDNSSaysHowToJoin(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runOut("host", "--bot", "--players", "2", "--name", "quiet", "--no-mdns", "--wait", "3s",
		"--config", filepath.Join(dir, "cfg"), "--state", filepath.Join(dir, "host"), "--listen", "/ip4/127.0.0.1/tcp/0")
	if code != 1 || !strings.Contains(errOut, "not full after 3s") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	invite := ""
	if m := inviteRE.FindStringSubmatch(out); m != nil {
		invite = m[1]
	}
	if invite == "" || !strings.Contains(out, "others run 'masque join "+invite+"'") {
		t.Errorf("the host does not say how to join with its invite %q:\n%s", invite, out)
	}
	if regexp.MustCompile(`join code \w{4}-`).MatchString(out) {
		t.Errorf("the host prints a join code nobody can look up:\n%s", out)
	}
}

// The help of the commands that seat a player names every game masque
// plays, above its flags (the root's said "Mascarade" alone, join's left
// out Mafia).
func TestHelpNamesEveryGame(t *testing.T) {
	for _, cmd := range [][]string{{"--help"}, {"play", "--help"}, {"host", "--help"}, {"join", "--help"}} {
		_, out, _ := runOut(cmd...)
		text, _, _ := strings.Cut(out, "\nUsage:")
		text = strings.Join(strings.Fields(text), " ")
		for _, g := range registry.All() {
			name, _, _ := strings.Cut(g.Title(), ":") // "Mafia: Random Incident"
			name = strings.TrimSuffix(name, " (2nd edition)")
			if g.Name() == "mascarade2" {
				name = "2nd edition"
			}
			if !strings.Contains(text, name) {
				t.Errorf("masque %s does not name %s:\n%s", strings.Join(cmd, " "), name, text)
			}
		}
	}
}
