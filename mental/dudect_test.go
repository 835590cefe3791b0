package mental

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gtank/ristretto255"
)

// Timing of Mafia's secret-dependent provers, measured the dudect way
// (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?",
// DATE 2017): the same call is timed many times with its secret input
// drawn at random from two classes, in random order, and Welch's t-test
// compares the two classes' times, over all measurements and over the
// measurements below several percentiles (cropping the long tail that
// interrupts and other processes add). Times are the thread's CPU time
// where the system has that clock (Linux), so that waiting for a core on
// a loaded machine does not drown the differences. |t| above 4.5 is dudect's
// threshold for "the time depends on the class"; below it no dependence
// was measured at this number of measurements.
//
// The test is long and only runs when asked, with the number of
// measurements per case:
//
//	MASQUE_DUDECT=4000 go test ./mental -run TestMafiaProverTiming -v
//
// Two controls plant a leak in one class (extra scalar multiplications
// by the base point: 2 after a tag, 16 after a ballot, a few percent of
// their time, far less than proving a real branch instead of simulating
// it) and must measure it, so a low |t| is not the harness's blindness.
const dudectEnv = "MASQUE_DUDECT"

// dudectThreshold is dudect's |t| threshold.
const dudectThreshold = 4.5

// dudectCrops are the percentiles below which the cropped tests keep
// measurements (1 keeps every measurement).
var dudectCrops = []float64{1, 0.99, 0.9, 0.75, 0.5}

// welch returns Welch's t statistic of two samples.
func welch(a, b []float64) float64 {
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	variance := func(x []float64, m float64) float64 {
		s := 0.0
		for _, v := range x {
			s += (v - m) * (v - m)
		}
		return s / float64(len(x)-1)
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	ma, mb := mean(a), mean(b)
	se := math.Sqrt(variance(a, ma)/float64(len(a)) + variance(b, mb)/float64(len(b)))
	if se == 0 {
		return 0
	}
	return (ma - mb) / se
}

// dudectResult is one case's measurement.
type dudectResult struct {
	t      []float64 // by dudectCrops
	median [2]time.Duration
}

// maxT is the largest |t| over the crops.
func (r dudectResult) maxT() float64 {
	m := 0.0
	for _, t := range r.t {
		m = max(m, math.Abs(t))
	}
	return m
}

func (r dudectResult) String() string {
	s := fmt.Sprintf("median %v / %v; t", r.median[0].Round(time.Microsecond), r.median[1].Round(time.Microsecond))
	for i, t := range r.t {
		s += fmt.Sprintf(" %.0f%%:%+.2f", dudectCrops[i]*100, t)
	}
	return s + fmt.Sprintf("; max |t| %.2f", r.maxT())
}

// dudect times n calls of each class's function (after a warm-up), in an
// order drawn at random, and returns Welch's t over the crops.
func dudect(n int, class [2]func()) dudectResult {
	defer lockThread()()
	for range 10 {
		class[0]()
		class[1]()
	}
	order := make([]int, 2*n)
	for i := range order {
		order[i] = i % 2
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	times := [2][]float64{}
	for _, c := range order {
		start := threadTime()
		class[c]()
		times[c] = append(times[c], float64(threadTime()-start))
	}
	pooled := slices.Concat(times[0], times[1])
	slices.Sort(pooled)
	var r dudectResult
	for _, p := range dudectCrops {
		limit := pooled[min(len(pooled)-1, int(p*float64(len(pooled))))]
		var kept [2][]float64
		for c := range 2 {
			for _, v := range times[c] {
				if p == 1 || v < limit {
					kept[c] = append(kept[c], v)
				}
			}
		}
		r.t = append(r.t, welch(kept[0], kept[1]))
	}
	for c := range 2 {
		s := slices.Sorted(slices.Values(times[c]))
		r.median[c] = time.Duration(s[len(s)/2])
	}
	return r
}

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
	n, _ := strconv.Atoi(os.Getenv(dudectEnv))
	if n <= 0 {
		t.Skipf("set %s=N (measurements per class and case) to measure", dudectEnv)
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
	extra := ristretto255.NewScalar().Add(scalarOf(5), scalarOf(7))
	planted := func(k int, f func()) func() {
		return func() {
			f()
			for range k {
				ristretto255.NewElement().ScalarBaseMult(extra)
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
		{"control: tag / tag and 2 scalar multiplications", [2]func(){tag(civ), planted(2, tag(civ))}, true},
		{"control: ballot / ballot and 16 scalar multiplications", [2]func(){ballot(civ, NoVote), planted(16, ballot(civ, NoVote))}, true},
	} {
		r := dudect(n, c.classes)
		t.Logf("%s: %d measurements per class, %s", c.name, n, dudectClock)
		t.Logf("%s: %v", c.name, r)
		switch {
		case c.control && r.maxT() < dudectThreshold:
			t.Errorf("%s: the planted leak is not measured (max |t| %.2f)", c.name, r.maxT())
		case !c.control && r.maxT() >= dudectThreshold:
			t.Errorf("%s: the time depends on the class (max |t| %.2f)", c.name, r.maxT())
		}
	}
}
