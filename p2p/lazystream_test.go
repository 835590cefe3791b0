package p2p

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"

	"github.com/masque-games/masque/p2p/store"
)

// TestLogStreamDoesNotWaitForIdentify: seat 0 dials seat 1 (the lower
// seat dials), and seat 1's identify exchange on that connection hangs
// (seat 0 holds the identify stream without answering, as happened on a
// busy machine until identify's 5 s timeout). Seat 1's entries still
// reach seat 0 at once on its log stream: before, libp2p's NewStream
// waited for that identify, so seat 1's log stream opened 4.5 s late and
// its entries came only by seat 0's tick's sync (issue 28: a short game's
// last done never came, and its peer waited its whole EndWait).
func TestLogStreamDoesNotWaitForIdentify(t *testing.T) {
	_, ps := mockPeers(t, 2)
	hold := make(chan struct{})
	defer close(hold)
	ps[0].node.Host().SetStreamHandler(identify.ID, func(s network.Stream) {
		<-hold
		s.Reset()
	})
	tb := signedTable(t, ps)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const tick = 500 * time.Millisecond // the CLI's: a stalled position is synced every 2 ticks
	var (
		mu       sync.Mutex
		authored time.Time // seat 1 signed entry 1
		applied  time.Time // seat 0 applied it
	)
	res := make([]result, 2)
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			st, err := store.Create(p.dir, tb, []byte("secret"))
			if err != nil {
				res[i].err = err
				return
			}
			defer st.Close()
			rep := &counter{seats: 2, limit: 4}
			author := countAuthor
			if i == 0 {
				rep.onApply = func(pos uint64) {
					if pos == 1 {
						mu.Lock()
						applied = time.Now()
						mu.Unlock()
					}
				}
			} else {
				author = func(ctx context.Context, pos uint64) ([]byte, error) {
					if pos == 1 {
						mu.Lock()
						authored = time.Now()
						mu.Unlock()
					}
					return body(pos), nil
				}
			}
			room, err := p.node.OpenRoom(RoomConfig{Store: st, Replica: rep, Author: author, Tick: tick})
			if err != nil {
				res[i].err = err
				return
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
	if wait := applied.Sub(authored); wait > tick {
		t.Fatalf("seat 0 applied seat 1's entry %v after it was authored; want it at once, under %v", wait.Round(time.Millisecond), tick)
	} else {
		t.Logf("seat 0 applied seat 1's entry %v after it was authored", wait.Round(time.Millisecond))
	}
}
