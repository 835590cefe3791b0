package p2p

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/p2p/identity"
)

// TestOneConnectionPerPair: at the start of a fresh run each seat dials
// the seats above it and leaves those below it a moment to dial it
// (dialYield), so that every pair of seats, on real TCP sockets, plays
// the game over one connection. Seats that dialed each other at once
// made two (at a table of 13, 144 TCP connections instead of 78 in
// BenchmarkNetworkLatency: handshakes and identify exchanges twice, a
// third of a short game's packets), and the frames of each direction
// could take a different one, so that no acknowledgement rode on the
// other direction's frames (issue 28).
func TestOneConnectionPerPair(t *testing.T) {
	const n, limit = 6, 60
	ps := make([]*tpeer, n)
	for i := range n {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		node, err := NewNode(Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		ps[i] = &tpeer{id: id, node: node, dir: filepath.Join(t.TempDir(), fmt.Sprint(i))}
	}
	tb := signedTable(t, ps)
	res := playAll(t, ps, tb, limit, nil)
	sameLogs(t, res, limit)
	for i, p := range ps {
		for j, q := range ps {
			if i == j {
				continue
			}
			if cs := p.node.Host().Network().ConnsToPeer(q.id.PeerID()); len(cs) != 1 {
				var how []string
				for _, c := range cs {
					how = append(how, fmt.Sprintf("%v at %v", c.Stat().Direction, c.Stat().Opened.Format("05.000")))
				}
				t.Errorf("seat %d has %d connections to seat %d (%v); want 1", i, len(cs), j, how)
			}
		}
	}
}
