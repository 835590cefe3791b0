package roomcore

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// TestLateTimeoutNeedsMostOfTheTable performs issue 23's item 2 on the
// decision itself, at every table size from 2 to 7 seats: seats declare,
// one after another, a seat silent at a position whose entry the peer
// holds. A peer adopts the verdict only once more than half the table
// (the named seat and itself left out) declared it: never on one seat's
// word at two seats, never on two colluders' at four (both used to make
// it adopt). It never adopts one naming itself: it stops with
// ErrTimedOut once more than half the table declared it, where it used
// to adopt it on the word of the other seat at two seats, of two at four.
// After the game's last entry it adopts none: a finished game's outcome
// stands.
func TestLateTimeoutNeedsMostOfTheTable(t *testing.T) {
	for n := 2; n <= 7; n++ {
		majority := n/2 + 1
		for _, c := range []struct {
			name          string
			named         uint8
			stored, limit uint64
		}{
			{"names another seat", 1, uint64(2 * n), 100},
			{"names this seat", 0, uint64(2 * n), 100},
			{"after the end, names another seat", 1, uint64(2 * n), uint64(2 * n)},
			{"after the end, names this seat", 0, uint64(2 * n), uint64(2 * n)},
		} {
			t.Run(fmt.Sprintf("%d seats, %s", n, c.name), func(t *testing.T) {
				b := newBench(t, n, 0, c.stored, c.limit)
				over := c.stored == c.limit
				votes := 0
				for d := 1; d < n; d++ {
					if uint8(d) == c.named {
						continue
					}
					votes++
					// The named seat's entry at position named, held here.
					got, err := b.core.onVerdict(uint8(d), b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: uint64(c.named), Seat: c.named, Declarer: uint8(d)}))
					enough := votes >= majority && !over
					switch {
					case c.named == 0 && got != nil:
						t.Fatalf("%d declarations: adopted %v, naming this seat", votes, got)
					case c.named == 0 && enough != errors.Is(err, ErrTimedOut):
						t.Fatalf("%d declarations naming this seat: %v; want ErrTimedOut: %v", votes, err, enough)
					case c.named != 0 && err != nil:
						t.Fatalf("%d declarations: %v", votes, err)
					case c.named != 0 && (got != nil) != enough:
						t.Fatalf("%d of %d seats declared seat %d: adopted %v; want adopted: %v", votes, n, c.named, got, enough)
					}
				}
			})
		}
	}
}

// TestCompareNeedsMostOfTheTable performs issue 23's item 3 on the
// decision itself: at every table size from 2 to 9 seats, the other
// seats report, one after another, another state hash after entry 0 than
// this peer's. It stops (its replica is the odd one) only once more than
// half the table disagrees with it, so no coalition of half the table or
// fewer stops an honest peer (two seats of four used to); when it stops,
// its room holds its signed statement naming itself only.
func TestCompareNeedsMostOfTheTable(t *testing.T) {
	for n := 2; n <= 9; n++ {
		t.Run(fmt.Sprintf("%d seats", n), func(t *testing.T) {
			b := newBench(t, n, 0, 1, 100)
			mine := b.core.states[0]
			wrong := mine
			wrong[0] ^= 1
			for s := 1; s < n; s++ {
				err := b.core.compare(uint8(s), 0, wrong, mine)
				if stop := s >= n/2+1; (err != nil) != stop {
					t.Fatalf("%d of %d seats disagree: %v; want a stop: %v", s, n, err, stop)
				}
				v := b.core.Verdict()
				if err == nil {
					if v != nil {
						t.Fatalf("a verdict without a stop: %v", v)
					}
					continue
				}
				if v == nil || v.Kind != VerdictDivergence || v.Seat != 0 || v.Declarer != 0 || v.Pos != 0 {
					t.Fatalf("stopped with verdict %v; want this seat's own statement", v)
				}
				if err := v.Verify(b.roster); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestStatementReplacesTimeout: a seat that stopped on a divergence and
// said so is not blamed: where the table times it out, it ends with the
// seat's own statement (it used to name the seat in a timeout). Another
// seat's divergence verdict about it changes nothing.
func TestStatementReplacesTimeout(t *testing.T) {
	b := newBench(t, 3, 0, 2, 100) // seat 2 is due at entry 2
	other := b.verdict(t, Verdict{Kind: VerdictDivergence, Pos: 1, Seat: 2, Declarer: 1})
	if v, err := b.core.onVerdict(1, other); v != nil || err != nil {
		t.Fatalf("seat 1's word about seat 2: %v, %v", v, err)
	}
	if v, _ := b.core.timeout(2, 2, 0); v.Kind != VerdictTimeout {
		t.Fatalf("timeout after another seat's word: %v", v)
	}
	own := b.verdict(t, Verdict{Kind: VerdictDivergence, Pos: 1, Seat: 2, Declarer: 2})
	if v, err := b.core.onVerdict(1, own); v != nil || err != nil { // relayed by seat 1
		t.Fatalf("seat 2's statement: %v, %v", v, err)
	}
	if v, err := b.core.timeout(2, 2, 0); err != nil || v != own {
		t.Fatalf("timeout of seat 2 after its statement: %v, %v; want the statement", v, err)
	}
	if v, _ := b.core.timeout(2, 1, 0); v.Kind != VerdictTimeout || v.Seat != 1 {
		t.Fatalf("timeout of seat 1: %v", v)
	}
}

// TestFinishedGameStandsDecision performs issue 23's item 5 on the
// decision: after the game's last entry, a seat signs another version of
// its entry 2. The equivocation is held while more than half the seats
// other than the one it names do not yet hold this log's end (one may
// have stopped on it before the end, or hold another last entry), and
// reported beside the finished game once they do; neither the named
// seat's confirmation is needed nor, at four seats, a colluder's.
func TestFinishedGameStandsDecision(t *testing.T) {
	for _, c := range []struct {
		name        string
		n           int
		equivocator uint8
		confirm     []uint8 // the seats that confirm the end, in order
		standsAfter int     // how many confirmations until it stands
	}{
		{"two seats", 2, 1, nil, 0},
		{"three seats", 3, 2, []uint8{1}, 1},
		{"four seats, seat 2 withholds", 4, 3, []uint8{1}, 1},
		{"four seats, seat 1 withholds", 4, 3, []uint8{2}, 1},
		{"five seats", 5, 4, []uint8{1, 3}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			last := uint64(2 * c.n)
			b := newBench(t, c.n, 0, last, last)
			p := uint64(c.equivocator)
			e := &ledger.Entry{Pos: p, Seat: c.equivocator, Prev: b.log[p].Prev, Body: body(p, 'x')}
			e.Sign(b.game, b.keys[c.equivocator])
			v, err := b.core.onEntry(int(c.equivocator), e, ledger.Hash{}, false)
			if err != nil || v == nil || v.Kind != VerdictEquivocation {
				t.Fatalf("%v, %v", v, err)
			}
			b.core.afterEnd(v)
			for k := 0; ; k++ {
				stands := k >= c.standsAfter
				if stands != (len(b.core.later) == 1) || stands == (len(b.core.held) == 1) {
					t.Fatalf("after %d confirmations: held %v, later %v; want it to stand: %v", k, b.core.held, b.core.later, stands)
				}
				if k == len(c.confirm) {
					break
				}
				b.core.confirm(c.confirm[k], last-1)
				b.core.settle()
			}
			if out := b.core.outcome(nil); out.Verdict != nil || len(out.Later) != 1 || out.Entries != last {
				t.Fatalf("outcome %+v", out)
			}
		})
	}
}

// TestAdoptedLateTimeoutSurvivesRestart: a late timeout this peer adopts
// once more than half the table declared it is stored with their
// declarations, and a restart on that state directory accepts it (the
// check of TestStoredLateTimeoutNeedsItsMajority refuses only forgeries).
func TestAdoptedLateTimeoutSurvivesRestart(t *testing.T) {
	b := newBench(t, 5, 0, 4, 100)
	var adopted *Verdict
	for _, d := range []uint8{1, 3, 4} {
		got, err := b.core.onVerdict(d, b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 2, Seat: 2, Declarer: d}))
		if err != nil {
			t.Fatal(err)
		}
		adopted = got
	}
	if adopted == nil {
		t.Fatal("three of five seats declared seat 2 silent: not adopted")
	}
	b.core.conclude(adopted)
	rd := b.core.take()
	if rd.Err != nil || rd.Save == nil {
		t.Fatalf("concluded: %v, stored %d bytes", rd.Err, len(rd.Save))
	}
	out, err := b.open(t, Config{}).CheckStored(rd.Save)
	if err != nil || out == nil || out.Verdict == nil || out.Verdict.Pos != 2 || out.Verdict.Seat != 2 || out.Entries != 2 {
		t.Fatalf("restarted: %v, %+v; want the adopted timeout of seat 2 at entry 2", err, out)
	}
}

// TestForkedEntryBlamesNotItsAuthor is the third look's attack on an
// honest peer: two colluders of five, seat 3 signing two versions of
// entry 3 (A to the honest seat 4, B to this peer, seat 0) and seat 1
// relaying seat 4's honest entry 4, signed onto A, to this peer before
// seat 4's own echo of A arrives (a faster path than seat 4's relayed
// one), as an invalid-entry verdict or as the entry alone. The entry did
// not chain onto this peer's log, and this peer declared seat 4's entry
// invalid, stopped and stored it; the others, who hold A, played on and
// then timed this honest peer out. An entry that does not chain onto the
// log shows no fault of its author (the previous entry's author may have
// signed another): it is held, and this peer fetches that author's log,
// where the other version proves the equivocation.
func TestForkedEntryBlamesNotItsAuthor(t *testing.T) {
	for _, asVerdict := range []bool{true, false} {
		t.Run(fmt.Sprintf("as a verdict: %v", asVerdict), func(t *testing.T) {
			b := newBench(t, 5, 0, 4, 100) // this peer holds B: b.log[3]
			a := &ledger.Entry{Pos: 3, Seat: 3, Prev: b.log[2].Hash(), Body: body(3, 'a')}
			a.Sign(b.game, b.keys[3])
			x := &ledger.Entry{Pos: 4, Seat: 4, Prev: a.Hash(), Body: body(4)}
			x.Sign(b.game, b.keys[4])
			var got *Verdict
			var err error
			if asVerdict {
				got, err = b.core.onVerdict(1, b.verdict(t, Verdict{Kind: VerdictInvalidEntry, Pos: 4, Seat: 4,
					Reason: "previous hash does not match the log", Evidence: []*ledger.Entry{x}, Declarer: 1}))
			} else {
				got, err = b.core.onEntry(1, x, ledger.Hash{}, false)
			}
			if err != nil || got != nil {
				t.Fatalf("seat 4's entry signed onto seat 3's other entry 3: verdict %v, error %v; want it held, nobody blamed", got, err)
			}
			if !b.core.conflict {
				t.Fatal("the entry is held but no conflict is being resolved: the other entry 3 is not fetched")
			}
			// Seat 4's log, fetched, brings seat 3's other entry 3: the
			// equivocation that explains the fork.
			got, err = b.core.onEntry(4, a, ledger.Hash{}, false)
			if err != nil || got == nil || got.Kind != VerdictEquivocation || got.Seat != 3 || got.Pos != 3 {
				t.Fatalf("seat 3's other entry 3: verdict %v, error %v; want seat 3's equivocation", got, err)
			}
		})
	}
}

// TestColluderTimeoutWaitsForTheComebackRule is the third look's attack
// on issue 29's rule: this peer's timer for seat 4's entry 4 has run out
// (its network was down a while), but seat 2 reports holding that entry
// (an echo): the entry exists, and the run loop fetches it rather than
// declare seat 4 silent (mayDeclare). A colluder's timeout verdict for
// that position made this peer declare it at once ("our own timer says
// the same"), bypassing the rule: the honest seat 4 was blamed. The
// peer's own timer now backs a colluder's verdict only where the run loop
// would declare it itself.
func TestColluderTimeoutWaitsForTheComebackRule(t *testing.T) {
	b := newBench(t, 5, 0, 4, 100)
	r := b.core
	r.cfg.Timeout = time.Second
	now := time.Now()
	r.waitPos, r.waitSince = 4, now.Add(-2*time.Second)
	for s := range uint8(5) {
		r.contact(s, now)
	}
	r.claimAt(2, 4) // seat 2 echoed entry 4
	got, err := r.onVerdict(1, b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 1}))
	if err != nil || got != nil {
		t.Fatalf("a colluder's timeout of seat 4, whose entry seat 2 holds: verdict %v, error %v; want none (the entry is fetched)", got, err)
	}
	// Where the entry is truly missing (no seat reports it, and seats
	// asked after the timer ran out answered without it), the colluder's
	// verdict is this peer's own too.
	b2 := newBench(t, 5, 0, 4, 100)
	r2 := b2.core
	r2.cfg.Timeout = time.Second
	r2.waitPos, r2.waitSince = 4, now.Add(-3*time.Second)
	for s := range uint8(5) {
		r2.contact(s, now)
	}
	r2.onSynced(2, 4, now) // seat 2, asked after the timer ran out, holds 4 entries
	got, err = r2.onVerdict(1, b2.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 1}))
	if err != nil || got == nil || got.Kind != VerdictTimeout || got.Seat != 4 || got.Declarer != 0 {
		t.Fatalf("seat 4's entry missing everywhere: verdict %v, error %v; want this peer's own timeout of seat 4", got, err)
	}
}

// TestDueTimeoutNeedsMostOfTheTable is the decision behind
// TestSimSilentSeatLongLate, at every table size from 2 to 7 seats: this
// peer waits at a position, its own timer far from run out (the entry
// before reached it late), and the other seats declare the seat due
// there silent, one after another. It adopts their verdict only once
// more than half the table (the named seat and itself left out)
// declared it, so no coalition of half the table or fewer cuts its wait
// short: never at two, three or four seats, where the others are too
// few. When it is the seat due (still authoring), it adopts none and
// stops with ErrTimedOut once more than half the table declared it.
// Declarations of another seat, or of another position, count for
// nothing.
func TestDueTimeoutNeedsMostOfTheTable(t *testing.T) {
	for n := 2; n <= 7; n++ {
		majority := n/2 + 1
		for _, c := range []struct {
			name   string
			stored uint64 // the position waited at: its seat is stored % n
		}{
			{"names another seat", uint64(2*n + 1)},
			{"names this seat", uint64(2 * n)},
		} {
			t.Run(fmt.Sprintf("%d seats, %s", n, c.name), func(t *testing.T) {
				b := newBench(t, n, 0, c.stored, 100)
				r := b.core
				r.cfg.Timeout = 20 * time.Second
				r.waitPos, r.waitSince = c.stored, r.now.Add(-time.Second)
				for s := range uint8(n) {
					r.contact(s, r.now)
				}
				named := uint8(c.stored % uint64(n))
				// Beside each declaration: one of the named seat at
				// another position, and one of a seat not due there.
				other := (named + 1) % uint8(n)
				votes := 0
				for d := 1; d < n; d++ {
					if uint8(d) == named {
						continue
					}
					for _, noise := range []Verdict{
						{Kind: VerdictTimeout, Pos: c.stored + 1, Seat: named, Declarer: uint8(d)},
						{Kind: VerdictTimeout, Pos: c.stored, Seat: other, Declarer: uint8(d)},
					} {
						if got, err := r.onVerdict(uint8(d), b.verdict(t, noise)); got != nil || err != nil {
							t.Fatalf("seat %d's timeout of seat %d at entry %d, seat %d due at %d: verdict %v, error %v; want none", d, noise.Seat, noise.Pos, named, c.stored, got, err)
						}
					}
					votes++
					got, err := r.onVerdict(uint8(d), b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: c.stored, Seat: named, Declarer: uint8(d)}))
					enough := votes >= majority
					switch {
					case named == 0 && got != nil:
						t.Fatalf("%d declarations: adopted %v, naming this seat", votes, got)
					case named == 0 && enough != errors.Is(err, ErrTimedOut):
						t.Fatalf("%d declarations naming this seat: %v; want ErrTimedOut: %v", votes, err, enough)
					case named != 0 && err != nil:
						t.Fatalf("%d declarations: %v", votes, err)
					case named != 0 && (got != nil) != enough:
						t.Fatalf("%d of %d seats declared seat %d silent at entry %d, this peer's timer not run out: adopted %v; want adopted: %v", votes, n, named, c.stored, got, enough)
					case got != nil && (got.Seat != named || got.Pos != c.stored || got.Declarer == 0):
						t.Fatalf("adopted %v; want the declarers' timeout of seat %d at entry %d", got, named, c.stored)
					}
					if got != nil || err != nil {
						return
					}
				}
				if n > 4 || named == 0 && n > 2 {
					t.Fatalf("all %d other seats declared: nothing adopted", votes)
				}
			})
		}
	}
}

// TestAdoptedDueTimeoutSurvivesRestart: a timeout at the position this
// peer waits at, adopted once more than half the table declared it, is
// stored with their declarations and accepted on restart; the same
// verdict stored with one declaration too few is refused (a state
// directory holding two colluders' signed timeouts of five cannot pass
// them off as adopted).
func TestAdoptedDueTimeoutSurvivesRestart(t *testing.T) {
	b := newBench(t, 5, 0, 7, 100) // seat 2 due at entry 7
	var adopted *Verdict
	for _, d := range []uint8{1, 3, 4} {
		got, err := b.core.onVerdict(d, b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 7, Seat: 2, Declarer: d}))
		if err != nil {
			t.Fatal(err)
		}
		adopted = got
	}
	if adopted == nil {
		t.Fatal("three of five seats declared seat 2 silent at entry 7: not adopted")
	}
	b.core.conclude(adopted)
	rd := b.core.take()
	if rd.Err != nil || rd.Save == nil {
		t.Fatalf("concluded: %v, stored %d bytes", rd.Err, len(rd.Save))
	}
	out, err := b.open(t, Config{}).CheckStored(rd.Save)
	if err != nil || out == nil || out.Verdict == nil || out.Verdict.Pos != 7 || out.Verdict.Seat != 2 || out.Entries != 7 {
		t.Fatalf("restarted: %v, %+v; want the adopted timeout of seat 2 at entry 7", err, out)
	}
	v, decl, err := UnmarshalStoredVerdict(rd.Save)
	if err != nil || len(decl) != 2 {
		t.Fatalf("stored record: %v, %d declarations; want 2 beside the verdict", err, len(decl))
	}
	short, err := MarshalStoredVerdict(v, decl[:1])
	if err != nil {
		t.Fatal(err)
	}
	if out, err := b.open(t, Config{}).CheckStored(short); err == nil {
		t.Fatalf("a due timeout stored with two declarations of five: accepted (%+v)", out)
	}
}

// TestOwnTimerCountsDeclarations is the decision behind
// TestSimSilentSeatTimedOutAlike's three-seat cases: this peer's timer
// for seat 2's entry 5 has run out, but its syncs went unanswered (lost,
// then the other seat left): the run loop would not declare (it cannot
// check that the entry is missing). Seat 1's timeout verdict for that
// position is that seat's word that it does not hold the entry, as its
// sync answer would be: this peer declares seat 2 silent itself. A
// declaration of another position does not count; an echo of the entry
// by a seat still holds it back (issue 29).
func TestOwnTimerCountsDeclarations(t *testing.T) {
	for _, c := range []struct {
		name    string
		pos     uint64 // declared
		claimed bool   // seat 1 echoed entry 5
		want    bool
	}{
		{"declared", 5, false, true},
		{"another position declared", 6, false, false},
		{"declared, but the entry echoed", 5, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t, 3, 0, 5, 100) // seat 2 due at entry 5
			r := b.core
			r.cfg.Timeout = time.Second
			r.waitPos, r.waitSince = 5, r.now.Add(-3*time.Second)
			for s := range uint8(3) {
				r.contact(s, r.now)
			}
			if r.mayDeclare(5, r.now) {
				t.Fatal("no sync answered since the timer ran out: the run loop may declare")
			}
			if c.claimed {
				r.claimAt(1, 5)
			}
			got, err := r.onVerdict(1, b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: c.pos, Seat: 2, Declarer: 1}))
			if err != nil {
				t.Fatal(err)
			}
			if (got != nil) != c.want || got != nil && (got.Seat != 2 || got.Pos != 5 || got.Declarer != 0) {
				t.Fatalf("verdict %v; want this peer's own timeout of seat 2 at entry 5: %v", got, c.want)
			}
		})
	}
}
