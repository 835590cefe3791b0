package p2p

import (
	"context"
	"sync"
	"testing"
	"time"

	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"

	"github.com/masque-games/masque/p2p/store"
)

// TestLateRoomGetsFirstEntries: a seat whose room opens a moment after
// its peer's (it learnt the roster later, as the joiners of a busy
// 13-process table do, up to 0.5 s apart; it signed the roster, so its
// node expects the game) gets the entries that peer
// wrote on its log stream meanwhile as soon as its room opens, not at
// its tick's sync a second later. The peer's writes succeed before the
// stream's receiver has read the hello (a link with 20 ms of latency), so
// a stream reset because the room was not open lost them (issue 28: entry
// 0 reached seats 1.0–2.2 s after it was signed in 10 of 50 games).
func TestLateRoomGetsFirstEntries(t *testing.T) {
	mn, ps := mockPeers(t, 2)
	for _, l := range mn.LinksBetweenPeers(ps[0].id.PeerID(), ps[1].id.PeerID()) {
		l.SetOptions(mocknet.LinkOptions{Latency: 20 * time.Millisecond})
	}
	// Seat 1 signed the roster (Join notes the game then, and so does
	// the creator once every seat has signed: Node.remember; signedTable
	// too).
	tb := signedTable(t, ps)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const late = 300 * time.Millisecond
	const tick = 500 * time.Millisecond // the CLI's: a stalled position is synced every 2 ticks
	var (
		mu      sync.Mutex
		opened  time.Time // seat 1's room opened
		applied time.Time // seat 1 applied entry 0
	)
	var wg sync.WaitGroup
	res := make([]result, 2)
	for i, p := range ps {
		wg.Go(func() {
			if i == 1 {
				time.Sleep(late)
			}
			st, err := store.Create(p.dir, tb, []byte("secret"))
			if err != nil {
				res[i].err = err
				return
			}
			defer st.Close()
			rep := &counter{seats: 2, limit: 4}
			if i == 1 {
				rep.onApply = func(pos uint64) {
					mu.Lock()
					defer mu.Unlock()
					if pos == 0 {
						applied = time.Now()
					}
				}
			}
			room, err := p.node.OpenRoom(RoomConfig{Store: st, Replica: rep, Author: countAuthor, Tick: tick})
			if err != nil {
				res[i].err = err
				return
			}
			if i == 1 {
				mu.Lock()
				opened = time.Now()
				mu.Unlock()
			}
			out, err := room.Run(ctx)
			log, err := roomLog(room, err)
			res[i] = result{out, err, log}
			time.Sleep(100 * time.Millisecond)
			room.Close()
		})
	}
	wg.Wait()
	sameLogs(t, res, 4)
	mu.Lock()
	defer mu.Unlock()
	if wait := applied.Sub(opened); wait > tick {
		t.Fatalf("seat 1 applied entry 0 %v after its room opened (its peer wrote it %v before); want it at once, under %v",
			wait.Round(time.Millisecond), late, tick)
	} else {
		t.Logf("seat 1 applied entry 0 %v after its room opened", wait.Round(time.Millisecond))
	}
}
