package p2p

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// buggyReplica simulates a replica bug: it accepts the same entries as the
// honest replicas, but from entry `from` on its state hash differs from
// theirs.
type buggyReplica struct {
	*counter
	from uint64
}

func (b *buggyReplica) StateHash() ledger.Hash {
	h := b.counter.StateHash()
	if b.count > b.from { // entry `from` is applied
		h[0] ^= 0xff
	}
	return h
}

// checkHonest checks what the honest peers must end with: no error, the
// same outcome (no verdict, or the same kind, seat and position, never
// naming an honest seat), and logs that agree where they overlap.
func checkHonest(t *testing.T, res []result, tb store.Table, honest []int) *Verdict {
	t.Helper()
	var first *Verdict
	var logs [][][]byte
	for k, i := range honest {
		r := res[i]
		if r.err != nil {
			t.Fatalf("peer %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v != nil {
			if slices.Contains(honest, int(v.Seat)) {
				t.Fatalf("peer %d: verdict %v names an honest seat", i, v)
			}
			if err := v.Verify(tb.Roster); err != nil {
				t.Fatalf("peer %d: verdict does not verify: %v", i, err)
			}
		}
		if k == 0 {
			first = v
		} else if (v == nil) != (first == nil) || (v != nil && (v.Kind != first.Kind || v.Seat != first.Seat || v.Pos != first.Pos)) {
			t.Fatalf("honest peers end differently: %v and %v", first, v)
		}
		logs = append(logs, marshalLog(t, r.log))
	}
	eq := func(a, b []byte) bool { return string(a) == string(b) }
	for k := 1; k < len(logs); k++ {
		n := min(len(logs[0]), len(logs[k]))
		if !slices.EqualFunc(logs[0][:n], logs[k][:n], eq) {
			t.Fatalf("peer %d's log differs from peer %d's", honest[k], honest[0])
		}
	}
	return first
}

// TestDivergentStateHash: one replica of four computes a different state
// hash after an entry every replica accepted (a replica bug). The honest
// peers, each seeing one seat of three disagree, log it and go on: a
// differing report proves nothing they could all check. The buggy peer,
// seeing every other seat disagree with it, knows its own replica is the
// odd one and stops with a local error that blames nobody, and sends the
// table its signed statement that it stopped. The honest peers wait for
// it like any silent seat, and all end the same way without blaming it
// (issue 23, item 3): with its own statement where they would have timed
// it out (they used to name it in a timeout), or, when it stopped after
// its last turn, the end of the game.
func TestDivergentStateHash(t *testing.T) {
	const n, bad = 4, 2
	for _, c := range []struct {
		name string
		pos  uint64 // round robin: seat pos%4 authors entry pos
	}{
		{"the buggy seat authors the next entry", 5},
		{"the buggy seat authors the entry", 6},
		{"an honest seat authors the next entry", 8},
		{"the first entry", 0},
		{"the entry before the last", 38},
		{"the last entry", 39},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ps := mockPeers(t, n)
			tb := signedTable(t, ps)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res := make([]result, n)
			var wg sync.WaitGroup
			for i, p := range ps {
				wg.Go(func() {
					var rep Replica = &counter{seats: n, limit: 40}
					if i == bad {
						rep = &buggyReplica{counter: &counter{seats: n, limit: 40}, from: c.pos}
					}
					res[i] = play(ctx, t, p, tb, rep, RoomConfig{Timeout: time.Second, EndWait: 500 * time.Millisecond})
				})
			}
			wg.Wait()
			v := checkHonest(t, res, tb, []int{0, 1, 3})
			if v != nil && (v.Kind != VerdictDivergence || v.Seat != bad || v.Declarer != bad) {
				t.Fatalf("honest verdict %v, want seat %d's own statement that it stopped, or none", v, bad)
			}
			if r := res[bad]; r.err == nil || !strings.Contains(r.err.Error(), "this peer's copy of the game is wrong") {
				t.Fatalf("buggy peer: %v, %+v", r.err, r.out)
			}
		})
	}
}

// wrongHashFrame returns entry pos of the honest log of ps (seats by
// order, as honestLog) as an entry message with a state hash that is not
// the one it leads to (a counter's, its last bit flipped).
func wrongHashFrame(t *testing.T, ps []*tpeer, game ledger.Hash, pos uint64, order func(uint64) uint8) []byte {
	t.Helper()
	log := honestLog(ps, game, pos+1, order)
	ref := &counter{limit: pos + 1, order: order}
	for _, e := range log {
		if err := ref.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	wrong := ref.StateHash()
	wrong[31] ^= 1
	frame, err := encodeEntryMsg(log[pos], wrong)
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

// heldAuthor writes body(p) for every position once lied is closed.
func heldAuthor(lied <-chan struct{}) Author {
	return func(ctx context.Context, p uint64) ([]byte, error) {
		select {
		case <-lied:
			return body(p), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// TestFalseStateReport is the review's attack (hole 3): seat 2 re-sends
// entry 3 to ONE honest peer with a bogus state hash. That peer used to
// stop with a divergence verdict blaming seat 2 while the other went on
// and timed the stopped honest peer out. Now the report is logged against
// its sender, and both honest peers play the game to its end with the
// same log and no verdict.
func TestFalseStateReport(t *testing.T) {
	const n, bad, pos = 3, 2, 3
	_, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	// Seats 0 and 1 alternate; seat 2 authors nothing.
	order := func(p uint64) uint8 { return uint8(p % 2) }
	// Entry 3 as seats 0 and 1 will sign it (Ed25519 is deterministic),
	// with a state hash that is not the one it leads to.
	frame := wrongHashFrame(t, ps, game, pos, order)
	lied := make(chan struct{})
	author := heldAuthor(lied)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{limit: 40, order: order}, RoomConfig{Author: author, Timeout: 5 * time.Second, EndWait: 300 * time.Millisecond})
		})
	}
	s := inject(t, ps[bad], ps[0], game, bad, frame) // to peer 0 only
	defer s.Reset()
	time.Sleep(100 * time.Millisecond)
	close(lied)
	wg.Wait()
	if v := checkHonest(t, res, tb, []int{0, 1}); v != nil {
		t.Fatalf("the honest peers stopped: %v", v)
	}
	for i := range 2 {
		if len(res[i].log) != 40 {
			t.Fatalf("peer %d: %d entries, want the whole game (40)", i, len(res[i].log))
		}
	}
	reported := false
	for len(ps[0].errs) > 0 {
		if err := <-ps[0].errs; strings.Contains(err.Error(), fmt.Sprintf("seat %d reports another state hash after entry %d", bad, pos)) {
			reported = true
		}
	}
	if !reported {
		t.Error("the false report was not logged against its sender")
	}
}
