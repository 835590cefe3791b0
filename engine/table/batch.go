package table

import (
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
)

// ApplyBatch applies a run of entries that arrived together (a sync
// answer, a burst of a night's entries), whose signatures the caller has
// checked as for [Table.ApplyVerified], with the group proofs of the
// whole run checked in one batch (mental.Batch) instead of entry by
// entry.
//
// The run is asked for one entry at a time: next is called with the
// position and seat the table expects next and returns that entry, or
// nil to end the run (max entries at most). After each entry is applied,
// applied is called with it while the table shows the state after it
// (StateHash, Completed, LastBody are the entry's), in order.
//
// The outcome is exactly that of ApplyVerified entry by entry: ApplyBatch
// returns nil when every entry next gave applied, or the first entry
// refused and its *Fault, the same one ApplyVerified returns for it, with
// the entries before it applied and the table in the state after them.
// If anything fails in the batched pass (a rule, the batch of proofs, or
// a panic of rules fed an unchecked share), the table goes back to where
// it was and applies the run again one entry at a time, checking each
// entry's proofs as it applies it, so the failing entry, its seat and the
// reason are those of a live table that applies entries one by one.
func (t *Table) ApplyBatch(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(e *ledger.Entry)) (failed *ledger.Entry, err error) {
	if t.deferred != nil || t.run != nil {
		return nil, fmt.Errorf("table: ApplyBatch during a batched replay or with entries unsettled")
	}
	base, baseCompleted, baseLog, baseLast, baseBody := t.st, t.completed, len(t.seats), t.last, t.lastBody
	run, stop, ok := t.deferredRun(next, max)
	// Back to where the run started: the batched pass's states are only
	// shown to applied, below, once its proofs held.
	t.st, t.completed, t.seats, t.last, t.lastBody = base, baseCompleted, t.seats[:baseLog], baseLast, baseBody
	if !ok {
		return t.applyEach(next, max, applied)
	}
	for _, s := range run {
		t.st, t.completed, t.lastBody = s.st, s.completed, s.body
		t.seats = append(t.seats, s.e.Seat)
		t.last = s.e
		applied(s.e)
	}
	if stop == nil {
		return nil, nil
	}
	// The entry that ended the run failed with its proofs unchecked: its
	// fault is the one a strict apply finds first (a bad proof may come
	// before the rule it also breaks).
	return t.applyEach(next, max-len(run), applied)
}

// batchStep is the state after one entry of ApplyBatch's batched pass.
type batchStep struct {
	e         *ledger.Entry
	st        state
	completed []*Request
	body      *Body
}

// deferredRun is ApplyBatch's batched pass: it applies the entries next
// gives with their group proofs deferred, then checks those proofs. It
// returns the states after the entries applied, the entry that failed (nil:
// none), and whether the pass may stand: the entries before stop all
// applied, their proofs held, and nothing panicked.
func (t *Table) deferredRun(next func(pos uint64, seat uint8) *ledger.Entry, max int) (run []batchStep, stop *ledger.Entry, ok bool) {
	d := &deferredProofs{}
	t.deferred = d
	defer func() {
		t.deferred = nil
		if r := recover(); r != nil {
			run, stop, ok = nil, nil, false
		}
	}()
	for len(run) < max {
		pos, seat, more := t.Next()
		if !more {
			break
		}
		e := next(pos, seat)
		if e == nil {
			break
		}
		if err := t.apply(e, false); err != nil {
			stop = e
			break
		}
		run = append(run, batchStep{e: e, st: t.st, completed: t.completed, body: t.lastBody})
	}
	if d.batch.Len() > 0 && d.batch.Verify() != nil {
		return nil, nil, false
	}
	return run, stop, true
}

// applyEach applies the entries next gives one by one, as ApplyVerified
// does, up to max.
func (t *Table) applyEach(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(e *ledger.Entry)) (*ledger.Entry, error) {
	for range max {
		pos, seat, more := t.Next()
		if !more {
			return nil, nil
		}
		e := next(pos, seat)
		if e == nil {
			return nil, nil
		}
		if err := t.apply(e, false); err != nil {
			return e, err
		}
		applied(e)
	}
	return nil, nil
}
