package p2p

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// What a seat sends ahead of the next position is bounded (review hole
// 4) without costing the game: an entry 512 or more positions ahead is
// dropped and reported; entries of 64 KiB past 4 MiB waiting ahead are
// dropped and reported; the entry due next is then taken, and the
// entries kept ahead apply after it, in order.
func TestBufferedAheadTakesTheNextEntry(t *testing.T) {
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	const n, size = 100, 64 << 10
	// A chain of honest entries 0..n by seat 1, bodies of 64 KiB.
	var frames [][]byte
	prev := game
	for pos := range uint64(n + 1) {
		f, e := entryFrame(t, ps[1], game, pos, 1, prev, body(pos, bytes.Repeat([]byte{1}, size-8)...))
		frames = append(frames, f)
		prev = e.Hash()
	}
	far, _ := entryFrame(t, ps[1], game, maxAhead, 1, ledger.Hash{}, body(maxAhead))
	applied := make(chan uint64, n+1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		rep := &counter{limit: 1000, order: func(uint64) uint8 { return 1 }, onApply: func(pos uint64) { applied <- pos }}
		done <- play(ctx, t, ps[0], tb, rep, RoomConfig{})
	}()
	var far512, dropped int
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		for {
			select {
			case err := <-ps[0].errs:
				switch s := err.Error(); {
				case strings.Contains(s, "positions ahead"):
					far512++
				case strings.Contains(s, "dropped"):
					dropped++
				}
			case <-time.After(2 * time.Second):
				return
			}
		}
	}()
	s := inject(t, ps[1], ps[0], game, 1, append(frames[1:], far)...)
	defer s.Reset()
	<-counted
	if far512 != 1 {
		t.Fatalf("the entry %d positions ahead: reported %d times, want once", maxAhead, far512)
	}
	kept := n - dropped
	if max := maxPendingBytes/(size+256) + 1; dropped == 0 || kept > max {
		t.Fatalf("%d of %d entries of %d bytes kept ahead, want 1..%d", kept, n, size, max)
	}
	select {
	case pos := <-applied:
		t.Fatalf("entry %d applied before position 0 arrived", pos)
	default:
	}
	// The entry due next is taken at once, and everything kept ahead
	// applies after it.
	if err := WriteFrame(s, frames[0]); err != nil {
		t.Fatal(err)
	}
	for want := range uint64(kept + 1) {
		select {
		case pos := <-applied:
			if pos != want {
				t.Fatalf("applied entry %d, want %d", pos, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("entry %d never applied (%d kept ahead)", want, kept)
		}
	}
	cancel()
	<-done
}
