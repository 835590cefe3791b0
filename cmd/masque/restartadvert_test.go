package main

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// A creator that restarts its game announces it in play again: 'masque
// watch CODE' (and 'masque lobby') find it, not "no table with code …";
// the restarted 'masque host' says so.
// Only the creator (seat 0) announces it: the code names the creator.
func TestRestartedHostAnnouncesItsGameAgain(t *testing.T) {
	relayAddr := startTestRelay(t)
	relays, err := parseRelayFlag([]string{relayAddr})
	if err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	id, err := identity.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := netsession.NewPeerWithIdentity(id, []string{"/ip4/127.0.0.1/tcp/0"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := &ledger.Roster{TableID: [16]byte{7}, Game: "mascarade", Options: []byte{1}}
	for i, who := range [][]byte{[]byte(id.PeerID()), []byte("someone else")} {
		pub, _, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: []string{"ann", "bob"}[i], PeerID: who, SignKey: pub})
	}
	if err := p.AnnouncePlaying(r, "friday", false, lobby.Options{}, relays); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	found := false
	for !found && ctx.Err() == nil {
		got, tid, err := watchTarget(ctx, watchOptions{invite: rosterCode(r)}, relays)
		found = err == nil && got.ID == id.PeerID() && tid == r.TableID
		if !found {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if !found {
		t.Fatalf("the restarted creator's table is not found by its code %s", rosterCode(r))
	}
	// Not the creator: nothing announced.
	r2 := *r
	r2.Seats = []ledger.SeatInfo{r.Seats[1], r.Seats[0]}
	if err := p.AnnouncePlaying(&r2, "friday", false, lobby.Options{}, relays); err == nil {
		t.Error("a seat other than the creator announced the table")
	}

	// The restarted 'masque host' announces it (then fails to play
	// this made-up table, whose keys are fake).
	friday := unfinishedTable(t, t.TempDir(), 1, "friday", []byte(id.PeerID()))
	_, out, errOut := runOut("host", "--bot", "--config", cfg, "--state", friday, "--relay", relayAddr, "--relay-wait", "1s", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--transcript", filepath.Join(t.TempDir(), "t.masque"))
	if !strings.Contains(out+errOut, "announced again for spectators: masque watch "+rosterCode(unfinishedRoster(t, friday))) {
		t.Errorf("the restarted host does not announce its game:\n%s%s", out, errOut)
	}
}

// unfinishedRoster is the roster in a state directory.
func unfinishedRoster(t *testing.T, dir string) *ledger.Roster {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return st.Table().Roster
}
