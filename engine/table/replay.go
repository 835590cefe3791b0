package table

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// Replay checks a transcript from scratch: the roster signatures, every
// card key proof, then every entry's position, hash chain, signature,
// proofs and rules, in order. It returns the table after the last entry;
// on the first bad entry it returns the table before it and a *Fault.
//
// Replay checks the group proofs (swaps, shuffles, decryption and coin
// shares, statements) of
// the whole transcript together, in one batch of up to a few thousand,
// which is faster than one by one (mental.Batch); everything else is
// checked entry by entry. If anything at all fails in that pass, Replay
// discards it and replays the transcript again checking each entry's
// proofs as it applies the entry, as a live table does, so the table and
// the *Fault it returns are always those of a live replica.
func Replay(tr *ledger.Transcript, game Game) (*Table, error) {
	if t, _, err := replayBatched(tr, game, batchProofs); err == nil {
		return t, nil
	}
	return replayStrict(tr, game)
}

// replayStrict is Replay checking every proof when its entry is applied.
func replayStrict(tr *ledger.Transcript, game Game) (*Table, error) {
	if err := tr.VerifyRoster(); err != nil {
		return nil, err
	}
	t, err := New(tr.Roster, game)
	if err != nil {
		return nil, err
	}
	for _, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			return t, err
		}
	}
	return t, nil
}

// batchProofs is how many proofs Replay's batched pass collects before it
// checks them (between two entries). A batch's cost per proof falls as it
// grows and levels off at a few hundred proofs, while its memory grows
// with it. A game of Mascarade at 13 seats carries several hundred proofs
// to a little over a thousand: one batch.
const batchProofs = 4096

// replayBatched is Replay's first pass: every entry is applied with its
// group proofs deferred into a batch, checked whenever it holds at least
// flush proofs (between two entries) and at the end. It returns the table
// only if every entry applied and every batch verified, with the sizes of
// the batches it checked; any error (or a panic, which a rules state fed
// the garbage of an unchecked share could raise) means the transcript
// must be replayed strictly. A batch that fails names the entry of the
// first proof that does not verify.
func replayBatched(tr *ledger.Transcript, game Game, flush int) (t *Table, sizes []int, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("table: batched replay: panic: %v", r)
		}
	}()
	if err := tr.VerifyRoster(); err != nil {
		return nil, nil, err
	}
	t, err = New(tr.Roster, game)
	if err != nil {
		return nil, nil, err
	}
	d := &deferredProofs{}
	t.deferred = d
	for _, e := range tr.Entries {
		if err := t.Apply(e); err != nil {
			return nil, d.sizes, fmt.Errorf("table: batched replay: %w", err)
		}
		if d.batch.Len() >= flush {
			if err := d.verify(); err != nil {
				return nil, d.sizes, err
			}
		}
	}
	if err := d.verify(); err != nil {
		return nil, d.sizes, err
	}
	t.deferred = nil
	return t, d.sizes, nil
}

// deferredProofs is the batch of a table in Replay's batched pass: the
// group proofs of the entries applied so far and not yet checked.
type deferredProofs struct {
	batch mental.Batch
	// pos[i] is the position of the entry the batch's i-th proof is from.
	pos []uint64
	// staged are the proofs of the entry being applied, added to the
	// batch only if it applies (so a rejected entry leaves the table
	// unchanged, as Apply promises).
	staged []func(*mental.Batch)
	// sizes are the sizes of the batches checked so far.
	sizes []int
	// record, if set, also receives every committed proof (benchmarks
	// compare checking them one by one with the batch).
	record *[]func(*mental.Batch)
}

// begin starts an entry: nothing is staged.
func (d *deferredProofs) begin() { d.staged = d.staged[:0] }

// stage adds a proof of the entry being applied.
func (d *deferredProofs) stage(add func(*mental.Batch)) { d.staged = append(d.staged, add) }

// commit adds the staged proofs of the entry at pos, which applied, to the
// batch.
func (d *deferredProofs) commit(pos uint64) {
	for _, add := range d.staged {
		add(&d.batch)
		d.pos = append(d.pos, pos)
		if d.record != nil {
			*d.record = append(*d.record, add)
		}
	}
	d.staged = d.staged[:0]
}

// verify checks the batch and empties it.
func (d *deferredProofs) verify() error {
	n := d.batch.Len()
	if n == 0 {
		return nil
	}
	err := d.batch.Verify()
	d.sizes = append(d.sizes, n)
	if err != nil {
		var be *mental.BatchError
		if errors.As(err, &be) && be.Index >= 0 && be.Index < len(d.pos) {
			return fmt.Errorf("table: batched replay: entry %d: %w", d.pos[be.Index], err)
		}
		return fmt.Errorf("table: batched replay: %d proofs: %w", n, err)
	}
	d.batch, d.pos = mental.Batch{}, d.pos[:0]
	return nil
}

// Games maps game names to games, for auditing transcripts of any game.
type Games map[string]Game

// Lookup returns the game a roster names.
func (g Games) Lookup(name string) (Game, error) {
	game, ok := g[name]
	if !ok {
		return nil, fmt.Errorf("unknown game %q", name)
	}
	return game, nil
}
