package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// A spectator follows a table whose host is interrupted (Ctrl-C: its
// seat ends the watch stream as at a game's end) and run again: it
// follows again, at the restarted seat, to the game's end, and verifies
// the whole transcript; it does not stop with "the game is not
// finished". The restarted host announces its game again.
func TestWatchFollowsARestartedHost(t *testing.T) {
	if testing.Short() {
		t.Skip("processes")
	}
	dir := t.TempDir()
	hostArgs := []string{"host", "--bot", "--players", "2", "--name", "restarted", "--seed", "1", "--bot-delay", "300ms",
		"--no-mdns", "--config", filepath.Join(dir, "cfg0"), "--transcript", filepath.Join(dir, "t0.masque"), "--timeout", "60s"}
	host := startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h1.out"), append(hostArgs, "--listen", "/ip4/127.0.0.1/tcp/0")...)
	invite := host.waitFor(t, inviteRE, 20*time.Second)[1]
	join := startChild(t, filepath.Join(dir, "xdg1"), filepath.Join(dir, "j.out"), "join", "--bot", invite, "--seed", "2", "--bot-delay", "300ms",
		"--config", filepath.Join(dir, "cfg1"), "--transcript", filepath.Join(dir, "t1.masque"), "--timeout", "60s", "--listen", "/ip4/127.0.0.1/tcp/0")
	watch := startChild(t, filepath.Join(dir, "xdg2"), filepath.Join(dir, "w.out"), "watch", invite, "--transcript", filepath.Join(dir, "w.masque"),
		"--refresh", "50ms", "--listen", "/ip4/127.0.0.1/tcp/0")
	watch.waitFor(t, regexp.MustCompile(`turn 3 `), 30*time.Second)
	if err := host.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-host.done:
		host.done <- err
	case <-time.After(20 * time.Second):
		t.Fatalf("the host did not stop on Ctrl-C:\n%s", host.output())
	}
	// The same command again (no --listen: where it listened before).
	again := startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h2.out"), hostArgs...)
	again.wait(t, 90*time.Second)
	join.wait(t, 30*time.Second)
	watch.wait(t, 30*time.Second)
	watch.waitFor(t, regexp.MustCompile(`verified: \d+ entries`), time.Second)
	a, _ := os.ReadFile(filepath.Join(dir, "t0.masque"))
	b, err := os.ReadFile(filepath.Join(dir, "w.masque"))
	if err != nil || string(a) != string(b) {
		t.Fatalf("the spectator's transcript differs from the host's (%v)", err)
	}
}
