package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
)

// child is a masque process run from the test binary (childArgsEnv),
// its outputs in files.
type child struct {
	cmd      *exec.Cmd
	out, err string
	done     chan error
}

// startChild starts masque with args, XDG_STATE_HOME set to xdg, its
// output and errors in out and out+".err".
func startChild(t *testing.T, xdg, out string, args ...string) *child {
	t.Helper()
	js, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: exec.Command(os.Args[0]), out: out, err: out + ".err", done: make(chan error, 1)}
	c.cmd.Env = append(os.Environ(), childArgsEnv+"="+string(js), "XDG_STATE_HOME="+xdg)
	o, err := os.Create(c.out)
	if err != nil {
		t.Fatal(err)
	}
	e, err := os.Create(c.err)
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Stdout, c.cmd.Stderr = o, e
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.done <- c.cmd.Wait()
		o.Close()
		e.Close()
	}()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		<-c.done
		c.done <- nil
	})
	return c
}

// output is what the child printed so far (standard output, then errors).
func (c *child) output() string {
	o, _ := os.ReadFile(c.out)
	e, _ := os.ReadFile(c.err)
	return string(o) + string(e)
}

// waitFor waits until the child's output matches re.
func (c *child) waitFor(t *testing.T, re *regexp.Regexp, limit time.Duration) []string {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(c.output()); m != nil {
			return m
		}
		select {
		case err := <-c.done:
			c.done <- err
			t.Fatalf("%s ended (%v) before printing %q:\n%s", c.out, err, re, c.output())
		default:
		}
	}
	t.Fatalf("%s did not print %q in %v:\n%s", c.out, re, limit, c.output())
	return nil
}

// kill kills the child with SIGKILL and waits for it.
func (c *child) kill(t *testing.T) {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err
		t.Fatalf("%s ended (%v) before it could be killed:\n%s", c.out, err, c.output())
	default:
	}
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err := <-c.done
	c.done <- err
}

// wait waits for the child's end and fails unless it exited 0.
func (c *child) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err
		if err != nil {
			t.Fatalf("%s: %v:\n%s", c.out, err, c.output())
		}
	case <-time.After(limit):
		t.Fatalf("%s did not end in %v:\n%s", c.out, limit, c.output())
	}
}

// TestGrimmHostJoinKill9 plays The Grimm Masquerade at a 3-seat networked
// table of masque processes on loopback: 'masque host --bot --game grimm'
// and two 'masque join --bot'. Mid-game (in round 2) the host and a
// joiner are killed with SIGKILL, and the very same commands (no --state:
// each finds its unfinished table) are run again: they resume, the game
// ends, the three transcripts are identical and verified. Each seat kept
// its secrets beside its state with mode 0600.
func TestGrimmHostJoinKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("processes")
	}
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprint("cfg", i)) }
	xdg := func(i int) string { return filepath.Join(dir, fmt.Sprint("xdg", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	// The first run listens on a loopback port of its own choosing; the
	// same command run again listens where it did before (the state
	// directory remembers it) when given no --listen: that is what a
	// player types, who gives none.
	hostArgs := []string{"host", "--bot", "--game", "grimm", "--players", "3", "--name", "grimmnet", "--player", "Anna", "--seed", "1",
		"--no-mdns", "--config", cfg(0), "--transcript", tr(0), "--timeout", "60s"}
	host := startChild(t, xdg(0), filepath.Join(dir, "h1.out"), append(hostArgs, "--listen", "/ip4/127.0.0.1/tcp/0")...)
	invite := host.waitFor(t, inviteRE, 20*time.Second)[1]
	joinArgs := func(i int) []string {
		return []string{"join", "--bot", invite, "--player", fmt.Sprint("P", i), "--seed", fmt.Sprint(i + 1),
			"--config", cfg(i), "--transcript", tr(i), "--timeout", "60s"}
	}
	joiners := make([]*child, 3)
	for i := 1; i <= 2; i++ {
		joiners[i] = startChild(t, xdg(i), filepath.Join(dir, fmt.Sprintf("j%d.out", i)), append(joinArgs(i), "--listen", "/ip4/127.0.0.1/tcp/0")...)
	}
	round2 := regexp.MustCompile(`(?m)^round 2: `)
	host.waitFor(t, round2, 60*time.Second)
	host.kill(t)
	// The table waits for the host: joiner 2 is killed mid-game too.
	joiners[2].kill(t)
	if strings.Contains(joiners[2].output(), "game over") {
		t.Fatalf("joiner 2 saw the end before it was killed:\n%s", joiners[2].output())
	}
	host = startChild(t, xdg(0), filepath.Join(dir, "h2.out"), hostArgs...)
	joiners[2] = startChild(t, xdg(2), filepath.Join(dir, "j2b.out"), joinArgs(2)...)
	for _, c := range []*child{host, joiners[1], joiners[2]} {
		c.wait(t, 90*time.Second)
	}
	if h := host.output(); !strings.Contains(h, "resuming your unfinished table") || !strings.Contains(h, "rejoined") || !strings.Contains(h, "verified: ") {
		t.Errorf("the restarted host:\n%s", h)
	}
	if j := joiners[2].output(); !strings.Contains(j, "resuming your unfinished game") || !strings.Contains(j, "rejoined") {
		t.Errorf("the restarted joiner:\n%s", j)
	}
	first, err := os.ReadFile(tr(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		if got, err := os.ReadFile(tr(i)); err != nil || !bytes.Equal(got, first) {
			t.Errorf("peer %d's transcript differs from the host's (%v)", i, err)
		}
	}
	code, out, errOut := runOut("verify", "--json", tr(1))
	if code != 0 || !strings.Contains(out, `"valid":true`) || !strings.Contains(out, `"game":"grimm"`) || !strings.Contains(out, `"over":true`) {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
	// Every seat's secrets beside its state: 0600.
	for i := range 3 {
		salts := 0
		filepath.WalkDir(xdg(i), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch d.Name() {
			case netsession.SealSaltFile, netsession.ShufflesFile, netsession.SwapBitsFile:
				if d.Name() == netsession.SealSaltFile {
					salts++
				}
				if fi, err := d.Info(); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v (%v)", path, fi.Mode(), err)
				}
			}
			return nil
		})
		if salts != 1 {
			t.Errorf("peer %d: %d seal salt files in its state", i, salts)
		}
	}
}

// TestJoinInteractiveGrimm: a joiner plays The Grimm Masquerade on the
// screen (the generic view path, driven by messages) at a networked table
// of 'masque host --game grimm' and another joining bot; the three
// transcripts are identical and the screen ends on the game's result.
func TestJoinInteractiveGrimm(t *testing.T) {
	res, drivers, trs := screenTable(t, []string{"--game", "grimm"}, 3, map[int]bool{1: true}, "")
	checkDriver(t, drivers[1], "card keys published at the end")
	if j := res[1].out; !strings.Contains(j, "game: The Grimm Masquerade") || !strings.Contains(j, "verified: ") {
		t.Errorf("joiner output:\n%s", j)
	}
	if h := res[0].out; !strings.Contains(h, "open for 3 players (The Grimm Masquerade)") {
		t.Errorf("host output:\n%s", h)
	}
	if !strings.Contains(drivers[1].final, "The Grimm Masquerade") || !strings.Contains(drivers[1].final, "roses") {
		t.Errorf("screen:\n%s", drivers[1].final)
	}
	if code, out, errOut := runOut("verify", trs[2]); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
}

// A joiner is told the game with its variants: the host chose them.
func TestRosterGameTellsVariants(t *testing.T) {
	for _, c := range []struct {
		game, scenario, want string
	}{
		{"grimm", "", "The Grimm Masquerade"},
		{"grimm", "jewels,abilities", "The Grimm Masquerade (variants: jewels, abilities)"},
		{"grimm", "bets", "The Grimm Masquerade (variants: bets)"},
		{"mascarade", "", "Mascarade"},
	} {
		setup, err := gameSetup(registry.All(), &c.game, c.scenario, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"Anna", "Boris", "Sasha"}
		opts, err := netsession.TableOptions(c.game, names, setup, true, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := newApp(nil, nil, nil).rosterGame(&ledger.Roster{Game: c.game, Options: opts}); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.game, c.scenario, got, c.want)
		}
	}
}
