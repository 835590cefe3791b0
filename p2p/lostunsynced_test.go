package p2p

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/p2p/store"
)

// TestLostUnsyncedEntriesNoBlame: a seat syncs its state directory only
// before something that reports its log leaves it (its own entry, an
// echo, a done, a verdict), not after every entry it receives (issue 28:
// an fsync per entry was 6-10 % of a seat's CPU). In a 4-seat game seat 2
// authors entries 2, 6, 10 and 14; when asked for 14 it has received 11,
// 12 and 13 from the others and sent nothing since its entry 10, so they
// are written but not synced. The machine then crashes: the disk loses
// every write not synced (the log cut to what the store says is durable),
// and seat 2 starts again. Its own entry 10 must have been durable (it
// was sent); the entries it lost it fetches from its peers, and every
// seat finishes the game with the same log and no verdict: no honest seat
// blamed for a disk that lost a write (issue 1). On a room that synced
// after every entry, nothing was left unsynced and the test fails.
func TestLostUnsyncedEntriesNoBlame(t *testing.T) {
	_, ps := mockPeers(t, 4)
	tb := signedTable(t, ps)
	const limit, own, stop = 24, 10, 14
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	res := make([]result, 4)
	var wg sync.WaitGroup
	for _, i := range []int{0, 1, 3} {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{seats: 4, limit: limit}, RoomConfig{Timeout: 10 * time.Second})
		})
	}

	st, err := store.Create(ps[2].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	crashCtx, crash := context.WithCancel(ctx)
	durable, written := -1, -1
	room, err := ps[2].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 4, limit: limit},
		Timeout: 10 * time.Second, Tick: 50 * time.Millisecond,
		Author: func(ctx context.Context, pos uint64) ([]byte, error) {
			if pos == stop {
				// The crash: what the disk keeps is what was synced.
				durable, written = st.Durable(), int(st.Len())
				crash()
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return body(pos), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := room.Run(crashCtx); err == nil {
		t.Fatal("seat 2's first run ended without the crash")
	}
	room.Close()
	st.Close()
	if written != stop {
		t.Fatalf("at the crash seat 2 had written %d entries, want %d", written, stop)
	}
	if durable <= own {
		t.Fatalf("seat 2's own entry %d was sent but not durable (%d entries synced)", own, durable)
	}
	if durable >= stop {
		t.Fatalf("seat 2 synced all %d entries it received (none left to lose): the room syncs after every entry", durable)
	}
	t.Logf("the crash loses entries %d to %d", durable, stop-1)
	cutLog(t, ps[2], durable)

	res[2] = play(ctx, t, ps[2], tb, &counter{seats: 4, limit: limit}, RoomConfig{Timeout: 10 * time.Second})
	wg.Wait()
	sameLogs(t, res, limit)
}
