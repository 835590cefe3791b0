package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMafiaHostJoinKill9 plays Mafia at a 6-seat networked table of masque
// processes on loopback: 'masque host --bot --game mafia' and five 'masque
// join --bot'. After the second night the host and a joiner are killed
// with SIGKILL and the very same commands are run again: they resume, the
// game ends, the transcripts are identical and verified.
func TestMafiaHostJoinKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("processes")
	}
	const seats = 6
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprint("cfg", i)) }
	xdg := func(i int) string { return filepath.Join(dir, fmt.Sprint("xdg", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	hostArgs := []string{"host", "--bot", "--game", "mafia", "--players", fmt.Sprint(seats), "--name", "mafianet", "--player", "Anna", "--seed", "1",
		"--no-mdns", "--config", cfg(0), "--transcript", tr(0), "--timeout", "60s"}
	host := startChild(t, xdg(0), filepath.Join(dir, "h1.out"), append(hostArgs, "--listen", "/ip4/127.0.0.1/tcp/0")...)
	invite := host.waitFor(t, inviteRE, 20*time.Second)[1]
	joinArgs := func(i int) []string {
		return []string{"join", "--bot", invite, "--player", fmt.Sprint("P", i), "--seed", fmt.Sprint(i + 1),
			"--config", cfg(i), "--transcript", tr(i), "--timeout", "60s"}
	}
	joiners := make([]*child, seats)
	for i := 1; i < seats; i++ {
		joiners[i] = startChild(t, xdg(i), filepath.Join(dir, fmt.Sprintf("j%d.out", i)), append(joinArgs(i), "--listen", "/ip4/127.0.0.1/tcp/0")...)
	}
	host.waitFor(t, regexp.MustCompile(`(?m)^Night 2 is over`), 90*time.Second)
	host.kill(t)
	joiners[2].kill(t)
	if strings.Contains(joiners[2].output(), "verified: ") {
		t.Skipf("the game ended before the kill:\n%s", joiners[2].output())
	}
	host = startChild(t, xdg(0), filepath.Join(dir, "h2.out"), hostArgs...)
	joiners[2] = startChild(t, xdg(2), filepath.Join(dir, "j2b.out"), joinArgs(2)...)
	all := []*child{host}
	for i := 1; i < seats; i++ {
		all = append(all, joiners[i])
	}
	for _, c := range all {
		c.wait(t, 120*time.Second)
	}
	if h := host.output(); !strings.Contains(h, "rejoined") || !strings.Contains(h, "verified: ") {
		t.Errorf("the restarted host:\n%s", h)
	}
	first, err := os.ReadFile(tr(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < seats; i++ {
		if got, err := os.ReadFile(tr(i)); err != nil || !bytes.Equal(got, first) {
			t.Errorf("peer %d's transcript differs from the host's (%v)", i, err)
		}
	}
	code, out, errOut := runOut("verify", "--json", tr(1))
	if code != 0 || !strings.Contains(out, `"valid":true`) || !strings.Contains(out, `"game":"mafia"`) || !strings.Contains(out, `"over":true`) {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
}
