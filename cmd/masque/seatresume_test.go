package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p/lobby"
)

// TestHostResumesSeating: 'masque host' is killed with SIGKILL while
// seating (Bob seated at seat 1 of 3, the roster not offered yet), and
// the same command is run again. It says it resumes table CODE (the code
// of the table recorded before the kill) with 2/3 seated; Bob's program,
// which was never restarted, reconnects on its own and says the host is
// back; Cara joins the resumed table, and the game is played by bots to
// the end: the three verified transcripts are identical, and the roster
// everyone signed is that table's. Bob's program is also killed and run
// again at the resumed table, before Cara joins: it takes seat 1 back. Before, the rerun opened a new table
// with a new code, and Bob was told his table was gone.
func TestHostResumesSeating(t *testing.T) {
	if testing.Short() {
		t.Skip("processes")
	}
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	hostArgs := []string{"host", "--bot", "--players", "3", "--name", "back", "--player", "Anna", "--no-mdns",
		"--config", filepath.Join(dir, "cfg0"), "--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port), "--timeout", "60s",
		"--transcript", tr(0)}
	host := startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h1.out"), hostArgs...)
	invite := host.waitFor(t, inviteRE, 20*time.Second)[1]
	bobArgs := []string{"join", "--bot", invite, "--player", "Bob",
		"--config", filepath.Join(dir, "cfg1"), "--listen", "/ip4/127.0.0.1/tcp/0", "--timeout", "60s", "--transcript", tr(1)}
	bob := startChild(t, filepath.Join(dir, "xdg1"), filepath.Join(dir, "j1.out"), bobArgs...)
	bob.waitFor(t, regexp.MustCompile(`seated at .* as seat 1`), 20*time.Second)
	host.waitFor(t, regexp.MustCompile(`2/3 seated`), 20*time.Second)
	host.kill(t)

	// The record written during seating names the table.
	recs, _ := filepath.Glob(filepath.Join(dir, "xdg0", "masque", "seating", "*", "*.json"))
	if len(recs) != 1 {
		t.Fatalf("seating records after the kill: %v, want one", recs)
	}
	b, err := os.ReadFile(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	var rec seatingRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	id, err := rec.tableID()
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Seats) != 1 || rec.Seats[0].Name != "Bob" {
		t.Fatalf("the record holds seats %+v, want Bob's", rec.Seats)
	}
	creator, err := peer.Decode(invite[strings.LastIndex(invite, "/")+1:])
	if err != nil {
		t.Fatal(err)
	}
	code := lobby.Code(id, creator)

	host = startChild(t, filepath.Join(dir, "xdg0"), filepath.Join(dir, "h2.out"), hostArgs...)
	host.waitFor(t, regexp.MustCompile(`resuming table `+regexp.QuoteMeta(code)+` with 2/3 seated \(Anna, Bob\)`), 20*time.Second)
	bob.waitFor(t, regexp.MustCompile(`the host is back: .*, you keep seat 1`), 60*time.Second)
	invite = host.waitFor(t, inviteRE, 20*time.Second)[1]
	// Bob's program is killed in turn and run again (new keys): it takes
	// seat 1 back at the resumed table.
	bob.kill(t)
	bob = startChild(t, filepath.Join(dir, "xdg1"), filepath.Join(dir, "j1b.out"), bobArgs...)
	bob.waitFor(t, regexp.MustCompile(`seated at .* as seat 1; waiting for players: 2/3 seated`), 60*time.Second)
	cara := startChild(t, filepath.Join(dir, "xdg2"), filepath.Join(dir, "j2.out"), "join", "--bot", invite, "--player", "Cara",
		"--config", filepath.Join(dir, "cfg2"), "--listen", "/ip4/127.0.0.1/tcp/0", "--timeout", "60s", "--transcript", tr(2))
	for _, c := range []*child{host, bob, cara} {
		c.wait(t, 3*time.Minute)
		c.waitFor(t, regexp.MustCompile(`seated: table `+regexp.QuoteMeta(code)+`, roster signed by all 3 seats`), time.Second)
	}
	want, err := os.ReadFile(tr(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		got, err := os.ReadFile(tr(i))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("peer %d's transcript differs from the host's", i)
		}
	}
	if recs, _ := filepath.Glob(filepath.Join(dir, "xdg0", "masque", "seating", "*", "*.json")); len(recs) != 0 {
		t.Errorf("the seating record outlives the seating: %v", recs)
	}
	if code, out, errOut := runOut("verify", tr(0)); code != 0 {
		t.Errorf("masque verify: exit %d\n%s%s", code, out, errOut)
	}
}
