package main

import (
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/p2p/lobby"
)

// TestLobbyHijackOverMDNS performs the lobby hijack through real mDNS: a
// victim's table and an attacker's copy (same name, same table id, its
// own peer id and address) are advertised side by side. 'masque lobby'
// must list both, marked as duplicates with their fingerprints, and a
// headless 'masque join NAME' must refuse, naming both creators and how
// to pick one, instead of going to whichever advertisement came first or
// last. Skipped where multicast does not loop back.
func TestLobbyHijackOverMDNS(t *testing.T) {
	if testing.Short() {
		t.Skip("mDNS test skipped in -short mode")
	}
	var rnd [6]byte
	crand.Read(rnd[:])
	name := "hijack-" + hex.EncodeToString(rnd[:]) // not another test's table
	victim := lobby.Table{Name: name, Game: "mascarade", Taken: 1, Total: 4, Version: lobby.Version, Peer: newPeerID(t),
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/45201")}}
	crand.Read(victim.ID[:])
	attacker := victim
	attacker.Peer, attacker.Taken = newPeerID(t), 3
	attacker.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/45202")}
	opts := lobby.Options{Interval: 500 * time.Millisecond}
	for _, tb := range []lobby.Table{victim, attacker} {
		ad, err := lobby.Advertise(tb, opts)
		if err != nil {
			t.Skipf("multicast unavailable: cannot advertise: %v", err)
		}
		defer ad.Close()
	}
	code, out, errOut := runOut("lobby", "--json", "--wait", "3s")
	if code != 0 {
		t.Fatalf("lobby: exit %d: %s", code, errOut)
	}
	var entries []lobbyEntry
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("lobby --json: %v: %q", err, out)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Name == name {
			seen[e.Fingerprint] = e.Duplicate
		}
	}
	if len(seen) == 0 {
		t.Skip("multicast unavailable: the advertisements were not seen (no multicast loopback here?)")
	}
	if len(seen) != 2 || !seen[victim.Fingerprint()] || !seen[attacker.Fingerprint()] {
		t.Fatalf("lobby lists %v for the two creators of %q (fingerprint -> duplicate), want both marked", seen, name)
	}
	code, _, errOut = runOut("join", "--bot", name, "--wait", "10s", "--config", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "2 different creators") || !strings.Contains(errOut, victim.Fingerprint()) ||
		!strings.Contains(errOut, attacker.Fingerprint()) || !strings.Contains(errOut, "--creator") {
		t.Fatalf("join --bot %s with two creators: exit %d\n%s", name, code, errOut)
	}
}
