package p2p

import (
	"context"
	"fmt"
	"slices"
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

// checkDivergence checks what every honest peer must end with when seat
// `bad` reports a different state hash after entry pos: a signed
// divergence verdict of its own naming that seat and position, the same
// reason as the others', and logs that agree (each holds entry pos, and
// they are identical where they overlap; with exact, identical).
func checkDivergence(t *testing.T, res []result, tb store.Table, honest []int, bad uint8, pos uint64, exact bool) {
	t.Helper()
	var reason string
	var logs [][][]byte
	for _, i := range honest {
		r := res[i]
		if r.err != nil {
			t.Fatalf("peer %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v == nil || v.Kind != VerdictDivergence || v.Seat != bad || v.Pos != pos || int(v.Declarer) != i || len(v.Evidence) != 0 {
			t.Fatalf("peer %d: verdict %v, want a divergence naming seat %d after entry %d, declared by seat %d", i, v, bad, pos, i)
		}
		if err := v.Verify(tb.Roster); err != nil {
			t.Fatalf("peer %d: verdict does not verify: %v", i, err)
		}
		if reason == "" {
			reason = v.Reason
		} else if v.Reason != reason {
			t.Errorf("peer %d: reason %q, another honest peer's %q", i, v.Reason, reason)
		}
		if uint64(len(r.log)) <= pos {
			t.Fatalf("peer %d: %d entries, stopped before entry %d", i, len(r.log), pos)
		}
		logs = append(logs, marshalLog(t, r.log))
	}
	eq := func(a, b []byte) bool { return string(a) == string(b) }
	for k := 1; k < len(logs); k++ {
		n := min(len(logs[0]), len(logs[k]))
		if !slices.EqualFunc(logs[0][:n], logs[k][:n], eq) {
			t.Fatalf("peer %d's log differs from peer %d's", honest[k], honest[0])
		}
		if exact && len(logs[k]) != len(logs[0]) {
			t.Fatalf("peer %d has %d entries, peer %d %d", honest[k], len(logs[k]), honest[0], len(logs[0]))
		}
		if len(logs[k]) == len(logs[0]) && res[honest[k]].out.StateHash != res[honest[0]].out.StateHash {
			t.Fatalf("peers %d and %d: same log, different state hashes", honest[k], honest[0])
		}
	}
}

// TestDivergentStateHash: one replica of four computes a different state
// hash after an entry every replica accepted (a replica bug). Every honest
// peer detects it when that peer's echo of the entry arrives and stops with
// its own signed divergence verdict naming that seat and position; their
// logs agree. The buggy peer stops too, naming an honest seat: a
// divergence verdict cannot say who is wrong.
func TestDivergentStateHash(t *testing.T) {
	const n, bad = 4, 2
	for _, c := range []struct {
		name  string
		pos   uint64 // round robin: seat pos%4 authors entry pos
		exact bool   // nobody can author past pos: identical logs
	}{
		{"the buggy seat authors the next entry", 5, true},
		{"the buggy seat authors the entry", 6, false},
		{"an honest seat authors the next entry", 8, false},
		{"the first entry", 0, false},
		{"the entry before the last", 38, false},
		{"the last entry", 39, false}, // caught while waiting for the final state hashes
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
					res[i] = play(ctx, t, p, tb, rep, RoomConfig{Timeout: 10 * time.Second})
				})
			}
			wg.Wait()
			checkDivergence(t, res, tb, []int{0, 1, 3}, bad, c.pos, c.exact)
			// The buggy peer sees every other seat differ from it.
			r := res[bad]
			if r.err != nil {
				t.Fatalf("buggy peer: %v", r.err)
			}
			if v := r.out.Verdict; v == nil || v.Kind != VerdictDivergence || v.Seat == bad || v.Pos != c.pos {
				t.Fatalf("buggy peer: verdict %v", v)
			}
			// The verdict is in the state directory: a restart ends at once.
			again := play(ctx, t, ps[0], tb, &counter{seats: n, limit: 40}, RoomConfig{})
			if again.err != nil || again.out.Verdict == nil || again.out.Verdict.Kind != VerdictDivergence ||
				again.out.Verdict.Pos != c.pos || again.out.Verdict.Seat != bad {
				t.Fatalf("restarted: %v %+v", again.err, again.out)
			}
		})
	}
}

// TestDivergentReport: seat 2, whose own replica agrees, sends the honest
// peers a wrong state hash for entry 3 before they reach it (a lying or
// broken sender, not a broken replica). Each honest peer buffers the
// report, compares it when it applies entry 3, and stops there with a
// divergence verdict naming seat 2; their logs are identical.
func TestDivergentReport(t *testing.T) {
	const n, bad, pos = 3, 2, 3
	_, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	// Seats 0 and 1 alternate; seat 2 authors nothing.
	order := func(p uint64) uint8 { return uint8(p % 2) }
	// Entry 3 as seats 0 and 1 will sign it (Ed25519 is deterministic),
	// with a state hash that is not the one it leads to.
	ref := &counter{limit: pos + 1, order: order}
	var frame []byte
	prev := game
	for p := range uint64(pos + 1) {
		e := &ledger.Entry{Pos: p, Seat: order(p), Prev: prev, Body: body(p)}
		e.Sign(game, ps[e.Seat].id.SigningKey())
		if err := ref.Apply(e); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash()
		if p == pos {
			wrong := ref.StateHash()
			wrong[31] ^= 1
			var err error
			if frame, err = encodeEntryMsg(e, wrong); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The honest authors wait until the lie is on its way, so that it is
	// buffered before anyone reaches entry 3.
	lied := make(chan struct{})
	author := func(ctx context.Context, p uint64) ([]byte, error) {
		select {
		case <-lied:
			return body(p), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{limit: 40, order: order}, RoomConfig{Author: author})
		})
	}
	for i := range 2 {
		s := inject(t, ps[bad], ps[i], game, bad, frame)
		defer s.Reset()
	}
	// Give the frames time to be read (the room buffers entry 3).
	time.Sleep(100 * time.Millisecond)
	close(lied)
	wg.Wait()
	checkDivergence(t, res, tb, []int{0, 1}, bad, pos, true)
	if got := len(res[0].log); got != pos+1 {
		t.Fatalf("%d entries, want %d", got, pos+1)
	}
	for i := range 2 {
		if !slices.ContainsFunc(res[i].log, func(e *ledger.Entry) bool { return e.Pos == pos }) {
			t.Fatal(fmt.Sprint("peer ", i, " lacks entry ", pos))
		}
	}
}
