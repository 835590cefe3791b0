package table

import (
	"slices"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// ReplayStrict is Replay without its batched pass: every proof is checked
// when its entry is applied, as a live table does.
func ReplayStrict(tr *ledger.Transcript, game Game) (*Table, error) { return replayStrict(tr, game) }

// ReplayBatched is Replay's batched pass alone, checking the deferred
// proofs whenever at least flush are collected; it returns the sizes of
// the batches it checked.
func ReplayBatched(tr *ledger.Transcript, game Game, flush int) (*Table, []int, error) {
	return replayBatched(tr, game, flush)
}

// BatchProofs is the batch size Replay uses.
const BatchProofs = batchProofs

// GameProofs applies tr with its group proofs deferred and unchecked, and
// returns one function per proof that adds it to a batch.
func GameProofs(tr *ledger.Transcript, game Game) ([]func(*mental.Batch), error) {
	t, err := New(tr.Roster, game)
	if err != nil {
		return nil, err
	}
	var all []func(*mental.Batch)
	t.deferred = &deferredProofs{record: &all}
	for _, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// RecomputeStateHash hashes the table's state afresh, as StateHash
// stored it when the last entry was applied: a refused entry that
// changed the state in place shows as a difference between the two.
func RecomputeStateHash(t *Table) ledger.Hash { return t.st.computeHash(t) }

// Fork returns a copy of the table that applies entries independently of
// t (as Apply copies the state before each entry).
func (t *Table) Fork() *Table {
	c := *t
	c.st = t.st.clone()
	c.completed = slices.Clone(t.completed)
	c.seats = slices.Clone(t.seats)
	return &c
}

// BatchedPassHolds runs ApplyBatch's batched pass alone over the entries
// of tr from the table's position on (up to max) and reports whether it
// would stand (every entry applied, the batch of their proofs held); the
// table is left where it was.
func (t *Table) BatchedPassHolds(tr []*ledger.Entry, max int) bool {
	base, completed, n, last, body := t.st, t.completed, len(t.seats), t.last, t.lastBody
	defer func() { t.st, t.completed, t.seats, t.last, t.lastBody = base, completed, t.seats[:n], last, body }()
	run, stop, ok := t.deferredRun(func(pos uint64, seat uint8) *ledger.Entry {
		if pos < uint64(len(tr)) && tr[pos].Seat == seat {
			return tr[pos]
		}
		return nil
	}, max)
	return ok && stop == nil && len(run) > 0
}
