package p2p

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestCutOffPeerBlamesNobody: seat 3 is cut off from every other seat for
// longer than its own timeout while seat 1 (slow, but within the others'
// timeout) is due. Seat 3 must not blame seat 1: it reports that it has
// had no contact with any seat since the blackout began, and once the
// network is back every seat finishes the game with the same log.
func TestCutOffPeerBlamesNobody(t *testing.T) {
	mn, ps := mockPeers(t, 4)
	tb := signedTable(t, ps)
	const limit = 12
	var once sync.Once
	back := make(chan struct{})
	blackout := func() {
		for i := 0; i < 3; i++ {
			mn.UnlinkPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
			mn.DisconnectPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
		}
		time.Sleep(3 * time.Second)
		for i := 0; i < 3; i++ {
			mn.LinkPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
		}
		close(back)
	}
	var mu sync.Mutex
	var noContact time.Time
	res := playAll(t, ps, tb, limit, func(i int) RoomConfig {
		c := RoomConfig{Timeout: 20 * time.Second}
		switch i {
		case 1:
			c.Author = func(ctx context.Context, pos uint64) ([]byte, error) {
				if pos == 5 {
					once.Do(func() { go blackout() })
					select {
					case <-time.After(2 * time.Second):
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				return countAuthor(ctx, pos)
			}
		case 3:
			c.Timeout = 1500 * time.Millisecond
			c.OnWait = func(w Wait) {
				if !w.NoContactSince.IsZero() {
					mu.Lock()
					noContact = w.NoContactSince
					mu.Unlock()
				}
			}
		}
		return c
	})
	<-back
	sameLogs(t, res, limit)
	mu.Lock()
	defer mu.Unlock()
	if noContact.IsZero() {
		t.Error("seat 3 never reported that it had no contact with any seat")
	}
}
