package p2p

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// TestLateAuthorStops: seat 0 authors entry 3 and writes it to its
// state directory, but crashes before sending it. Seats 1 and 2 time it
// out at position 3 and stop. Seat 0 restarts holding entry 3, so it can
// never confirm their verdict by its own timer; the verdicts reach it in
// the answers to its sync requests. Both other seats, more than half the
// table, declared it: the table ended without it. It adopts no verdict
// naming itself (issue 23, item 2): it stops with ErrTimedOut, blaming
// nobody and storing nothing, where it used to time out seat 1 at
// position 4. The others end with the same log (3 entries: entry 3 never
// reached the table) and the same verdict; seat 0's log is theirs and
// its own late entry.
func TestLateAuthorStops(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tb := signedTable(t, ps)
	const limit, timeout = 12, 400 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// Seats 1 and 2 play, and keep answering sync requests until the end
	// of the test.
	type running struct {
		out *Outcome
		err error
		log []*ledger.Entry
	}
	res := make([]running, 3)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 1; i <= 2; i++ {
		st, err := store.Create(ps[i].dir, tb, []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		room, err := ps[i].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 3, limit: limit},
			Author: countAuthor, Tick: 50 * time.Millisecond, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			out, err := room.Run(ctx)
			log, err := roomLog(room, err)
			res[i] = running{out, err, log}
			<-stop
			room.Close()
		})
	}

	// Seat 0 crashes when its author is asked for position 3.
	crashCtx, crash := context.WithCancel(ctx)
	first := play(crashCtx, t, ps[0], tb, &counter{seats: 3, limit: limit}, RoomConfig{Timeout: timeout,
		Author: func(ctx context.Context, pos uint64) ([]byte, error) {
			if pos == 3 {
				crash()
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return countAuthor(ctx, pos)
		}})
	if !errors.Is(first.err, context.Canceled) || len(first.log) != 3 {
		t.Fatalf("first run: %v with %d entries", first.err, len(first.log))
	}
	// ... having written entry 3 to its state directory first.
	st, err := store.Open(ps[0].dir)
	if err != nil {
		t.Fatal(err)
	}
	game, err := tb.Roster.GameID()
	if err != nil {
		t.Fatal(err)
	}
	e := &ledger.Entry{Pos: 3, Seat: 0, Prev: first.log[2].Hash(), Body: body(3)}
	e.Sign(game, ps[0].id.SigningKey())
	if err := st.Append(e); err != nil {
		t.Fatal(err)
	}
	st.Close()

	// The others time seat 0 out at position 3.
	deadline := time.Now().Add(10 * time.Second)
	for {
		done := 0
		for i := 1; i <= 2; i++ {
			if v, _ := ps[i].node.roomVerdict(game); v != nil {
				done++
			}
		}
		if done == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("seats 1 and 2 did not stop")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Seat 0 comes back.
	again := play(ctx, t, ps[0], tb, &counter{seats: 3, limit: limit}, RoomConfig{Timeout: timeout})
	close(stop)
	wg.Wait()
	res[0] = running(again)

	if !errors.Is(res[0].err, ErrTimedOut) || res[0].out != nil {
		t.Fatalf("seat 0: %v, %+v; want ErrTimedOut", res[0].err, res[0].out)
	}
	if v, _ := ps[0].node.roomVerdict(game); v != nil {
		t.Errorf("seat 0 holds a verdict: %v", v)
	}
	if len(res[0].log) != 4 || !slices.EqualFunc(marshalLog(t, res[0].log[:3]), marshalLog(t, res[1].log), bytes.Equal) {
		t.Errorf("seat 0: a log of %d entries; want seat 1's and its own entry 3", len(res[0].log))
	}
	st0, err := store.Open(ps[0].dir)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := st0.Verdict(); err != nil || raw != nil {
		t.Errorf("seat 0 stored a verdict (%v)", err)
	}
	st0.Close()
	var first1 [][]byte
	for i, r := range res[1:] {
		i++
		if r.err != nil {
			t.Fatalf("seat %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v == nil || v.Kind != VerdictTimeout || v.Pos != 3 || v.Seat != 0 {
			t.Errorf("seat %d: verdict %v, want seat 0 silent at 3", i, v)
		}
		if len(r.log) != 3 || r.out.Entries != 3 {
			t.Errorf("seat %d: a log of %d entries (outcome %d), want 3", i, len(r.log), r.out.Entries)
		}
		got := marshalLog(t, r.log)
		if i == 1 {
			first1 = got
		} else if !slices.EqualFunc(got, first1, bytes.Equal) {
			t.Errorf("seat %d: the log differs from seat 1's", i)
		}
		if r.out.StateHash != res[1].out.StateHash {
			t.Errorf("seat %d: final state hash differs from seat 1's", i)
		}
	}
}
