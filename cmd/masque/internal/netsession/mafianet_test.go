package netsession

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

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
