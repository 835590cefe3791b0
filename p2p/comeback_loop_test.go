package p2p

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/p2p/store"
)

// loopRuns is how many runs the scaled-down loops below make: the
// environment's MASQUE_COMEBACK_RUNS (they skip without it; issue 29 asks
// for 50 blackout runs and 20 lost-write runs).
func loopRuns(t *testing.T) int {
	n, err := strconv.Atoi(os.Getenv("MASQUE_COMEBACK_RUNS"))
	if err != nil || n <= 0 {
		t.Skip("set MASQUE_COMEBACK_RUNS=N to run the loop")
	}
	return n
}

// TestBlackoutReturnsLoop is issue 29's blackout loop, scaled down: 4
// seats whose authors think 600 ms, a move time of 1 s (tick 25 ms, so
// that a seat hears from nobody for 20 ticks, 500 ms, before it counts
// as cut off); at a random moment after one of seat 3's own entries, all
// its links drop for a random time from a quarter of the move time to
// twice it, and in half the runs its sync requests are answered only up
// to 500 ms after the links are back. Every run must end with the same
// log and the same outcome at every seat, and no verdict may name seats
// 0 to 2, which were never silent for a move time.
func TestBlackoutReturnsLoop(t *testing.T) {
	runs := loopRuns(t)
	counts := map[string]int{}
	for run := range runs {
		outcome, desc := blackoutRun(t, run)
		counts[outcome]++
		t.Logf("run %d: %s (%s)", run, outcome, desc)
	}
	t.Logf("%d runs: %v", runs, counts)
}

// blackoutRun is one run of TestBlackoutReturnsLoop; it returns the
// common outcome and what the run did.
func blackoutRun(t *testing.T, run int) (outcome, desc string) {
	const n, limit, move, think, tick = 4, 12, time.Second, 600 * time.Millisecond, 25 * time.Millisecond
	rng := rand.New(rand.NewPCG(uint64(run), 29))
	length := move/4 + time.Duration(rng.Int64N(int64(2*move-move/4)))
	after := time.Duration(rng.Int64N(int64(move)))
	ownPos := uint64(3 + 4*rng.IntN(2)) // seat 3's entry 3 or 7
	gate := rng.IntN(2) == 0
	mn, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	open := make(chan struct{})
	if gate {
		for i := range 3 {
			gateSync(ps[i], open, ps[3])
		}
	} else {
		close(open)
	}
	blackout := func() {
		time.Sleep(after)
		for i := range 3 {
			mn.UnlinkPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
			mn.DisconnectPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
		}
		time.Sleep(length)
		for i := range 3 {
			mn.LinkPeers(ps[3].id.PeerID(), ps[i].id.PeerID())
		}
		if gate {
			time.Sleep(time.Duration(rng.Int64N(int64(500 * time.Millisecond))))
			close(open)
		}
	}
	var once sync.Once
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res := make([]result, n)
	stop := make(chan struct{})
	var wg, ran sync.WaitGroup
	for i := range n {
		st, err := store.Create(ps[i].dir, tb, []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		author := func(ctx context.Context, pos uint64) ([]byte, error) {
			select {
			case <-time.After(think):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if i == 3 && pos == ownPos {
				once.Do(func() { go blackout() })
			}
			return countAuthor(ctx, pos)
		}
		room, err := ps[i].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: n, limit: limit},
			Author: author, Tick: tick, Timeout: move})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		ran.Add(1)
		go func() {
			defer wg.Done()
			out, err := room.Run(ctx)
			log, err := roomLog(room, err)
			res[i] = result{out, err, log}
			ran.Done()
			<-stop // every seat answers sync requests until all have ended
			room.Close()
		}()
	}
	ran.Wait()
	close(stop)
	wg.Wait()
	desc = fmt.Sprintf("blackout %v after %v past entry %d, gated %v", length.Round(time.Millisecond), after.Round(time.Millisecond), ownPos, gate)
	for i, r := range res {
		if r.err != nil {
			t.Fatalf("run %d (%s): seat %d: %v", run, desc, i, r.err)
		}
		o := "finished"
		if v := r.out.Verdict; v != nil {
			if v.Seat != 3 {
				t.Fatalf("run %d (%s): seat %d: verdict %v names a seat that was never cut off", run, desc, i, v)
			}
			o = fmt.Sprintf("%v of seat %d at %d", v.Kind, v.Seat, v.Pos)
		}
		if i == 0 {
			outcome = o
		} else if o != outcome {
			t.Fatalf("run %d (%s): seat %d ended with %s, seat 0 with %s", run, desc, i, o, outcome)
		}
		if len(r.log) != len(res[0].log) || (len(r.log) > 0 && r.log[len(r.log)-1].Hash() != res[0].log[len(r.log)-1].Hash()) {
			t.Fatalf("run %d (%s): seat %d's log (%d entries) differs from seat 0's (%d)", run, desc, i, len(r.log), len(res[0].log))
		}
	}
	return outcome, desc
}

// TestLostWriteLoop is issue 29's lost-write loop: seat 2's log cut
// before one of its own published entries (4 positions of its own to
// choose from), its first run stopped at a later own position, its
// author thinking 0 or 250 ms, starting again cut off from every seat
// or not. Every run must end the game at every seat with the same log
// and no verdict (lostWriteAt).
func TestLostWriteLoop(t *testing.T) {
	runs := loopRuns(t)
	for run := range runs {
		rng := rand.New(rand.NewPCG(uint64(run), 2929))
		lost := uint64(2 + 4*rng.IntN(4))      // 2, 6, 10 or 14
		stop := lost + 4*uint64(1+rng.IntN(2)) // one or two turns later
		think := time.Duration(rng.IntN(2)) * 250 * time.Millisecond
		isolated := rng.IntN(2) == 0
		t.Run(fmt.Sprintf("run%d-lost%d-stop%d-think%v-isolated%v", run, lost, stop, think, isolated), func(t *testing.T) {
			lostWriteAt(t, lost, stop, think, isolated)
		})
	}
}
