package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/games/toygame"
	"github.com/masque-games/masque/engine/ledger"
)

// withToyGame is the registry's games and a fifth, the toy game, added
// with one line as the registry adds a game.
func withToyGame() []games.Game {
	return append(registry.All(), games.WithView(games.WithBot(toygame.Game{}, toygame.NewBot), toygame.Viewer()))
}

// runToy runs masque's real commands with the toy game added; it returns
// the exit status and what was printed.
func runToy(t *testing.T, a *app, args ...string) (int, string) {
	t.Helper()
	out, errOut := a.stdout.(*syncBuffer), a.stderr.(*syncBuffer)
	code := a.run(context.Background(), args)
	return code, out.String() + errOut.String()
}

// toyWinner returns the winner of the toy game transcript at path, read
// from its final state (every card revealed).
func toyWinner(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ledger.UnmarshalTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	res, fault := verifyTranscript(withToyGame(), tr)
	if fault != nil || res.Final == nil || !res.Final.Over || len(res.Final.Winners) != 1 {
		t.Fatalf("%s: %+v, %v: want a finished game with one winner", path, res, fault)
	}
	return res.Final.Winners[0]
}

// checkToyTranscript runs 'masque verify' and 'masque replay --reveal'
// on a finished toy game's transcript: both pass and name the winner.
func checkToyTranscript(t *testing.T, path string) {
	t.Helper()
	winner := toyWinner(t, path)
	newToy := func() *app { return newAppGames(nil, &syncBuffer{}, &syncBuffer{}, withToyGame()) }
	code, out := runToy(t, newToy(), "verify", path)
	if code != 0 || !strings.Contains(out, "valid") || !strings.Contains(out, "Won by "+winner) {
		t.Errorf("verify %s: exit %d, want 0, valid, won by %s:\n%s", path, code, winner, out)
	}
	code, out = runToy(t, newToy(), "replay", path, "--reveal")
	if code != 0 || !strings.Contains(out, "Won by "+winner) || !strings.Contains(out, winner+" holds the") {
		t.Errorf("replay %s --reveal: exit %d, want 0 naming the winner %s:\n%s", path, code, winner, out)
	}
	// Without the toy game, the same commands do not know it: the games
	// came from the list, not from a registry read behind its back.
	code, out = runToy(t, newAppGames(nil, &syncBuffer{}, &syncBuffer{}, registry.All()), "verify", path)
	if code == 0 {
		t.Errorf("verify without the toy game passed:\n%s", out)
	}
}

// TestToyGameScript: a fifth game added with one line (withToyGame) is
// played by 'masque script', then verified and replayed.
func TestToyGameScript(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "toy.script")
	tr := filepath.Join(dir, "toy.masque")
	script := "game toygame players=Anna,Boris,Clara\nAnna peek\nBoris pass\nClara peek\nAnna pass\nBoris peek\nClara pass\n"
	if err := os.WriteFile(src, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newAppGames(nil, &syncBuffer{}, &syncBuffer{}, withToyGame())
	code, out := runToy(t, a, "script", src, "--transcript", tr)
	if code != 0 {
		t.Fatalf("script: exit %d:\n%s", code, out)
	}
	winner := toyWinner(t, tr)
	if !strings.Contains(out, "game over: "+winner+" won") {
		t.Errorf("script's summary does not name the winner %s:\n%s", winner, out)
	}
	checkToyTranscript(t, tr)

	// A bad line is refused with its line and its player.
	bad := filepath.Join(dir, "bad.script")
	if err := os.WriteFile(bad, []byte("game toygame players=Anna,Boris\nBoris peek\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = runToy(t, newAppGames(nil, &syncBuffer{}, &syncBuffer{}, withToyGame()), "script", bad)
	if code != 2 || !strings.Contains(out, "bad.script:2") || !strings.Contains(out, "not-your-turn") {
		t.Errorf("a move out of turn: exit %d, want 2 naming line 2 and the rule:\n%s", code, out)
	}
}

// TestToyGamePlay: 'masque play --game toygame' seats a player (on the
// play screen, driven by keys) against bots; the transcript it saves is
// then verified and replayed.
func TestToyGamePlay(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	tr := filepath.Join(dir, "play.masque")
	d := &screenDriver{seed: 3}
	a := newAppGames(strings.NewReader(""), &syncBuffer{}, &syncBuffer{}, withToyGame())
	a.terminal = func() bool { return true }
	a.screen = d.run
	code, out := runToy(t, a, "play", "--game", "toygame", "--players", "3", "--player", "Kim", "--seed", "5",
		"--bot-delay", "0", "--transcript", tr, "--log", filepath.Join(dir, "play.log"))
	if code != 0 {
		t.Fatalf("play: exit %d:\n%s", code, out)
	}
	checkDriver(t, d, "local table against 2 bots")
	winner := toyWinner(t, tr)
	if !strings.Contains(out, "Won by "+winner) {
		t.Errorf("play's last words do not name the winner %s:\n%s", winner, out)
	}
	if !strings.Contains(d.final, toygame.Game{}.Title()) {
		t.Errorf("the play screen does not name the game %q:\n%s", toygame.Game{}.Title(), d.final)
	}
	checkToyTranscript(t, tr)
	if b, err := os.ReadFile(tr); err != nil || bytes.Contains(b, []byte("Kim peek")) {
		t.Errorf("the transcript: %v", err) // moves are binary bodies, never script text
	}
}

// TestToyGameDemo: 'masque demo --game toygame' seats bots as libp2p
// peers on loopback, plays, and verifies; the transcript then replays.
func TestToyGameDemo(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "demo.masque")
	a := newAppGames(nil, &syncBuffer{}, &syncBuffer{}, withToyGame())
	code, out := runToy(t, a, "demo", "--game", "toygame", "--players", "3", "--seed", "2", "--transcript", tr, "--timeout", "2m")
	if code != 0 {
		t.Fatalf("demo: exit %d:\n%s", code, out)
	}
	winner := toyWinner(t, tr)
	if !strings.Contains(out, toygame.Game{}.Title()) || !strings.Contains(out, "Won by "+winner) {
		t.Errorf("demo does not name the game %q and the winner %s:\n%s", toygame.Game{}.Title(), winner, out)
	}
	checkToyTranscript(t, tr)
}

// TestToyGameHelp: the added game is in every list the commands print:
// 'masque games', 'masque help games', the --game flag's help and the
// script format.
func TestToyGameHelp(t *testing.T) {
	title := toygame.Game{}.Title()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"games"}, []string{"toygame", title}},
		{[]string{"help", "games"}, []string{title + " (--game toygame), 2 to 5 players", "Each player holds one hidden number card"}},
		{[]string{"play", "--help"}, []string{"toygame (" + title + ")", "toygame 2..5"}},
		{[]string{"script", "--help"}, []string{title + " (--game toygame, 2 to 5 players): header"}},
	} {
		code, out := runToy(t, newAppGames(nil, &syncBuffer{}, &syncBuffer{}, withToyGame()), c.args...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("masque %s: exit %d, want %q in:\n%s", strings.Join(c.args, " "), code, w, out)
			}
		}
	}
}

// TestToyGameNetwork: 'masque host --game toygame' and 'masque join' on
// loopback, every seat a bot: the table seats, plays and ends, every
// seat keeps the same transcript, which verifies and replays.
func TestToyGameNetwork(t *testing.T) {
	const players = 3
	dir := t.TempDir()
	results := make([]netRunResult, players)
	trs := make([]string, players)
	runSeat := func(i int, args []string, out *syncBuffer) {
		errOut := &syncBuffer{}
		trs[i] = filepath.Join(dir, fmt.Sprintf("t%d.masque", i))
		a := newAppGames(nil, out, errOut, withToyGame())
		args = append(args, "--bot", "--seed", fmt.Sprint(i), "--config", filepath.Join(dir, fmt.Sprintf("cfg%d", i)),
			"--state", filepath.Join(dir, fmt.Sprintf("state%d", i)), "--transcript", trs[i], "--listen", "/ip4/127.0.0.1/tcp/0")
		c := a.run(context.Background(), args)
		results[i] = netRunResult{c, out.String(), errOut.String()}
	}
	var wg sync.WaitGroup
	hostOut := &syncBuffer{}
	wg.Go(func() {
		runSeat(0, []string{"host", "--game", "toygame", "--players", fmt.Sprint(players), "--name", "toy", "--player", "Host",
			"--no-mdns", "--wait", "60s"}, hostOut)
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
			t.Fatalf("seat %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, r.code, r.out, r.err)
		}
	}
	if !strings.Contains(results[1].out, toygame.Game{}.Title()) {
		t.Errorf("the joiner is not told the game %q:\n%s", toygame.Game{}.Title(), results[1].out)
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
	checkToyTranscript(t, trs[0])
}
