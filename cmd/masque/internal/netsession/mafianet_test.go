package netsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// mafiaBotGame plays a whole Mafia bot game on the real stack and returns
// it with the check targets each seat posted, by seat and entry position:
// what a seat's checks file keeps.
func mafiaBotGame(t *testing.T, names []string, seed uint64) (*local.Table, []map[uint64]engine.Seat) {
	t.Helper()
	o := mafia.Options{Players: names}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, names, table.Options{Game: enc, PublishKeys: false})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*bot.Player, len(names))
	checks := make([]map[uint64]engine.Seat, len(names))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots[i], checks[i] = b.(*bot.Player), map[uint64]engine.Seat{}
	}
	for steps := 0; steps < 5000; steps++ {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return lt, checks
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].See(me.Player, me.Replica)
		switch kind {
		case table.BodyMove:
			m, _, _ := bots[seat].Choose(st)
			if err := lt.Move(seat, m, nil); err != nil {
				t.Fatal(err)
			}
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				choices[d.Power] = bots[seat].Decide(st, d)
			}
			if c, ok := choices[mafia.PowerCheck]; ok {
				checks[seat][lt.View().Pos()] = c
			}
			if err := lt.Actions(seat, choices); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unexpected %s", kind)
		}
	}
	t.Fatal("the bots did not finish")
	return nil, nil
}

// A restarted seat (a new Seat replaying the log with its keys and the
// check targets of its checks file) knows what it knew: its role, its
// mates, its incident cards and the answers to its checks. Without the
// checks file a Commissar would have lost whom its answers are about.
func TestMafiaRestartedSeatKnows(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya", "Igor", "Kira"}
	var lt *local.Table
	var checks []map[uint64]engine.Seat
	commissar := -1
	for seed := uint64(1); commissar < 0 && seed < 12; seed++ {
		lt, checks = mafiaBotGame(t, names, seed)
		for p, c := range checks {
			if len(c) > 0 && len(lt.Seats[p].Player.Checks) > 0 {
				commissar = p
			}
		}
	}
	if commissar < 0 {
		t.Fatal("no game with an answered check")
	}
	tr := lt.Transcript()
	st := lt.View().Rules().(*mafia.State)
	dir := t.TempDir()
	for pos, target := range checks[commissar] {
		if err := appendCheck(dir, pos, target); err != nil {
			t.Fatal(err)
		}
	}
	kept, err := loadChecks(dir)
	if err != nil || !reflect.DeepEqual(kept, checks[commissar]) {
		t.Fatalf("checks file: %v, %v; want %v", kept, err, checks[commissar])
	}
	for p := range lt.Seats {
		me := lt.Seats[p]
		want := mafia.KnowledgeOf(st, me.Player, me.Replica)
		restart := func(targets map[uint64]engine.Seat) *mafia.Knowledge {
			keys := table.SeatSecrets{Card: me.Player.CardKey(), View: me.Player.ViewingKey()}
			d, err := NewSeat(SeatConfig{Seat: p, Roster: tr.Roster, Sign: tabletest.DeriveSignKey("restart", me.Name), Keys: keys, CheckTargets: targets})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tr.Entries {
				if err := d.Apply(e); err != nil {
					t.Fatalf("entry %d: %v", e.Pos, err)
				}
			}
			if err := d.Failure(); err != nil {
				t.Fatal(err)
			}
			k, _ := d.View().Private.(*mafia.Knowledge)
			return k
		}
		targets := checks[p]
		if p == commissar {
			targets = kept
		}
		if got := restart(targets); !reflect.DeepEqual(got, want) {
			t.Errorf("%s restarted knows %+v, knew %+v", me.Name, got, want)
		}
		if p == commissar {
			if got := restart(nil); len(got.Checks) != 0 {
				t.Errorf("without the checks file the Commissar still knows %v", got.Checks)
			}
			t.Logf("%s, the Commissar, knows %d answers after a restart", me.Name, len(want.Checks))
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, ChecksFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the checks file: %v, %v; want mode 0600", fi, err)
	}
	// A torn last line (a crash while writing) is ignored.
	if err := os.WriteFile(filepath.Join(dir, ChecksFile), []byte("12 3\n40 "), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := loadChecks(dir); err != nil || !reflect.DeepEqual(got, map[uint64]engine.Seat{12: 3}) {
		t.Errorf("torn checks file: %v, %v", got, err)
	}
}

// untilNight plays a Mafia bot game on the real stack until the table
// waits for the night actions of a seat for which holds(decisions) is
// true, and returns the table, or nil if the game ends first.
func untilNight(t *testing.T, names []string, seed uint64, holds func(int) bool) *local.Table {
	t.Helper()
	enc, err := mafia.Options{Players: names}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, names, table.Options{Game: enc})
	if err != nil {
		t.Fatal(err)
	}
	// Every seat posts its actions itself: the loop stops at the one wanted.
	lt.OwnNight = func(engine.Seat) bool { return true }
	bots := make([]*bot.Player, len(names))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b.(*bot.Player)
	}
	for steps := 0; steps < 5000; steps++ {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return nil
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].See(me.Player, me.Replica)
		switch kind {
		case table.BodyMove:
			m, _, _ := bots[seat].Choose(st)
			if err := lt.Move(seat, m, nil); err != nil {
				t.Fatal(err)
			}
		case table.BodyActions:
			ds := me.Player.Decisions(me.Replica)
			if st.Day() > 1 && holds(len(ds)) {
				return lt
			}
			choices := map[uint8]engine.Seat{}
			for _, d := range ds {
				choices[d.Power] = bots[seat].Decide(st, d)
			}
			if err := lt.Actions(seat, choices); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("the bots did not finish")
	return nil
}

// A person's seat at a networked table: the night's actions wait for
// the player's choice (Decide) when its card holds a power, and are then
// the entry every replica accepts, with the check target kept first; a
// seat without a power posts an empty choice when its player sleeps, or
// by itself after the floor delay.
func TestMafiaPersonNight(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya"}
	for _, tc := range []struct {
		name  string
		holds func(int) bool
		floor time.Duration
		act   func(d *Seat, ds []engine.Effect) error
	}{
		{"power", func(n int) bool { return n > 0 }, time.Hour, func(d *Seat, ds []engine.Effect) error {
			for _, dc := range ds {
				if err := d.Sleep(); err == nil {
					return errors.New("a seat with a power slept")
				}
				target := dc.Targets[0]
				if target == engine.Seat(d.seat) {
					target = dc.Targets[1]
				}
				if err := d.Decide(dc.Power, target); err != nil {
					return err
				}
			}
			return nil
		}},
		{"sleep", func(n int) bool { return n == 0 }, time.Hour, func(d *Seat, _ []engine.Effect) error {
			if err := d.Decide(mafia.PowerKill, 0); err == nil {
				return errors.New("a seat without a power chose a target")
			}
			return d.Sleep()
		}},
		{"floor", func(n int) bool { return n == 0 }, 20 * time.Millisecond, func(*Seat, []engine.Effect) error { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lt *local.Table
			for seed := uint64(1); lt == nil; seed++ {
				if seed > 20 {
					t.Fatal("no game reached such a night")
				}
				lt = untilNight(t, names, seed, tc.holds)
			}
			seat, _, _ := lt.View().Expect()
			me := lt.Seats[seat]
			tr := lt.Transcript()
			var kept []uint64
			// The night's view is taken when the seat shows it (OnChange,
			// on the seat's Author's goroutine before it waits): the floor
			// case's night lasts 20-40 ms, and a test that polled View
			// every 5 ms for it missed it on a loaded machine, and polled
			// on forever (the netsession run that hung for 600 s; 1 in 38
			// runs of this case at load 20).
			nights := make(chan View, 1)
			var d *Seat
			d, err := NewSeat(SeatConfig{Seat: int(seat), Roster: tr.Roster, Sign: tabletest.DeriveSignKey("night", me.Name),
				Keys: table.SeatSecrets{Card: me.Player.CardKey(), View: me.Player.ViewingKey()}, NightFloor: tc.floor,
				KeepCheck: func(pos uint64, _ engine.Seat) error { kept = append(kept, pos); return nil },
				OnChange: func() {
					if d == nil {
						return
					}
					if v := d.View(); v.Night {
						select {
						case nights <- v:
						default:
						}
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tr.Entries {
				if err := d.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			type result struct {
				body []byte
				err  error
			}
			done := make(chan result, 1)
			go func() {
				b, err := d.Author(ctx, d.tab.Pos())
				done <- result{b, err}
			}()
			var v View
			select {
			case v = <-nights:
			case r := <-done:
				t.Fatalf("the seat posted its night (error %v) and never showed it", r.err)
			case <-ctx.Done():
				t.Fatal("no night shown in 20 s")
			}
			if !v.MyTurn || !tc.holds(len(v.Decisions)) {
				t.Fatalf("the night's view: my turn %v, %d decisions", v.MyTurn, len(v.Decisions))
			}
			if err := tc.act(d, v.Decisions); err != nil {
				t.Fatal(err)
			}
			r := <-done
			if r.err != nil {
				t.Fatal(r.err)
			}
			if d.View().Night {
				t.Fatal("still asked for the night after posting")
			}
			body, err := table.UnmarshalBody(r.body, 1)
			if err != nil {
				t.Fatal(err)
			}
			e, err := me.Player.Entry(me.Replica, body)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := table.Replay(tr, mafia.Game{})
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.Apply(e); err != nil {
				t.Fatalf("the seat's night actions are refused: %v", err)
			}
			holdsCheck := slices.ContainsFunc(v.Decisions, func(e engine.Effect) bool { return e.Power == mafia.PowerCheck })
			if holdsCheck != (len(kept) == 1) {
				t.Fatalf("checks kept at %v; the seat checks: %v", kept, holdsCheck)
			}
		})
	}
}
