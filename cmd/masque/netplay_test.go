package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

var inviteRE = regexp.MustCompile(`invite: (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)`)

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runOut runs masque with args and returns its exit status and outputs.
func runOut(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestNetFlagErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"host"}, 2, "interactive play needs a terminal"},
		{[]string{"join", "friday"}, 2, "interactive play needs a terminal"},
		{[]string{"host", "--bot", "--players", "1", "--config", cfg}, 2, "--players 1"},
		{[]string{"host", "--bot", "--players", "14", "--config", cfg}, 2, "--players 14"},
		{[]string{"host", "--bot", "--game", "chess", "--config", cfg}, 2, `--game "chess"`},
		{[]string{"host", "--bot", "--game", "mascarade2", "--players", "3", "--config", cfg}, 2, "--players 3: mascarade2 is for 4..12"},
		{[]string{"host", "--bot", "--scenario", "default-4", "--config", cfg}, 2, "scenarios are for --game mascarade2"},
		{[]string{"host", "--bot", "--game", "mascarade2", "--scenario", "nope", "--config", cfg}, 2, "no built-in scenario"},
		{[]string{"play", "--table", "T", "--host", "H"}, 2, "exclusive"},
		{[]string{"play", "--table", "T"}, 2, "interactive play needs a terminal"},
		{[]string{"host", "--bot", "--player", "no spaces", "--config", cfg}, 2, "--player"},
		{[]string{"host", "--bot", "extra", "--config", cfg}, 2, "unexpected argument"},
		{[]string{"host", "--bot", "--interface", "nosuchif0", "--config", cfg}, 2, "nosuchif0"},
		{[]string{"host", "--bot", "--players", "x"}, 2, `--players "x": not a whole number`},
		{[]string{"join", "--bot", "--config", cfg}, 2, "which table"},
		{[]string{"join", "--bot", "a", "b", "--config", cfg}, 2, "at most one table"},
		{[]string{"join", "--bot", "--table", "a", "--code", "b", "--config", cfg}, 2, "exclusive"},
		{[]string{"join", "--bot", "friday", "--table", "a", "--config", cfg}, 2, "either as an argument"},
		{[]string{"join", "--bot", "/ip4/1.2.3.4/tcp/1", "--config", cfg}, 2, "invite"},
		{[]string{"join", "--bot", "--code", "zz", "--config", cfg}, 2, "join code"},
		{[]string{"lobby", "--wait", "0s"}, 2, "--wait"},
		{[]string{"doctor", "--wait", "0s"}, 2, "--wait"},
	} {
		code, _, errOut := runOut(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || !strings.HasPrefix(errOut, "masque: error: ") {
			t.Errorf("masque %s: exit %d, stderr %q; want exit %d mentioning %q", strings.Join(c.args, " "), code, errOut, c.code, c.want)
		}
		if n := strings.Count(errOut, "masque: error:"); n > 1 {
			t.Errorf("masque %s: %d errors printed", strings.Join(c.args, " "), n)
		}
	}
	// The interactive refusal teaches the way out.
	if _, _, errOut := runOut("host"); !strings.Contains(errOut, "masque: hint:") || !strings.Contains(errOut, "masque play") {
		t.Errorf("host without --bot: %q", errOut)
	}
	// A state directory holding something else is refused.
	junk := filepath.Join(dir, "junk")
	os.MkdirAll(junk, 0o700)
	os.WriteFile(filepath.Join(junk, "x"), []byte("x"), 0o600)
	if code, _, errOut := runOut("host", "--bot", "--config", cfg, "--state", junk, "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"); code != 2 ||
		!strings.Contains(errOut, "not empty") {
		t.Errorf("junk --state: exit %d, %q", code, errOut)
	}
}

// TestHostJoinLoopback seats a host and 3 joiners, each a 'masque host' or
// 'masque join' run in this process with its own --config and --state, the
// joiners finding the host by its invite multiaddr (mDNS may not work in
// CI); bots play to the end; the four transcripts must be identical and
// verified. Then the host's command is run again on its state directory:
// it reopens the finished game and verifies it again.
func TestHostJoinLoopback(t *testing.T) { hostJoinLoopback(t, "mascarade") }

// TestHostJoinLoopbackSecondEdition is the same at a table of the 2nd
// edition: the joiners learn the game from the roster, the bots are the
// 2nd edition's.
func TestHostJoinLoopbackSecondEdition(t *testing.T) { hostJoinLoopback(t, "mascarade2") }

func hostJoinLoopback(t *testing.T, game string) {
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprintf("cfg%d", i)) }
	state := func(i int) string { return filepath.Join(dir, fmt.Sprintf("state%d", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	// The host listens on a port of its own choosing (a port picked
	// beforehand could be taken meanwhile by a joiner's listener, and
	// libp2p's SO_REUSEPORT would then share it); the joiners get the
	// invite it prints.
	type res struct {
		code     int
		out, err string
	}
	results := make([]res, 4)
	hostErr := &syncBuffer{}
	var wg sync.WaitGroup
	wg.Go(func() {
		var out bytes.Buffer
		c := run([]string{"host", "--bot", "--game", game, "--players", "4", "--name", "loop", "--player", "Anna", "--seed", "1",
			"--no-mdns", "--wait", "60s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, hostErr)
		results[0] = res{c, out.String(), hostErr.String()}
	})
	invite := pollFor(inviteRE, 20*time.Second, hostErr.String)
	if invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no invite:\n%s", hostErr.String())
	}
	for i := 1; i < 4; i++ {
		wg.Go(func() {
			c, o, e := runOut("join", "--bot", invite, "--seed", fmt.Sprint(i),
				"--config", cfg(i), "--state", state(i), "--transcript", tr(i), "--listen", "/ip4/127.0.0.1/tcp/0")
			results[i] = res{c, o, e}
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("peer %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, r.code, r.out, r.err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	var hr netResult
	if err := json.Unmarshal([]byte(results[0].out), &hr); err != nil {
		t.Fatalf("host --json: %v\n%s", err, results[0].out)
	}
	if !hr.Verify.Valid || !hr.Verify.Done || hr.Verify.Game != game || hr.Seat != 0 || hr.Player != "Anna" || len(hr.Players) != 4 || hr.Restarted {
		t.Errorf("host result: %+v", hr)
	}
	for _, want := range []string{"waiting for players: 1/4 seated", "invite: " + invite} {
		if !strings.Contains(results[0].err, want) {
			t.Errorf("host progress lacks %q:\n%s", want, results[0].err)
		}
	}
	for _, want := range []string{"seated at", "roster signed by all 4 seats", "game: " + newApp(nil, nil, nil).gameTitle(game), "card keys: every player's are published",
		"game over after", "verified: "} {
		if !strings.Contains(results[1].out, want) {
			t.Errorf("joiner output lacks %q:\n%s", want, results[1].out)
		}
	}
	first, err := os.ReadFile(tr(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 4; i++ {
		got, err := os.ReadFile(tr(i))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, got) {
			t.Errorf("peer %d's transcript differs from the host's", i)
		}
	}
	if code, out, errOut := runOut("verify", tr(2)); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}

	// Restart on the finished state directory: the log is replayed, the
	// game is over, the transcript is written and verified again.
	again := filepath.Join(dir, "again.masque")
	code, out, errOut := runOut("join", "--bot", "--config", cfg(1), "--state", state(1), "--transcript", again,
		"--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "0s")
	if code != 0 || !strings.Contains(out, "rejoined") {
		t.Fatalf("rejoin: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(again); !bytes.Equal(got, first) {
		t.Errorf("the rejoined transcript differs")
	}
	// Each seat kept the secret bits of its own swaps beside its state:
	// every recorded position is a move of that seat (joiners get their
	// seats in the order they are admitted: every record of one directory
	// names one author, a different one per directory), with that many
	// swaps.
	trans, err := ledger.UnmarshalTranscript(first)
	if err != nil {
		t.Fatal(err)
	}
	authors := map[uint8]int{}
	for i := range 4 {
		data, err := os.ReadFile(filepath.Join(state(i), netsession.SwapBitsFile))
		if err != nil {
			t.Fatalf("peer %d kept no swap bits: %v", i, err)
		}
		author := -1
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var pos uint64
			var bits string
			if _, err := fmt.Sscan(line, &pos, &bits); err != nil || pos >= uint64(len(trans.Entries)) {
				t.Fatalf("peer %d: swap bits line %q", i, line)
			}
			e := trans.Entries[pos]
			b, err := table.UnmarshalBody(e.Body, 1)
			if err != nil || b.Kind != table.BodyMove || len(b.Swaps) != len(bits) || (author >= 0 && int(e.Seat) != author) {
				t.Errorf("peer %d recorded %q for entry %d: a %v by seat %d with %d swaps (%v)", i, bits, pos, b.Kind, e.Seat, len(b.Swaps), err)
			}
			author = int(e.Seat)
		}
		authors[uint8(author)]++
	}
	if len(authors) != 4 {
		t.Errorf("the swap records of 4 peers name the moves of seats %v", authors)
	}
	// Another identity cannot use this state directory.
	code, _, errOut = runOut("join", "--bot", "--config", cfg(2), "--state", state(1), "--listen", "/ip4/127.0.0.1/tcp/0")
	if code != 1 || !strings.Contains(errOut, "another player's") {
		t.Errorf("state of another identity: exit %d, %q", code, errOut)
	}
}

// TestCompletion checks cobra's completion scripts know the network
// commands.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := runOut("completion", sh)
		if code != 0 || !strings.Contains(out, "masque") {
			t.Errorf("completion %s: exit %d, %q", sh, code, errOut)
		}
	}
	code, out, _ := runOut("__complete", "")
	for _, c := range []string{"host", "join", "lobby", "doctor"} {
		if code != 0 || !strings.Contains(out, c) {
			t.Errorf("completion of commands lacks %s:\n%s", c, out)
		}
	}
}

func TestLobbyJSONEmpty(t *testing.T) {
	code, out, errOut := runOut("lobby", "--json", "--wait", "300ms")
	if code == 2 {
		t.Fatalf("lobby: %s", errOut)
	}
	if code == 0 && !strings.HasPrefix(strings.TrimSpace(out), "[") {
		t.Errorf("lobby --json: %q", out)
	}
}
