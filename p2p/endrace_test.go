package p2p

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"

	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/store"
)

// TestEndNoWaitAfterPeersLeave plays a table whose seats each shut their
// node down the moment their Run returns (as 'masque host' does once it
// no longer re-verifies the transcript): no seat may be left waiting for
// a done message that its peer queued but never delivered. EndWait is long
// (a minute), so a seat that waits for it fails the test, not the clock.
func TestEndNoWaitAfterPeersLeave(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listen string
	}{
		{"mocknet", ""},
		{"tcp", "/ip4/127.0.0.1/tcp/0"},
		{"quic", "/ip4/127.0.0.1/udp/0/quic-v1"},
	} {
		t.Run(tc.name, func(t *testing.T) { endNoWait(t, tc.listen) })
	}
}

// socketPeers makes n nodes listening on listen (real loopback sockets).
func socketPeers(t *testing.T, n int, listen string) []*tpeer {
	t.Helper()
	ps := make([]*tpeer, n)
	for i := range n {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		node, err := NewNode(Config{Identity: id, ListenAddrs: []string{listen}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		ps[i] = &tpeer{id: id, node: node, dir: filepath.Join(t.TempDir(), fmt.Sprint(i))}
	}
	return ps
}

func endNoWait(t *testing.T, listen string) {
	const n, limit = 7, 40
	for round := range 5 {
		var ps []*tpeer
		closeNet := func() {}
		if listen == "" {
			var mn mocknet.Mocknet
			mn, ps = mockPeers(t, n)
			closeNet = func() { mn.Close() }
		} else {
			ps = socketPeers(t, n, listen)
		}
		tb := signedTable(t, ps)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		took := make([]time.Duration, n)
		outs := make([]*Outcome, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, p := range ps {
			wg.Go(func() {
				st, err := store.Create(p.dir, tb, []byte("secret"))
				if err != nil {
					errs[i] = err
					return
				}
				defer st.Close()
				room, err := p.node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: n, limit: limit},
					Author: countAuthor, Tick: 50 * time.Millisecond, EndWait: time.Minute})
				if err != nil {
					errs[i] = err
					return
				}
				start := time.Now()
				outs[i], errs[i] = room.Run(ctx)
				took[i] = time.Since(start)
				// Leave at once: no linger, no re-verify.
				room.Close()
				p.node.Close()
			})
		}
		wg.Wait()
		cancel()
		closeNet()
		for i := range ps {
			if errs[i] != nil {
				t.Fatalf("round %d seat %d: %v", round, i, errs[i])
			}
			if outs[i].Verdict != nil || len(outs[i].Unconfirmed) > 0 {
				t.Fatalf("round %d seat %d: verdict %v, unconfirmed %v", round, i, outs[i].Verdict, outs[i].Unconfirmed)
			}
			if took[i] > 30*time.Second {
				t.Fatalf("round %d seat %d: Run took %v: it waited for a done that never came", round, i, took[i])
			}
		}
	}
}
