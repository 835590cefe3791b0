package table

import (
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
)

// Proofs checked across entries (issue 28, xbatch31).
//
// A live seat receives entries one at a time: the next author builds on
// an entry as soon as it is applied, so runs that arrive together
// (ApplyBatch) are rare. ApplyDeferred lets the seat apply each entry as
// it comes (its rules and state: Next, StateHash and Expect move on, so
// the seat knows whose turn it is) while the entry's group proofs join a
// pending batch; Settle checks that batch in one go. The seat settles
// before it acts on the state in any way (p2p/roomcore: before it writes
// or echoes an entry, authors, says done, or judges a verdict; a
// person's screen settles at every entry). If the batch fails, the table
// goes back to the state before the first unsettled entry and applies
// the unsettled entries again one at a time with their proofs checked,
// as ApplyVerified does: the entry refused, its seat and the fault are
// exactly those of a seat that checks entry by entry, and the table
// shows the state after the entries before it.

// pendingRun is what ApplyDeferred has applied and Settle not yet
// checked: the table before the first of those entries, and the state
// after each.
type pendingRun struct {
	proofs        *deferredProofs
	base          state
	baseCompleted []*Request
	baseLog       int
	baseLast      *ledger.Entry
	baseBody      *Body
	steps         []batchStep
}

// ApplyDeferred applies e, whose signature the caller has checked as for
// [Table.ApplyVerified], on top of the entries applied deferred before
// it, with its group proofs added to the pending batch unchecked. It
// returns nil when e applied (the table shows the state after it, and
// Unsettled counts it); the caller must call [Table.Settle] before it
// acts on that state.
//
// When e breaks a rule (or the rules panic on an unchecked share), the
// unsettled entries and e are applied again one by one with their proofs
// checked: ApplyDeferred then returns the first entry refused and its
// *Fault, exactly as ApplyVerified entry by entry would, with the entries
// before it settled (settled is called for each, in order, while the
// table shows the state after it) and the table in the state after them.
func (t *Table) ApplyDeferred(e *ledger.Entry, settled func(e *ledger.Entry)) (failed *ledger.Entry, err error) {
	if t.deferred != nil {
		return e, fmt.Errorf("table: ApplyDeferred during a batched replay")
	}
	if t.run == nil {
		t.run = &pendingRun{proofs: &deferredProofs{}, base: t.st, baseCompleted: t.completed,
			baseLog: len(t.seats), baseLast: t.last, baseBody: t.lastBody}
	}
	if t.applyInRun(e) {
		t.run.steps = append(t.run.steps, batchStep{e: e, st: t.st, completed: t.completed, body: t.lastBody})
		return nil, nil
	}
	// The fault a strict seat finds first may be an earlier entry's bad
	// proof, or e's own proof before the rule it also breaks.
	return t.settleEach(e, settled)
}

// applyInRun applies e in the pending run, its proofs deferred; it
// reports whether e applied (a rule broken or a panic: false, and the
// table is then undone by settleEach).
func (t *Table) applyInRun(e *ledger.Entry) (ok bool) {
	t.deferred = t.run.proofs
	defer func() {
		t.deferred = nil
		if r := recover(); r != nil {
			ok = false
		}
	}()
	return t.apply(e, false) == nil
}

// Unsettled is the number of entries ApplyDeferred applied whose proofs
// are not yet checked.
func (t *Table) Unsettled() int {
	if t.run == nil {
		return 0
	}
	return len(t.run.steps)
}

// Settle checks the proofs of the entries ApplyDeferred applied, in one
// batch. It returns nil when they hold: settled is called for each entry,
// in order, while the table shows the state after it, and the table is
// left in the state after the last. Otherwise it returns the first entry
// refused and its *Fault, those ApplyVerified entry by entry gives, with
// settled called for the entries before it and the table in the state
// after them (see ApplyDeferred).
func (t *Table) Settle(settled func(e *ledger.Entry)) (failed *ledger.Entry, err error) {
	if t.run == nil {
		return nil, nil
	}
	if t.run.proofs.batch.Len() > 0 && t.run.proofs.batch.Verify() != nil {
		return t.settleEach(nil, settled)
	}
	run := t.run
	t.run = nil
	end, endCompleted, endBody := t.st, t.completed, t.lastBody
	for _, s := range run.steps {
		t.st, t.completed, t.lastBody = s.st, s.completed, s.body
		t.last = s.e
		settled(s.e)
	}
	t.st, t.completed, t.lastBody = end, endCompleted, endBody
	return nil, nil
}

// settleEach undoes the pending run and applies its entries, then extra
// (if not nil), one by one with their proofs checked, as ApplyVerified
// does; settled is called for each entry that applies. It returns the
// first entry refused and its fault, or nil when all applied.
func (t *Table) settleEach(extra *ledger.Entry, settled func(e *ledger.Entry)) (*ledger.Entry, error) {
	run := t.run
	t.run = nil
	t.st, t.completed, t.seats, t.last, t.lastBody = run.base, run.baseCompleted, t.seats[:run.baseLog], run.baseLast, run.baseBody
	entries := make([]*ledger.Entry, 0, len(run.steps)+1)
	for _, s := range run.steps {
		entries = append(entries, s.e)
	}
	if extra != nil {
		entries = append(entries, extra)
	}
	for _, e := range entries {
		if err := t.apply(e, false); err != nil {
			return e, err
		}
		settled(e)
	}
	// Every entry applied with its proofs checked (the batched pass's
	// failure was not theirs to blame): all are settled.
	return nil, nil
}
