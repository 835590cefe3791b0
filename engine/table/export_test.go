package table

import "github.com/masque-games/masque/engine/ledger"

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
