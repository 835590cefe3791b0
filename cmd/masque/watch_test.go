package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWatchLoopback: a spectator runs 'masque watch INVITE' as soon as
// the host prints its invite, while the table is still seating; it waits
// for the game, follows it live over a real libp2p connection (every
// entry checked as it arrives, the log shown as 'masque replay' shows
// it), and writes a transcript byte-identical to the seats' that 'masque
// verify' accepts. The seats are not slowed: they finish as usual.
func TestWatchLoopback(t *testing.T) {
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprintf("cfg%d", i)) }
	state := func(i int) string { return filepath.Join(dir, fmt.Sprintf("state%d", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	watched := filepath.Join(dir, "watched.masque")
	type res struct {
		code     int
		out, err string
	}
	results := make([]res, 3)
	var wres res
	hostErr := &syncBuffer{}
	var wg sync.WaitGroup
	wg.Go(func() {
		var out bytes.Buffer
		c := run([]string{"host", "--bot", "--players", "3", "--name", "watched", "--seed", "1",
			"--no-mdns", "--wait", "60s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, hostErr)
		results[0] = res{c, out.String(), hostErr.String()}
	})
	invite := pollFor(inviteRE, 20*time.Second, hostErr.String)
	if invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no invite:\n%s", hostErr.String())
	}
	wg.Go(func() {
		c, o, e := runOut("watch", invite, "--transcript", watched, "--refresh", "50ms", "--listen", "/ip4/127.0.0.1/tcp/0")
		wres = res{c, o, e}
	})
	// The spectator asks first; the joiners come a moment later.
	time.Sleep(300 * time.Millisecond)
	for i := 1; i < 3; i++ {
		wg.Go(func() {
			c, o, e := runOut("join", "--bot", invite, "--seed", fmt.Sprint(i),
				"--config", cfg(i), "--state", state(i), "--transcript", tr(i), "--listen", "/ip4/127.0.0.1/tcp/0")
			results[i] = res{c, o, e}
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("peer %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, r.code, r.out, r.err)
		}
	}
	if wres.code != 0 {
		t.Fatalf("watch: exit %d\nstdout:\n%s\nstderr:\n%s", wres.code, wres.out, wres.err)
	}
	for _, want := range []string{"watching table", "verified: "} {
		if !strings.Contains(wres.err, want) {
			t.Errorf("watch progress lacks %q:\n%s", want, wres.err)
		}
	}
	if !strings.Contains(wres.out, "replay of a game of Mascarade") {
		t.Errorf("watch showed no replay of the log:\n%s", wres.out)
	}
	seat, _ := os.ReadFile(tr(0))
	got, err := os.ReadFile(watched)
	if err != nil || !bytes.Equal(seat, got) {
		t.Fatalf("the spectator's transcript differs from the host's (%v)", err)
	}
	if code, out, errOut := runOut("verify", watched); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
}
