package mafia_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/mental/dudect"
)

// TestNightActionsTiming measures, the dudect way (mental/dudect),
// whether the time a seat takes to make its whole night entry (every
// ballot, the check and the tag, as table.Player.ActionsBody makes them
// on a 9-seat real-stack table at its first night) depends on its role
// and choice: a civilian's "sleep" (empty ballots, a neutral check,
// random tag bytes) against a mafioso's kill (a vote, a neutral check,
// the tag of S), and against the Commissar's check. Each pair of tables
// asks the same seat for the same parts at the same number of living
// seats; only the deal differs. A control plants a difference of about a
// tenth and must measure it. Long: it runs only when asked, with the
// number of measurements per class and case:
//
//	MASQUE_DUDECT=500 go test ./engine/mafia -run TestNightActionsTiming -v
func TestNightActionsTiming(t *testing.T) {
	n := dudect.FromEnv()
	if n == 0 {
		t.Skipf("set %s=N (measurements per class and case) to measure", dudect.Env)
	}
	names := []string{"Anna", "Boris", "Clara", "Dima", "Egor", "Fedor", "Galya", "Igor", "Katya"}
	// A night table whose due seat holds the given power (0: none).
	type night struct {
		lt      *local.Table
		seat    engine.Seat
		choices map[uint8]engine.Seat
	}
	found := map[string]map[uint8]night{} // by shape, then by power held
	shapeOf := func(lt *local.Table) (string, engine.Seat) {
		seat, _, _ := lt.View().Expect()
		st := lt.View().Rules().(*mafia.State)
		var parts []string
		for _, p := range lt.View().Pending().Parts {
			parts = append(parts, fmt.Sprintf("%d/%d/%d", p.Kind, p.Power, len(p.Targets)))
		}
		return fmt.Sprintf("seat %d, %d living, parts %v", seat, len(st.Living()), parts), seat
	}
	var pair [3]night
	var shape string
	for seed := uint64(1); pair[0].lt == nil || pair[1].lt == nil || pair[2].lt == nil; seed++ {
		if seed > 60 {
			t.Fatalf("no sleeper, mafioso and Commissar at the same first-night shape in 60 games: %v", found)
		}
		lt := firstNight(t, names, seed*97)
		if lt == nil {
			continue
		}
		s, seat := shapeOf(lt)
		me := lt.Seats[seat]
		st := lt.View().Rules().(*mafia.State)
		choices := choicesFor(me.Player, me.Replica, st)
		var power uint8
		switch {
		case len(choices) == 0:
			power = 0
		case len(choices) == 1 && hasKey(choices, mafia.PowerKill):
			power = mafia.PowerKill
		case len(choices) == 1 && hasKey(choices, mafia.PowerCheck):
			power = mafia.PowerCheck
		default:
			continue
		}
		if found[s] == nil {
			found[s] = map[uint8]night{}
		}
		found[s][power] = night{lt, seat, choices}
		if k := found[s]; len(k) == 3 {
			pair = [3]night{k[0], k[mafia.PowerKill], k[mafia.PowerCheck]}
			shape = s
		}
	}
	t.Logf("tables at %s", shape)
	post := func(nt night) func() {
		me := nt.lt.Seats[nt.seat]
		return func() {
			if _, err := me.Player.ActionsBody(me.Replica, nt.choices); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The control: the sleeper's entry, and the same followed by 64
	// scalar multiplications (about a tenth of its time), must differ.
	var x ristretto255.Scalar
	x.SetUniformBytes(bytes.Repeat([]byte{7}, 64))
	planted := func(f func()) func() {
		return func() {
			f()
			for range 64 {
				ristretto255.NewIdentityElement().ScalarBaseMult(&x)
			}
		}
	}
	for _, c := range []struct {
		name    string
		classes [2]func()
		control bool
	}{
		{"civilian sleeps / mafioso kills", [2]func(){post(pair[0]), post(pair[1])}, false},
		{"civilian sleeps / Commissar checks", [2]func(){post(pair[0]), post(pair[2])}, false},
		{"control: civilian sleeps / the same and 64 scalar multiplications", [2]func(){post(pair[0]), planted(post(pair[0]))}, true},
	} {
		r := dudect.Measure(n, c.classes)
		t.Logf("%s: %v", c.name, r)
		switch {
		case c.control && r.MaxT() < dudect.Threshold:
			t.Errorf("%s: the planted difference is not measured (max |t| %.2f)", c.name, r.MaxT())
		case !c.control && r.MaxT() >= dudect.Threshold:
			t.Errorf("%s: the time depends on the role (max |t| %.2f)", c.name, r.MaxT())
		}
	}
}

// firstNight plays a bot game (seeded) on a shuffled deal up to its first
// night after the recognition, before any seat has posted its actions:
// every seat posts its own actions (local.Table.OwnNight), so the seat
// due is the first living one whatever it holds (nil: the game ended
// first).
func firstNight(tb testing.TB, names []string, seed uint64) *local.Table {
	tb.Helper()
	lt, _ := playUntilNight(tb, names, seed, 1, func(engine.Seat) bool { return true })
	return lt
}

func hasKey(m map[uint8]engine.Seat, k uint8) bool {
	_, ok := m[k]
	return ok
}
