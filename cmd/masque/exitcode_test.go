package main

import (
	"io"
	"os"
	"path/filepath"
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
