package mental

import (
	"testing"

	"github.com/masque-games/masque/mental/dudect"
	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Timing of Mafia's secret-dependent provers, measured the dudect way
// (mental/dudect): long, and run only when asked with the number of
// measurements per class and case:
//
//	MASQUE_DUDECT=3000 go test ./mental -run TestMafiaProverTiming -v
//
// Two controls plant a leak in one class (extra scalar multiplications
// by the base point: 2 after a tag, 16 after a ballot, a few percent of
// their time, far less than proving a real branch instead of simulating
// it) and must measure it, so a low |t| is not the harness's blindness.

// TestMafiaProverTiming measures whether the time of a Mafia seat's
// night proofs depends on its role or its choice: the powered ballot
// (the mafia's kill: a civilian's empty ballot against a mafioso's vote;
// a mafioso's vote for one seat against another), the Commissar's
// mandatory check (a civilian's neutral check against the Commissar's;
// the Commissar checking one seat against another) and the recognition
// tag (a mafioso's tag of S against a civilian's random bytes). Each
// pair of classes has the same seat, table size and statement shape; only
// the seat's role (its dealt tuple) and its choice differ.
func TestMafiaProverTiming(t *testing.T) {
	n := dudect.FromEnv()
	if n == 0 {
		t.Skipf("set %s=N (measurements per class and case) to measure", dudect.Env)
	}
	// Seat 0 is a Civilian at one table and a Mafioso or the Commissar
	// at the others; the other roles are the same multiset.
	civ := newMafiaTable(t, []int{mCivilian, mCommissar, mMafioso, mMafioso, mNurse, mCivilian, mCivilian}, false)
	maf := newMafiaTable(t, []int{mMafioso, mCommissar, mCivilian, mMafioso, mNurse, mCivilian, mCivilian}, false)
	com := newMafiaTable(t, []int{mCommissar, mCivilian, mMafioso, mMafioso, mNurse, mCivilian, mCivilian}, false)
	ballot := func(mt *mafiaTable, choice int) func() {
		st := mt.powerStatement(0, 0, mKill, false)
		return func() {
			if _, err := ProvePowerBallot(mt.ctx(0, 10), mt.jk, mt.sks[0], mt.views[0], st, choice); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(mt *mafiaTable, target int) func() {
		st := mt.checkStatement(0, true)
		return func() {
			if _, err := ProveCheck(mt.ctx(0, 20), mt.jk, mt.sks[0], mt.views[0], st, target); err != nil {
				t.Fatal(err)
			}
		}
	}
	tag := func(mt *mafiaTable) func() {
		return func() {
			m, err := mt.sks[0].ViewedPoints(mt.views[0], mt.seen[0], mt.sent[0])
			if err != nil {
				t.Fatal(err)
			}
			TagFor(m[2], mNeutral, mt.game, 1, 0)
		}
	}
	// Count lookups (SPEC.md §9.9) of seat 0's kill ballot: empty, or a
	// vote for one seat or another, over the same tally.
	lookup := func(mt *mafiaTable, choice int) func() {
		st := mt.powerStatement(0, 0, mKill, false)
		b, err := ProvePowerBallot(mt.ctx(0, 10), mt.jk, mt.sks[0], mt.views[0], st, choice)
		if err != nil {
			t.Fatal(err)
		}
		tally, err := AddPowerBallots(b, b, b)
		if err != nil {
			t.Fatal(err)
		}
		return func() {
			if _, err := ProveCountLookup(mt.ctx(0, 30), mt.jk, b.Secret(), tally); err != nil {
				t.Fatal(err)
			}
		}
	}
	extra := ristretto.NewScalar().Add(scalarOf(5), scalarOf(7))
	planted := func(k int, f func()) func() {
		return func() {
			f()
			for range k {
				ristretto.NewIdentityElement().ScalarBaseMult(extra)
			}
		}
	}
	for _, c := range []struct {
		name    string
		classes [2]func()
		control bool
	}{
		{"ballot: civilian abstains / mafioso votes", [2]func(){ballot(civ, NoVote), ballot(maf, 3)}, false},
		{"ballot: mafioso votes seat 1 / seat 6", [2]func(){ballot(maf, 1), ballot(maf, 6)}, false},
		{"check: civilian / Commissar checks", [2]func(){check(civ, NoVote), check(com, 3)}, false},
		{"check: Commissar checks seat 2 / seat 6", [2]func(){check(com, 2), check(com, 6)}, false},
		{"tag: civilian (random) / mafioso (S)", [2]func(){tag(civ), tag(maf)}, false},
		{"count lookup: civilian (empty) / mafioso's vote", [2]func(){lookup(civ, NoVote), lookup(maf, 3)}, false},
		{"count lookup: mafioso votes seat 1 / seat 6", [2]func(){lookup(maf, 1), lookup(maf, 6)}, false},
		{"control: tag / tag and 2 scalar multiplications", [2]func(){tag(civ), planted(2, tag(civ))}, true},
		{"control: ballot / ballot and 16 scalar multiplications", [2]func(){ballot(civ, NoVote), planted(16, ballot(civ, NoVote))}, true},
		{"control: count lookup / lookup and 4 scalar multiplications", [2]func(){lookup(maf, 3), planted(4, lookup(maf, 3))}, true},
	} {
		// One subtest per case, so that -run can pick some:
		// -run 'TestMafiaProverTiming/count_lookup'.
		t.Run(c.name, func(t *testing.T) {
			r := dudect.Measure(n, c.classes)
			t.Logf("%s: %v", c.name, r)
			switch {
			case c.control && r.MaxT() < dudect.Threshold:
				t.Errorf("%s: the planted leak is not measured (max |t| %.2f)", c.name, r.MaxT())
			case !c.control && r.MaxT() >= dudect.Threshold:
				t.Errorf("%s: the time depends on the class (max |t| %.2f)", c.name, r.MaxT())
			}
		})
	}
}
