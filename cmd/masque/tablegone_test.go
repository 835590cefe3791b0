package main

import (
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestJoinerToldTableGone: 'masque host' is killed with SIGKILL while
// seating (one joiner seated, the roster not offered yet). In "rerun" the
// same command is run again with --new: it opens a new table (the same
// command without --new resumes the table: TestHostResumesSeating), and
// the joiner seated at the first, asking again for its seat, is told
// plainly that the table it sat at is gone, which seat it held, and to
// join the host's new table. In "gone" the host does not
// come back: after the joiner's patience (--timeout) it is told that the
// host of its table stopped answering before the game began, which seat
// it held, and that the table is gone if the host's masque stopped. Each
// exits 1. The version before said only "refused: p2p: join …: refused:
// no such table" under a hint to look for tables with free seats, or
// "no contact with the creator" under one to ask the host whether it
// still has a seat open.
func TestJoinerToldTableGone(t *testing.T) {
	if testing.Short() {
		t.Skip("processes")
	}
	for _, tc := range []struct {
		name  string
		rerun []string // the arguments added to the rerun (nil: no rerun)
		said  string   // what the rerun says
		want  []string
	}{
		{"rerun", []string{"--new"}, "", []string{"the table you sat at is gone", "you held seat 1", "join the host's new table"}},
		// Run again with other options, the host cannot resume the table
		// (its seated players chose it as it was): it says so and opens
		// a new one.
		{"other options", []string{"--players", "4"}, "cannot be resumed (players 3, now 4): opening a new table",
			[]string{"the table you sat at is gone", "you held seat 1"}},
		{"gone", nil, "", []string{"the host of the table you sat at stopped answering before the game began", "you held seat 1", "the table is gone with your seat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// The host listens where it did before when run again, as a
			// player who gives --listen does.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := ln.Addr().(*net.TCPAddr).Port
			ln.Close()
			hostArgs := []string{"host", "--bot", "--players", "3", "--name", "gone", "--player", "Anna", "--no-mdns",
				"--config", filepath.Join(dir, "cfg0"), "--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port), "--timeout", "60s"}
			host := startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h1.out"), hostArgs...)
			invite := host.waitFor(t, inviteRE, 20*time.Second)[1]
			joiner := startChild(t, filepath.Join(dir, "xdg1"), filepath.Join(dir, "j1.out"), "join", "--bot", invite, "--player", "Bob",
				"--config", filepath.Join(dir, "cfg1"), "--listen", "/ip4/127.0.0.1/tcp/0", "--timeout", "5s")
			joiner.waitFor(t, regexp.MustCompile(`seated at .* as seat 1`), 20*time.Second)
			host.waitFor(t, regexp.MustCompile(`2/3 seated`), 20*time.Second)
			host.kill(t)
			if tc.rerun != nil {
				host = startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h2.out"), append(hostArgs, tc.rerun...)...)
				host.waitFor(t, regexp.MustCompile(`waiting for players: 1/\d seated`), 20*time.Second)
				if !strings.Contains(host.output(), tc.said) {
					t.Errorf("the rerun host does not say %q:\n%s", tc.said, host.output())
				}
			}
			select {
			case err := <-joiner.done:
				joiner.done <- err
			case <-time.After(60 * time.Second):
				t.Fatalf("the joiner still waits a minute after its table is gone:\n%s", joiner.output())
			}
			out := joiner.output()
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the joiner does not say %q:\n%s", want, out)
				}
			}
			if code := joiner.cmd.ProcessState.ExitCode(); code != 1 {
				t.Errorf("the joiner exits %d, want 1", code)
			}
		})
	}
}
