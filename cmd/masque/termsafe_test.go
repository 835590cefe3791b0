package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/masque-games/masque/p2p/lobby"
)

// rawControls are what must never reach a terminal from a peer's text.
var rawControls = []string{"\x1b", "\r", "\a", "\u202e", "\u2066", "\u009b", "\xff"}

func checkNoRawControls(t *testing.T, where, out string) {
	t.Helper()
	for _, bad := range rawControls {
		if strings.Contains(out, bad) {
			t.Errorf("%s: %q reached the terminal raw:\n%q", where, bad, out)
		}
	}
}

// TestLobbyEscapesAdvertisedText performs the escape injection through
// mDNS: an advertisement's TXT strings (table name, game, seated players)
// carry a screen clear, OSC 8 and OSC 52 sequences, a CR and a bidi
// override. 'masque lobby' printed them raw; now they show escaped, and
// the JSON keeps the data as it came (it is for programs).
func TestLobbyEscapesAdvertisedText(t *testing.T) {
	evilName := "friday\x1b[2J\x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\\rsafe \u202eexe.txt\xff"
	tables := []lobby.Table{{ID: [16]byte{1}, Name: evilName, Game: "masc\x1b]52;c;cm0=\x07", Taken: 1, Total: 4,
		Version: lobby.Version, Peer: newPeerID(t), Players: []string{"ann\u2066", "bob\u009b2J"}}}
	var out bytes.Buffer
	if err := printLobby(&out, tables, lobbyOptions{}); err != nil {
		t.Fatal(err)
	}
	checkNoRawControls(t, "masque lobby", out.String())
	for _, want := range []string{`friday\x1b[2J`, `\rsafe`, `\u202eexe.txt\xff`, `masc\x1b]52;c;cm0=\x07`, `ann\u2066`, `bob\u009b2J`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("masque lobby does not show %s escaped:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := printLobby(&out, tables, lobbyOptions{asJSON: true}); err != nil {
		t.Fatal(err)
	}
	var entries []lobbyEntry
	if err := json.Unmarshal(out.Bytes(), &entries); err != nil || len(entries) != 1 || entries[0].Game != tables[0].Game {
		t.Errorf("lobby --json: %v %+v", err, entries)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("lobby --json holds a raw ESC: %q", out.String())
	}
}

// TestProgressAndErrorsEscapePeerText: progress lines (narration, seated
// names, a host's refusal) and the final error and hint go through one
// escaping point each.
func TestProgressAndErrorsEscapePeerText(t *testing.T) {
	var out bytes.Buffer
	r := &netRun{out: &out}
	r.printf("seated: %s", "0 ann, 1 bob\x1b[2J\r\u202e")
	r.printf("%s", "turn 3  Mallory\x1b]52;c;cm0gLXJm\x07 claims the King")
	checkNoRawControls(t, "progress", out.String())
	if !strings.Contains(out.String(), `bob\x1b[2J\r\u202e`) || strings.Count(out.String(), "\n") != 2 {
		t.Errorf("progress: %q", out.String())
	}
	// A refusal or verdict reason quoted in the error that ends the run.
	code, stdout, stderr := runCmd(t, "verify", "/nonexistent/\x1b[2J\x1b]8;;x\x07\u202e.masque")
	if code != exitDamaged {
		t.Fatalf("exit %d", code)
	}
	checkNoRawControls(t, "error", stdout+stderr)
	if !strings.Contains(stderr, `\x1b[2J`) {
		t.Errorf("error: %q", stderr)
	}
}
