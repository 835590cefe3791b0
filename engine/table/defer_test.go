package table_test

import (
	"errors"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// deferredSeat applies tr's entries as a live seat that checks proofs
// across entries: each entry through ApplyDeferred, and Settle after the
// entries at the positions in settleAfter, whenever the table then waits
// for seat own (the seat's own turn: it settles before it authors; -1:
// none), and at the end. It returns the table, the state hash after each
// entry settled (read in the settle callback) and the first refusal.
func deferredSeat(t *testing.T, tr *ledger.Transcript, game table.Game, settleAfter map[int]bool, own int) (*table.Table, []ledger.Hash, *ledger.Entry, error) {
	t.Helper()
	tb, err := table.New(tr.Roster, game)
	if err != nil {
		t.Fatal(err)
	}
	var states []ledger.Hash
	settled := func(e *ledger.Entry) {
		if e.Pos != uint64(len(states)) {
			t.Fatalf("entry %d settled after %d entries", e.Pos, len(states))
		}
		states = append(states, tb.StateHash())
	}
	for i, e := range tr.Entries {
		if failed, err := tb.ApplyDeferred(e, settled); err != nil || failed != nil {
			return tb, states, failed, err
		}
		_, seat, more := tb.Next()
		if settleAfter[i] || !more || int(seat) == own {
			if failed, err := tb.Settle(settled); err != nil || failed != nil {
				return tb, states, failed, err
			}
			if tb.Unsettled() != 0 {
				t.Fatalf("after Settle, %d entries unsettled", tb.Unsettled())
			}
		}
	}
	return tb, states, nil, nil
}

// A forged proof in a run of entries applied with their proofs deferred
// across entries (the bad entry first, in the middle or last of the run;
// a run that ends where the seat is due to author; a bad proof followed
// by an entry that breaks a rule; rules that panic on the unchecked
// share) is refused with the very entry, seat and fault that checking
// entry by entry gives, and the table is left exactly where that seat's
// is: the same state, after the same entries.
func TestApplyDeferredBlamedExactly(t *testing.T) {
	big := thirteen(t)
	bigBodies := bodies(t, big.tr)
	hidden := hiddenGame(t, "apply-deferred-bad", 4)
	hiddenBodies := bodies(t, hidden.tr)
	honest, err := table.ReplayStrict(hidden.tr, hidden.game)
	if err != nil {
		t.Fatal(err)
	}
	revealed := honest.Rules().(*tabletest.HiddenState).Revealed
	reveal := nth(t, hiddenBodies, 0, func(_ int, b *table.Body) bool { return len(b.Shares) == 4 })
	swapAt := middle(t, bigBodies, hasSwap)
	sharesAt := middle(t, bigBodies, hasShares)
	otherSwap := bigBodies[nth(t, bigBodies, 3, hasSwap)].Swaps[0]
	otherShare := bigBodies[nth(t, bigBodies, 5, hasShares)].Shares[0]

	type forgery struct {
		k      int
		change func(b *table.Body)
	}
	cases := []struct {
		name   string
		a      audited
		game   table.Game
		forged []forgery // the first is the entry to blame
	}{
		{name: "swap proof of another swap", a: big, forged: []forgery{{swapAt, func(b *table.Body) { b.Swaps[0].Proof = otherSwap.Proof }}}},
		{name: "share with another share's proof", a: big, forged: []forgery{{sharesAt, func(b *table.Body) { b.Shares[0] = spliceProof(t, b.Shares[0], otherShare) }}}},
		{name: "shuffle with another seat's proof", a: hidden, forged: []forgery{{2, func(b *table.Body) { b.Shuffle = hiddenBodies[1].Shuffle }}}},
		{name: "bad proof, then an entry that breaks a rule", a: hidden, forged: []forgery{
			{1, func(b *table.Body) { b.Shuffle = hiddenBodies[0].Shuffle }},
			{3, func(b *table.Body) { b.Deck[0], b.Deck[1] = b.Deck[1], b.Deck[0] }},
		}},
		{name: "shuffle of another deck (a rule, not a proof)", a: hidden, forged: []forgery{{3, func(b *table.Body) { b.Deck[0], b.Deck[1] = b.Deck[1], b.Deck[0] }}}},
		{name: "share that opens to another card, fragile rules", a: hidden, game: fragileGame{}, forged: []forgery{
			{reveal, func(b *table.Body) { b.Shares[0].D[0] = shift(b.Shares[0].D[0], revealed[0], revealed[1]) }}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			game := c.game
			if game == nil {
				game = c.a.game
			}
			a := c.a
			for _, f := range c.forged {
				a.tr = forge(t, a, f.k, true, f.change)
			}
			tr := a.tr
			k := c.forged[0].k
			bad := tr.Entries[k]
			want, wantStates, serr := strictStates(t, tr, game)
			var wf *table.Fault
			if !errors.As(serr, &wf) || wf.Pos != bad.Pos || wf.Seat != int(bad.Seat) {
				t.Fatalf("one by one: %v; want entry %d by seat %d refused", serr, bad.Pos, bad.Seat)
			}
			points := func(ps ...int) map[int]bool {
				m := make(map[int]bool)
				for _, p := range ps {
					m[p] = true
				}
				return m
			}
			runs := []struct {
				name  string
				after map[int]bool
				own   int
			}{
				{"first of its run", points(k-1, k+4), -1},
				{"in the middle of its run", points(k-3, k+3), -1},
				{"last of its run", points(k-5, k), -1},
				{"the run ends at the seat's own turn", points(k - 6), int(tr.Entries[k+1].Seat)},
				{"one run for the whole game", nil, -1},
			}
			for _, r := range runs {
				got, states, failed, err := deferredSeat(t, tr, game, r.after, r.own)
				var f *table.Fault
				if !errors.As(err, &f) || !tabletest.SameFault(f, wf) {
					t.Fatalf("%s: %v; one by one: %v", r.name, err, wf)
				}
				if failed != bad {
					t.Fatalf("%s: the refused entry is %v, not the forged entry %d", r.name, failed, k)
				}
				if got.Unsettled() != 0 {
					t.Fatalf("%s: %d entries left unsettled after the refusal", r.name, got.Unsettled())
				}
				sameTable(t, got, want)
				if len(states) != k {
					t.Fatalf("%s: %d entries settled, want the %d before the bad one", r.name, len(states), k)
				}
				for i := range states {
					if states[i] != wantStates[i] {
						t.Fatalf("%s: the state after entry %d differs", r.name, i)
					}
				}
			}
		})
	}
}

// An honest game applied with proofs deferred across entries settles
// every entry, in order, to the states entry-by-entry application
// reaches, and the table refuses a strict apply on top of unsettled
// entries (a caller must settle first).
func TestApplyDeferredMatchesOneByOne(t *testing.T) {
	a := thirteen(t)
	want, wantStates, err := strictStates(t, a.tr, a.game)
	if err != nil {
		t.Fatal(err)
	}
	for _, every := range []int{1, 12, 1000} {
		after := make(map[int]bool)
		for i := every - 1; i < len(a.tr.Entries); i += every {
			after[i] = true
		}
		got, states, failed, err := deferredSeat(t, a.tr, a.game, after, -1)
		if err != nil || failed != nil {
			t.Fatalf("settled every %d: %v", every, err)
		}
		sameTable(t, got, want)
		for i := range wantStates {
			if states[i] != wantStates[i] {
				t.Fatalf("settled every %d: the state after entry %d differs", every, i)
			}
		}
	}
	tb, err := table.New(a.tr.Roster, a.game)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.ApplyDeferred(a.tr.Entries[0], func(*ledger.Entry) {}); err != nil {
		t.Fatal(err)
	}
	if err := tb.ApplyVerified(a.tr.Entries[1]); err == nil {
		t.Fatal("ApplyVerified applied an entry on top of an unsettled one")
	}
}
