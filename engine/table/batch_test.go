package table_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// applyRuns applies tr's entries to a fresh table through ApplyBatch, in
// runs of run entries, as a network layer hands over the entries that
// arrived together; it returns the table, the state hash after each
// entry applied (read in ApplyBatch's callback) and the first error.
func applyRuns(t *testing.T, tr *ledger.Transcript, game table.Game, run int) (*table.Table, []ledger.Hash, *ledger.Entry, error) {
	t.Helper()
	tb, err := table.New(tr.Roster, game)
	if err != nil {
		t.Fatal(err)
	}
	var states []ledger.Hash
	for start := 0; start < len(tr.Entries); start += run {
		end := min(start+run, len(tr.Entries))
		next := func(pos uint64, seat uint8) *ledger.Entry {
			if pos >= uint64(end) || tr.Entries[pos].Seat != seat {
				return nil
			}
			return tr.Entries[pos]
		}
		failed, err := tb.ApplyBatch(next, run, func(e *ledger.Entry) {
			states = append(states, tb.StateHash())
			if b, err := tb.Body(e); err != nil {
				t.Errorf("entry %d: %v", e.Pos, err)
			} else if enc, err := b.MarshalBinary(); err != nil || !bytes.Equal(enc, e.Body) {
				t.Errorf("entry %d: the kept body is not the entry's (%v)", e.Pos, err)
			}
		})
		if err != nil {
			return tb, states, failed, err
		}
		if len(states) != end {
			t.Fatalf("a run of entries %d to %d applied up to %d", start, end, len(states))
		}
	}
	return tb, states, nil, nil
}

func mustBody(t *testing.T, e *ledger.Entry) *table.Body {
	b, err := table.UnmarshalBody(e.Body, 1)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// strictStates applies tr's entries one by one with ApplyVerified, as a
// live table did before batches, and returns the state hash after each
// and the first fault.
func strictStates(t *testing.T, tr *ledger.Transcript, game table.Game) (*table.Table, []ledger.Hash, error) {
	t.Helper()
	tb, err := table.New(tr.Roster, game)
	if err != nil {
		t.Fatal(err)
	}
	var states []ledger.Hash
	for _, e := range tr.Entries {
		if err := tb.ApplyVerified(e); err != nil {
			return tb, states, err
		}
		states = append(states, tb.StateHash())
	}
	return tb, states, nil
}

// Entries that arrive together are applied with their proofs checked in
// one batch, to the very states one-by-one application reaches.
func TestApplyBatchMatchesOneByOne(t *testing.T) {
	for _, a := range []audited{thirteen(t), hiddenGame(t, "apply-batch", 5), showOthers(t)} {
		t.Run(a.name, func(t *testing.T) {
			want, wantStates, err := strictStates(t, a.tr, a.game)
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range []int{1, 7, 64} {
				got, states, _, err := applyRuns(t, a.tr, a.game, run)
				if err != nil {
					t.Fatalf("runs of %d: %v", run, err)
				}
				sameTable(t, got, want)
				if len(states) != len(wantStates) {
					t.Fatalf("runs of %d: %d states, want %d", run, len(states), len(wantStates))
				}
				for i := range states {
					if states[i] != wantStates[i] {
						t.Fatalf("runs of %d: the state after entry %d differs", run, i)
					}
				}
			}
			// The batched pass stands for an honest run: the proofs were
			// checked together, not one by one after a failure.
			fresh, err := table.New(a.tr.Roster, a.game)
			if err != nil {
				t.Fatal(err)
			}
			if !fresh.BatchedPassHolds(a.tr.Entries, 64) {
				t.Fatal("the batched pass fails on an honest run")
			}
		})
	}
}

// One bad entry slipped into a run that arrived together: the entries
// before it apply, and it is refused with the fault (seat, reason, words)
// one-by-one application gives, whether the batch of proofs, a rule or
// the rules' panic stopped the batched pass.
func TestApplyBatchBadEntryBlamedExactly(t *testing.T) {
	big := thirteen(t)
	bigBodies := bodies(t, big.tr)
	hidden := hiddenGame(t, "apply-batch-bad", 4)
	hiddenBodies := bodies(t, hidden.tr)
	princess := showOthers(t)
	princessBodies := bodies(t, princess.tr)
	honest, err := table.ReplayStrict(hidden.tr, hidden.game)
	if err != nil {
		t.Fatal(err)
	}
	revealed := honest.Rules().(*tabletest.HiddenState).Revealed
	reveal := nth(t, hiddenBodies, 0, func(_ int, b *table.Body) bool { return len(b.Shares) == 4 })
	swapAt := middle(t, bigBodies, hasSwap)
	sharesAt := middle(t, bigBodies, hasShares)
	owed := owedFor(t, big)
	peekAt := middle(t, bigBodies, func(i int, _ *table.Body) bool { return owed[i] == engine.EffectPeek })
	otherSwap := bigBodies[nth(t, bigBodies, 3, hasSwap)].Swaps[0]
	otherShare := bigBodies[nth(t, bigBodies, 5, hasShares)].Shares[0]
	encAt := nth(t, princessBodies, 1, func(_ int, b *table.Body) bool { return len(b.EncShares) > 1 })

	cases := []struct {
		name   string
		a      audited
		game   table.Game
		k      int
		via    string // how the batched pass fails (see TestReplayBadProof)
		change func(b *table.Body)
	}{
		{name: "swap proof of another swap", a: big, k: swapAt, via: "batch",
			change: func(b *table.Body) { b.Swaps[0].Proof = otherSwap.Proof }},
		{name: "share with another share's proof", a: big, k: sharesAt, via: "batch",
			change: func(b *table.Body) { b.Shares[0] = spliceProof(t, b.Shares[0], otherShare) }},
		{name: "peek share of a random point", a: big, k: peekAt, via: "batch",
			change: func(b *table.Body) { b.EncShares[0].E2[0] = randomElement() }},
		{name: "shuffle with another seat's proof", a: hidden, k: 2, via: "batch",
			change: func(b *table.Body) { b.Shuffle = hiddenBodies[1].Shuffle }},
		{name: "shuffle of another deck", a: hidden, k: 3, via: "entry",
			change: func(b *table.Body) { b.Deck[0], b.Deck[1] = b.Deck[1], b.Deck[0] }},
		{name: "encrypted shares to each other's recipients", a: princess, k: encAt, via: "batch",
			change: func(b *table.Body) { b.EncShares[0], b.EncShares[1] = b.EncShares[1], b.EncShares[0] }},
		{name: "share that opens to another card", a: hidden, k: reveal, via: "batch",
			change: func(b *table.Body) { b.Shares[0].D[0] = shift(b.Shares[0].D[0], revealed[0], revealed[1]) }},
		{name: "share that opens to another card, fragile rules", a: hidden, game: fragileGame{}, k: reveal, via: "panic",
			change: func(b *table.Body) { b.Shares[0].D[0] = shift(b.Shares[0].D[0], revealed[0], revealed[1]) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			game := c.game
			if game == nil {
				game = c.a.game
			}
			tr := forge(t, c.a, c.k, true, c.change)
			bad := tr.Entries[c.k]
			want, wantStates, serr := strictStates(t, tr, game)
			var wf *table.Fault
			if !errors.As(serr, &wf) || wf.Pos != bad.Pos || wf.Seat != int(bad.Seat) {
				t.Fatalf("one by one: %v; want entry %d by seat %d refused", serr, bad.Pos, bad.Seat)
			}
			// Runs in which the bad entry is first, in the middle, last.
			for _, run := range []int{len(tr.Entries), 64, 5, 1} {
				got, states, failed, err := applyRuns(t, tr, game, run)
				var f *table.Fault
				if !errors.As(err, &f) || !tabletest.SameFault(f, wf) {
					t.Fatalf("runs of %d: %v; one by one: %v", run, err, wf)
				}
				if failed != bad {
					t.Fatalf("runs of %d: the failed entry is not the forged one", run)
				}
				sameTable(t, got, want)
				if len(states) != c.k {
					t.Fatalf("runs of %d: %d entries applied, want the %d before the bad one", run, len(states), c.k)
				}
				for i := range states {
					if states[i] != wantStates[i] {
						t.Fatalf("runs of %d: the state after entry %d differs", run, i)
					}
				}
			}
			// The batched pass itself fails on the run holding the bad
			// entry (or, via "entry", stops at it).
			if c.via != "entry" {
				fresh, err := table.New(tr.Roster, game)
				if err != nil {
					t.Fatal(err)
				}
				if fresh.BatchedPassHolds(tr.Entries, len(tr.Entries)) {
					t.Fatal("the batched pass stands over the bad entry")
				}
			}
		})
	}
}

// The body of the entry just applied is kept, decoded once: a narrator
// or a seat following the game reads it (Table.Body) without decoding
// its points again, and bodies of earlier entries are decoded afresh.
func TestBodyDecodedOnce(t *testing.T) {
	a := thirteen(t)
	tb, err := table.New(a.tr.Roster, a.game)
	if err != nil {
		t.Fatal(err)
	}
	var first *ledger.Entry
	for _, orig := range a.tr.Entries[:40] {
		e := *orig
		e.Body = slices.Clone(orig.Body)
		if err := tb.Apply(&e); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = &e
		}
		kept, err := tb.Body(&e)
		if err != nil {
			t.Fatal(err)
		}
		// Clobbered after it was applied: what is read is what was
		// decoded then, not the bytes decoded again.
		clear(e.Body)
		again, err := tb.Body(&e)
		if err != nil || again != kept {
			t.Fatalf("entry %d: the body is decoded again (%v)", e.Pos, err)
		}
		if enc, err := kept.MarshalBinary(); err != nil || !bytes.Equal(enc, orig.Body) {
			t.Fatalf("entry %d: the kept body is not the entry's", e.Pos)
		}
	}
	// Only the last entry's body is kept: an earlier one (clobbered
	// above) is decoded afresh.
	if _, err := tb.Body(first); err == nil {
		t.Fatal("an earlier entry's clobbered body decodes")
	}
	fresh, err := tb.Body(a.tr.Entries[1])
	if err != nil || fresh.Kind != mustBody(t, a.tr.Entries[1]).Kind {
		t.Fatalf("an earlier entry's body: %v", err)
	}
}

// BenchmarkApplyBatch applies a 13-seat game of Mascarade (494 entries,
// 552 proofs) as a live seat whose entries arrive in runs of 1 (one by
// one: every entry's proofs checked alone), 8 or 128 (a sync answer, a
// restart's replay), against ApplyVerified one by one; each reports the
// time per entry.
func BenchmarkApplyBatch(b *testing.B) {
	tr := game13(b)
	perEntry := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(tr.Entries)), "µs/entry")
	}
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			tb, err := table.New(tr.Roster, mascarade.Game{})
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range tr.Entries {
				if err := tb.ApplyVerified(e); err != nil {
					b.Fatal(err)
				}
			}
		}
		perEntry(b)
	})
	for _, run := range []int{1, 8, 128} {
		b.Run(fmt.Sprintf("runs-of-%d", run), func(b *testing.B) {
			for b.Loop() {
				tb, err := table.New(tr.Roster, mascarade.Game{})
				if err != nil {
					b.Fatal(err)
				}
				for start := 0; start < len(tr.Entries); start += run {
					end := min(start+run, len(tr.Entries))
					if _, err := tb.ApplyBatch(func(pos uint64, seat uint8) *ledger.Entry {
						if pos >= uint64(end) {
							return nil
						}
						return tr.Entries[pos]
					}, run, func(*ledger.Entry) {}); err != nil {
						b.Fatal(err)
					}
				}
			}
			perEntry(b)
		})
	}
}
