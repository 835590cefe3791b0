package p2p

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/store"
)

// weakCounter is a counter replica that remembers a weak pointer to each
// entry it applies (and nothing that keeps one alive).
type weakCounter struct {
	counter
	mu   sync.Mutex
	seen []weak.Pointer[ledger.Entry]
}

func (w *weakCounter) Apply(e *ledger.Entry) error {
	if err := w.counter.Apply(e); err != nil {
		return err
	}
	w.mu.Lock()
	w.seen = append(w.seen, weak.Make(e))
	w.mu.Unlock()
	return nil
}

// alive counts the applied entries still reachable after a collection.
func (w *weakCounter) alive() int {
	runtime.GC()
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, p := range w.seen {
		if p.Value() != nil {
			n++
		}
	}
	return n
}

// A room with a state directory keeps only its latest entries in memory
// (issue 28: 18 seats in one process held 18 whole logs, each entry in
// the store, the core, the room and the replica): after a game of many
// entries, those still reachable (room open, game over) are at most the
// hot ones, and the log read back from the store is the game's, the same
// at both seats and chained.
func TestRoomKeepsFewEntriesInMemory(t *testing.T) {
	const n = 400
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reps := make([]*weakCounter, len(ps))
	rooms := make([]*Room, len(ps))
	res := make([]result, len(ps))
	var ran, wg sync.WaitGroup
	ran.Add(len(ps))
	stop := make(chan struct{})
	for i, p := range ps {
		st, err := store.Create(p.dir, tb, []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		reps[i] = &weakCounter{counter: counter{seats: len(ps), limit: n}}
		rooms[i], err = p.node.OpenRoom(RoomConfig{Store: st, Replica: reps[i], Author: countAuthor, Tick: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			out, err := rooms[i].Run(ctx)
			res[i] = result{out: out, err: err}
			ran.Done()
			<-stop // answers the other seat until both have ended
			rooms[i].Close()
		})
	}
	ran.Wait()
	// Both rooms are still open, their games over.
	for i, r := range reps {
		if got, most := r.alive(), 2*hotEntries+roomcore.HotEntries; got > most {
			t.Errorf("seat %d: %d of %d entries still in memory, want at most %d", i, got, n, most)
		}
	}
	for i, room := range rooms {
		res[i].log, res[i].err = roomLog(room, res[i].err)
	}
	close(stop)
	wg.Wait()
	sameLogs(t, res, n)
	prev := res[0].log[0].Prev
	for _, e := range res[0].log {
		if e.Prev != prev {
			t.Fatalf("entry %d read back does not chain", e.Pos)
		}
		prev = e.Hash()
	}
}
