package p2p

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TestJoinersDialEachOtherWhileSigning: once a joiner has signed the
// roster offered, it dials the seats above it (the connections its room
// would dial when the game starts), so that by the time the rooms open
// every pair of seats is connected: no room has opened here, yet every
// pair of joiners ends up connected, the lower seat having dialed (issue
// 28: the 66 connections between the joiners of a 13-seat table, set up
// in the game's first second, delayed its first entries by over a second
// on a busy machine). Before, joiners were connected only to the creator.
func TestJoinersDialEachOtherWhileSigning(t *testing.T) {
	const n = 5
	_, ps := mockPeers(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: n, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	seatings := make([]*Seating, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = tbl.Seat(ctx) })
	for i := 1; i < n; i++ {
		wg.Go(func() {
			seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, Name: fmt.Sprint("p", i)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("p%d: %v", i, err)
		}
	}
	// Every seat's node expects the game (a log stream for it waits for
	// its room: TestLateRoomGetsFirstEntries).
	for i, p := range ps {
		p.node.mu.Lock()
		_, ok := p.node.expected[seatings[i].GameID]
		p.node.mu.Unlock()
		if !ok {
			t.Errorf("p%d's node does not expect the game it signed the roster of", i)
		}
	}
	bySeat := make([]*tpeer, n)
	for i, s := range seatings {
		bySeat[s.Seat] = ps[i]
	}
	deadline := time.Now().Add(5 * time.Second)
	for a := 1; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for bySeat[a].node.Host().Network().Connectedness(bySeat[b].id.PeerID()) != network.Connected {
				if time.Now().After(deadline) {
					t.Fatalf("seats %d and %d are not connected 5 s after the roster was signed", a, b)
				}
				time.Sleep(10 * time.Millisecond)
			}
			// The lower seat dialed: the connection is outbound there.
			for _, c := range bySeat[a].node.Host().Network().ConnsToPeer(bySeat[b].id.PeerID()) {
				if c.Stat().Direction != network.DirOutbound {
					t.Errorf("seat %d's connection to seat %d is %v; want the lower seat to dial", a, b, c.Stat().Direction)
				}
			}
		}
	}
}
