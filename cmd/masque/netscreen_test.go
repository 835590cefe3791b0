package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/tui"
)

// screenDriver plays a seat on the play screen's model, fed with messages
// as Bubble Tea would (no terminal): snapshots of the session, then keys
// (a few cursor moves, enter, y/n for a hidden swap) whenever it is the
// seat's move, until the game is over; then it leaves with q.
type screenDriver struct {
	seed uint64

	mu      sync.Mutex
	title   string
	moves   int
	refused []string
	final   string // the last screen drawn
	over    bool
}

func (d *screenDriver) run(sess session.Session, opts tui.Options) (tui.Model, error) {
	rng := rand.New(rand.NewPCG(d.seed, 1))
	m := tui.New(sess, opts)
	upd := func(msg tea.Msg) tea.Cmd {
		nm, cmd := m.Update(msg)
		m = nm.(tui.Model)
		return cmd
	}
	key := func(k string) tea.Cmd {
		switch k {
		case "enter":
			return upd(tea.KeyMsg{Type: tea.KeyEnter})
		case "down":
			return upd(tea.KeyMsg{Type: tea.KeyDown})
		}
		return upd(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	upd(tea.WindowSizeMsg{Width: 120, Height: 80})
	upd(tui.Snapshot(sess))
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); {
		snap := m.Snap()
		if snap.Over {
			break
		}
		if !snap.MyTurn {
			select {
			case <-sess.Updates():
			case <-time.After(time.Second):
			}
			upd(tui.Snapshot(sess))
			upd(tui.TickMsg(time.Now()))
			continue
		}
		// A menu in steps opens the choices under a step on enter: a
		// few steps down, a move is played.
		var cmd tea.Cmd
		for depth := 0; depth < 5 && cmd == nil; depth++ {
			for range rng.IntN(4) {
				key("down")
			}
			cmd = key("enter")
			if cmd == nil { // a hidden swap: "really swap? y/n"
				cmd = key([]string{"y", "n"}[rng.IntN(2)])
			}
		}
		if cmd == nil {
			d.mu.Lock()
			d.refused = append(d.refused, "no move submitted on enter:\n"+m.View())
			d.mu.Unlock()
			break
		}
		sub, ok := cmd().(tui.SubmittedMsg)
		if !ok {
			break
		}
		d.mu.Lock()
		d.moves++
		if sub.Err != nil {
			d.refused = append(d.refused, sub.Err.Error())
		}
		d.mu.Unlock()
		upd(sub)
		upd(tui.Snapshot(sess))
	}
	d.mu.Lock()
	d.title, d.final, d.over = opts.Title, m.View(), m.Snap().Over
	d.mu.Unlock()
	key("q")
	return m, nil
}

// interactiveApp is an app whose seat is played on a driven screen, as if
// in a terminal, with stdin answering the host's question.
func interactiveApp(stdin string, out, errOut *syncBuffer, d *screenDriver) *app {
	a := newApp(strings.NewReader(stdin), out, errOut)
	a.terminal = func() bool { return true }
	a.screen = d.run
	return a
}

type netRunResult struct {
	code     int
	out, err string
}

// screenTable seats a table on loopback: the host and joiners run the
// 'masque host'/'masque join' commands in this process; interactive[i]
// plays seat i on a driven screen (the host answering keys as given),
// the others are --bot. It returns every run's result and the drivers.
func screenTable(t *testing.T, hostArgs []string, players int, interactive map[int]bool, keys string) ([]netRunResult, []*screenDriver, []string) {
	t.Helper()
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprintf("cfg%d", i)) }
	state := func(i int) string { return filepath.Join(dir, fmt.Sprintf("state%d", i)) }
	trs := make([]string, players)
	for i := range trs {
		trs[i] = filepath.Join(dir, fmt.Sprintf("t%d.masque", i))
	}
	results := make([]netRunResult, players)
	drivers := make([]*screenDriver, players)
	runSeat := func(i int, args []string, out *syncBuffer) {
		errOut := &syncBuffer{}
		var a *app
		if interactive[i] {
			drivers[i] = &screenDriver{seed: uint64(i) + 11}
			a = interactiveApp(keys, out, errOut, drivers[i])
		} else {
			a = newApp(nil, out, errOut)
			args = append(args, "--bot", "--seed", fmt.Sprint(i))
		}
		args = append(args, "--config", cfg(i), "--state", state(i), "--transcript", trs[i], "--listen", "/ip4/127.0.0.1/tcp/0")
		c := a.run(context.Background(), args)
		results[i] = netRunResult{c, out.String(), errOut.String()}
	}
	var wg sync.WaitGroup
	hostOut := &syncBuffer{}
	wg.Go(func() {
		runSeat(0, append([]string{"host", "--players", fmt.Sprint(players), "--name", "screen", "--player", "Host",
			"--no-mdns", "--wait", "60s"}, hostArgs...), hostOut)
	})
	invite := pollFor(inviteRE, 20*time.Second, hostOut.String)
	if invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no invite:\n%s", hostOut.String())
	}
	for i := 1; i < players; i++ {
		wg.Go(func() { runSeat(i, []string{"join", invite, "--player", fmt.Sprintf("P%d", i)}, &syncBuffer{}) })
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("seat %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, r.code, r.out, r.err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	first, err := os.ReadFile(trs[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < players; i++ {
		if got, err := os.ReadFile(trs[i]); err != nil || !bytes.Equal(first, got) {
			t.Errorf("seat %d's transcript differs from the host's (%v)", i, err)
		}
	}
	return results, drivers, trs
}

func checkDriver(t *testing.T, d *screenDriver, wantTitle string) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.moves == 0 || len(d.refused) > 0 || !d.over {
		t.Errorf("screen: %d moves, refused %q, over %v", d.moves, d.refused, d.over)
	}
	if !strings.Contains(d.title, wantTitle) {
		t.Errorf("screen title %q lacks %q", d.title, wantTitle)
	}
	if !strings.Contains(d.final, "game over") || !strings.Contains(d.final, "(you)") {
		t.Errorf("the last screen shows no end of the game:\n%s", d.final)
	}
}

// TestHostInteractive: the host plays on the screen (driven by messages)
// against two joining bots, answers no to the key release, and the table
// keeps the keys secret for everyone.
func TestHostInteractive(t *testing.T) {
	res, drivers, trs := screenTable(t, nil, 3, map[int]bool{0: true}, "n\n")
	checkDriver(t, drivers[0], "card keys kept secret")
	if h := res[0].out; !strings.Contains(h, "Publish every player's card keys") || !strings.Contains(h, "kept secret after the game (your choice)") ||
		!strings.Contains(h, "verified: ") {
		t.Errorf("host output:\n%s", h)
	}
	if j := res[1].out; !strings.Contains(j, "kept secret after the game (the host's choice") || !strings.Contains(j, "game: Mascarade\n") {
		t.Errorf("joiner output:\n%s", j)
	}
	// No key was published: the last entry is the end of the game.
	if code, out, errOut := runOut("replay", trs[1], "--reveal"); code == 0 {
		t.Errorf("replay --reveal of a table that kept its keys: exit 0\n%s%s", out, errOut)
	}
}

// TestJoinInteractiveSecondEdition: a joiner plays the 2nd edition on the
// screen; the host (a bot) kept the default key release.
func TestJoinInteractiveSecondEdition(t *testing.T) {
	res, drivers, trs := screenTable(t, []string{"--game", "mascarade2"}, 4, map[int]bool{2: true}, "")
	checkDriver(t, drivers[2], "card keys published at the end")
	if j := res[2].out; !strings.Contains(j, "game: Mascarade (2nd edition)") || !strings.Contains(j, "published at the end of the game (the host's choice") ||
		strings.Contains(j, "Publish every player's") {
		t.Errorf("joiner output:\n%s", j)
	}
	if !strings.Contains(drivers[2].final, "Mascarade (2nd edition)") {
		t.Errorf("screen:\n%s", drivers[2].final)
	}
	if code, out, errOut := runOut("replay", trs[0], "--reveal"); code != 0 {
		t.Errorf("replay --reveal: exit %d\n%s%s", code, out, errOut)
	}
}
