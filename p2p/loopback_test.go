package p2p

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/store"
)

// TestLoopbackGame seats peers through the join protocol on real TCP
// sockets and plays a game to the end. MASQUE_P2P_PEERS sets the number of
// peers (default 5; the target is 13).
func TestLoopbackGame(t *testing.T) {
	n := 5
	if s := os.Getenv("MASQUE_P2P_PEERS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 2 || n > ledger.MaxSeats {
			t.Fatalf("MASQUE_P2P_PEERS=%q", s)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ps := make([]*tpeer, n)
	for i := range n {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		node, err := NewNode(Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		ps[i] = &tpeer{id: id, node: node, dir: filepath.Join(t.TempDir(), fmt.Sprint(i))}
	}
	validate := func(name string, card []byte) error {
		if string(card) != "card:"+name {
			return errors.New("proof does not verify")
		}
		return nil
	}
	var changes []int
	var mu sync.Mutex
	table, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Options: []byte{7}, Seats: n, Name: "p0",
		CardKey: []byte("card:p0"), Validate: validate,
		OnChange: func(taken, _ int) { mu.Lock(); changes = append(changes, taken); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}

	// A joiner whose card key does not verify is refused.
	if _, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "x", CardKey: []byte("bogus")}); err == nil ||
		!strings.Contains(err.Error(), "refused") {
		t.Fatalf("bad card key: %v", err)
	}

	seatings := make([]*Seating, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = table.Seat(ctx) })
	for i := 1; i < n; i++ {
		wg.Go(func() {
			name := fmt.Sprint("p", i)
			seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, TableID: table.ID(), Name: name,
				CardKey:  []byte("card:" + name),
				Validate: func(_ int, si ledger.SeatInfo) error { return validate(si.Name, si.Keys) }})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
	}
	for i, s := range seatings {
		if s.GameID != seatings[0].GameID {
			t.Fatalf("peer %d agreed on another roster", i)
		}
	}
	if len(changes) < n-1 {
		t.Errorf("OnChange called %d times", len(changes))
	}

	// Play: every peer creates its state directory from its own seating.
	limit := uint64(4 * n)
	res := make([]result, n)
	start := time.Now()
	for i, p := range ps {
		s := seatings[i]
		st, err := store.Create(p.dir, s.Table, []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		wg.Go(func() {
			res[s.Seat] = play(ctx, t, p, s.Table, &counter{seats: n, limit: limit}, RoomConfig{})
		})
	}
	wg.Wait()
	// play lingers 100ms after the game for peers' sync requests.
	elapsed := time.Since(start) - 100*time.Millisecond
	t.Logf("%d peers: %d entries in %v (%v per entry, fsync and echo included)", n, limit, elapsed, elapsed/time.Duration(limit))
	sameLogs(t, res, int(limit))
}
