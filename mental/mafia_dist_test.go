package mental

import (
	"math"
	"testing"
	"testing/cryptotest"
)

// Distribution tests for Mafia's posts (docs/mafia.md §8): nothing in a
// powered ballot or a check may tell a holder from a non-holder better
// than chance. As for the swap (distribution_test.go): mafiaDistRuns posts
// by a holder and as many by a non-holder, crypto/rand seeded (the test is
// deterministic); for every byte of the encoding, its parity, lowest and
// highest bit; the two-proportion z score between the two groups must
// stay under distZ. A planted byte equal to the group is the control.

const mafiaDistRuns = 300

func mafiaDistCompare(t *testing.T, what string, holder, other [][]byte) {
	t.Helper()
	if len(holder[0]) != len(other[0]) {
		t.Fatalf("%s: a holder's post is %d bytes, a non-holder's %d", what, len(holder[0]), len(other[0]))
	}
	// The control: a byte that is 1 in the holder's posts.
	for i := range holder {
		holder[i] = append(holder[i], 1)
		other[i] = append(other[i], 0)
	}
	n := float64(len(holder))
	last := len(holder[0]) - 1
	stats, controlSeen := 0, false
	for pos := range holder[0] {
		for _, stat := range []func(byte) int{
			func(b byte) int { return int(b & 1) },
			func(b byte) int { return int(b >> 7) },
			func(b byte) int {
				p := 0
				for ; b != 0; b &= b - 1 {
					p ^= 1
				}
				return p
			},
		} {
			var a, b float64
			for i := range holder {
				a += float64(stat(holder[i][pos]))
				b += float64(stat(other[i][pos]))
			}
			p := (a + b) / (2 * n)
			if p == 0 || p == 1 {
				continue // constant in both groups alike
			}
			z := (a/n - b/n) / math.Sqrt(p*(1-p)*2/n)
			if pos == last {
				controlSeen = controlSeen || math.Abs(z) >= distZ
				continue
			}
			stats++
			if math.Abs(z) >= distZ {
				t.Errorf("%s: byte %d tells a holder from a non-holder (z = %.1f)", what, pos, z)
			}
		}
	}
	if !controlSeen {
		t.Fatalf("%s: the planted control byte was not detected", what)
	}
	t.Logf("%s: %d statistics over %d bytes, %d posts per group", what, stats, last, len(holder))
}

func TestMafiaDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("distribution test: several seconds")
	}
	cryptotest.SetGlobalRandom(t, 0x14)
	mt := newMafiaTable(t, mFuzzRoles, false) // Civilian, Commissar, Mafioso, Don
	var hb, ob, hc, oc [][]byte
	for i := range mafiaDistRuns {
		b, err := ProvePowerBallot(mt.ctx(3, 1), mt.jk, mt.sks[3], mt.views[3], mt.powerStatement(3, 0, mKill, false), i%3)
		if err != nil {
			t.Fatal(err)
		}
		hb = append(hb, mustMarshal(t, b))
		b, err = ProvePowerBallot(mt.ctx(0, 1), mt.jk, mt.sks[0], mt.views[0], mt.powerStatement(0, 0, mKill, false), NoVote)
		if err != nil {
			t.Fatal(err)
		}
		ob = append(ob, mustMarshal(t, b))
		c, err := ProveCheck(mt.ctx(1, 2), mt.jk, mt.sks[1], mt.views[1], mt.checkStatement(1, true), []int{0, 2, 3}[i%3])
		if err != nil {
			t.Fatal(err)
		}
		hc = append(hc, mustMarshal(t, c))
		c, err = ProveCheck(mt.ctx(2, 2), mt.jk, mt.sks[2], mt.views[2], mt.checkStatement(2, true), NoVote)
		if err != nil {
			t.Fatal(err)
		}
		oc = append(oc, mustMarshal(t, c))
	}
	mafiaDistCompare(t, "powered ballot", hb, ob)
	mafiaDistCompare(t, "check", hc, oc)
}
