package roomcore

import (
	"slices"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// batchCounter is the counter game as a BatchApplier: it records the
// length of every run it is given.
type batchCounter struct {
	counter
	runs []int
}

func (b *batchCounter) ApplyVerified(e *ledger.Entry) error { return b.Apply(e) }

func (b *batchCounter) ApplyBatch(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	n := 0
	defer func() { b.runs = append(b.runs, n) }()
	for ; n < max; n++ {
		pos, seat, ok := b.Next()
		if !ok {
			return nil, nil
		}
		e := next(pos, seat)
		if e == nil {
			return nil, nil
		}
		if err := b.Apply(e); err != nil {
			return e, err
		}
		applied(e, b.StateHash())
	}
	return nil, nil
}

// A sync answer's entries are stepped as one batch: they reach a
// BatchApplier as one run (their proofs checked together), and a bad
// entry slipped into the run is blamed exactly as when entries are
// applied one by one: the same seat, position, reason and evidence, the
// entries before it kept.
func TestSyncBurstAppliedAsOneRun(t *testing.T) {
	const n, limit, bad = 4, 12, 6
	keys := seatKeys(n)
	roster := testRoster(keys)
	game, _ := roster.GameID()
	order := func(p uint64) uint8 { return uint8(1 + p%3) } // seat 0, this one, never due
	log := honestLog(keys, game, limit, order)
	// Entry bad carries a wrong counter value, signed by its author and
	// chained: only the replica can tell.
	forged := *log[bad]
	forged.Body = body(bad + 1)
	forged.Sign(game, keys[forged.Seat])
	log[bad] = &forged
	for i := bad + 1; i < limit; i++ {
		e := *log[i]
		e.Prev = log[i-1].Hash()
		e.Sign(game, keys[e.Seat])
		log[i] = &e
	}

	run := func(replica Replica) (Ready, *Core) {
		c, err := New(Config{Roster: roster, Self: 0, SignKey: keys[0], Replica: replica, Tick: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		c.Start(now)
		for _, e := range log[:10] {
			if !c.Step(Input{Kind: InMsg, Now: now, Seat: 2, At: now, Msg: &Msg{Type: MsgEntry, Entry: e}}) {
				t.Fatalf("entry %d ended the batch before the Ready", e.Pos)
			}
		}
		return c.Ready(), c
	}
	plain := &counter{seats: n, limit: limit, order: order}
	want, _ := run(plain)
	batched := &batchCounter{counter: counter{seats: n, limit: limit, order: order}}
	got, c := run(batched)

	if len(batched.runs) != 1 || batched.runs[0] != bad {
		t.Fatalf("runs given to the replica: %v; want one run of the %d entries before the bad one", batched.runs, bad)
	}
	for _, rd := range []Ready{want, got} {
		v := rd.Outcome
		if v == nil || v.Verdict == nil || v.Verdict.Kind != VerdictInvalidEntry || v.Verdict.Pos != bad || v.Verdict.Seat != log[bad].Seat ||
			len(v.Verdict.Evidence) != 1 || v.Verdict.Evidence[0].Hash() != log[bad].Hash() {
			t.Fatalf("outcome %+v; want entry %d by seat %d blamed", v, bad, log[bad].Seat)
		}
		if len(rd.Entries) != bad {
			t.Fatalf("%d entries kept, want the %d before the bad one", len(rd.Entries), bad)
		}
	}
	if got.Outcome.Verdict.Reason != want.Outcome.Verdict.Reason || got.Outcome.StateHash != want.Outcome.StateHash {
		t.Fatalf("batched: %q, one by one: %q", got.Outcome.Verdict.Reason, want.Outcome.Verdict.Reason)
	}
	if entries, _ := c.Log(); len(entries) != bad {
		t.Fatalf("the core's log holds %d entries", len(entries))
	}
}

// A restart replays the state directory's entries in runs through a
// BatchApplier; a bad stored entry fails the replay with the error of
// one-by-one replay, whatever stops it (the replica, the chain, the
// signature, the order).
func TestReplayInRuns(t *testing.T) {
	const n, limit = 4, 300
	keys := seatKeys(n)
	roster := testRoster(keys)
	game, _ := roster.GameID()
	order := func(p uint64) uint8 { return uint8(p % n) }
	honest := honestLog(keys, game, limit, order)
	resign := func(log []*ledger.Entry, from int) {
		for i := from; i < len(log); i++ {
			e := *log[i]
			if i > 0 {
				e.Prev = log[i-1].Hash()
			}
			e.Sign(game, keys[e.Seat])
			log[i] = &e
		}
	}
	open := func(r Replica, stored []*ledger.Entry) (*Core, error) {
		return New(Config{Roster: roster, Self: 0, SignKey: keys[0], Replica: r, Tick: time.Second}, stored)
	}
	for _, tc := range []struct {
		name   string
		forge  func([]*ledger.Entry)
		honest bool
	}{
		{"honest", func([]*ledger.Entry) {}, true},
		{"a body the replica refuses", func(l []*ledger.Entry) { l[200].Body = body(7); resign(l, 200) }, false},
		{"a broken chain", func(l []*ledger.Entry) { l[150].Prev[0] ^= 1; l[150].Sign(game, keys[l[150].Seat]) }, false},
		{"a bad signature", func(l []*ledger.Entry) { l[130].Sig[0] ^= 1 }, false},
		{"another seat's turn", func(l []*ledger.Entry) { l[140].Seat = 2; resign(l, 140) }, false},
		{"another seat's turn with a broken chain", func(l []*ledger.Entry) { l[140].Seat = 2; l[140].Prev[0] ^= 1 }, false},
		{"a body refused before a broken chain", func(l []*ledger.Entry) {
			l[20].Body = body(3)
			resign(l, 20)
			l[250].Prev[0] ^= 1
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := make([]*ledger.Entry, len(honest))
			for i, e := range honest {
				c := *e
				c.Body = slices.Clone(e.Body)
				log[i] = &c
			}
			tc.forge(log)
			_, want := open(&counter{seats: n, limit: limit, order: order}, log)
			bc := &batchCounter{counter: counter{seats: n, limit: limit, order: order}}
			c, got := open(bc, log)
			if tc.honest {
				if want != nil || got != nil {
					t.Fatalf("one by one: %v; in runs: %v", want, got)
				}
				if entries, _ := c.Log(); len(entries) != limit {
					t.Fatalf("%d entries replayed", len(entries))
				}
				if len(bc.runs) == 0 || bc.runs[0] != MaxRun {
					t.Fatalf("runs %v; want runs of %d", bc.runs, MaxRun)
				}
				return
			}
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Fatalf("in runs: %v; one by one: %v", got, want)
			}
		})
	}
}
