package p2p

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The attack (review hole 2): one seat signs timeout verdicts that blame
// an honest seat (at a position far ahead, at the next position for a seat
// that is not due, for the seat due before anyone's timer ran out) and
// sends them to a single peer. That peer used to adopt any timeout at or
// past its next position, stop, and store the verdict so the table never
// resumed. Now no honest peer adopts a timeout it cannot confirm: the
// game runs to its end everywhere, with the same log.
func TestForgedTimeoutVerdictIgnored(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	forge := func(pos uint64, seat uint8) []byte {
		v := &Verdict{Kind: VerdictTimeout, Game: game, Pos: pos, Seat: seat, Reason: "silent", Declarer: 1}
		if err := v.Sign(ps[1].id.SigningKey()); err != nil {
			t.Fatal(err)
		}
		f, err := encodeVerdictMsg(v)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	const limit = 40
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]result, 3)
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			// Seat 0 authors slowly, so that forged verdicts arrive while
			// the table waits for it (but well within the timeout).
			author := countAuthor
			if i == 0 {
				author = func(ctx context.Context, pos uint64) ([]byte, error) {
					time.Sleep(20 * time.Millisecond)
					return countAuthor(ctx, pos)
				}
			}
			res[i] = play(ctx, t, p, tb, &counter{seats: 3, limit: limit}, RoomConfig{Author: author, Timeout: 5 * time.Second})
		})
	}
	frames := [][]byte{
		forge(1<<40, 2), // far ahead
		forge(0, 2),     // the next position, a seat that is not due there
		forge(0, 0),     // the seat due, before any timer ran out
		forge(1, 1),     // the attacker's own seat, ahead
	}
	s := inject(t, ps[1], ps[0], game, 1, frames...)
	defer s.Reset()
	wg.Wait()
	sameLogs(t, res, limit)
	// After the end: a timeout for the position after the last entry does
	// not turn the finished game into a timeout either (a fresh run on the
	// finished state reads the stored outcome: no verdict stored).
	for i, p := range ps {
		r := play(context.Background(), t, p, tb, &counter{seats: 3, limit: limit}, RoomConfig{Timeout: time.Second})
		if r.err != nil || r.out.Verdict != nil {
			t.Errorf("peer %d after the game: %v, %v", i, r.err, r.out.Verdict)
		}
	}
}
