package netsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// A seat killed between its kill ballot and its count lookup (a plurality
// kill, mental SPEC §9.9) and restarted from its state directory still
// proves its lookup: its actions entry records its ballots' secrets in the
// ballots file before it leaves (KeepBallots), and a seat started with
// that file's secrets authors a lookup the table accepts. Without the
// file it cannot (table.ErrNoBallotSecret), which is what the file is
// for. A torn last line is ignored.
func TestMafiaRestartKeepsBallotSecret(t *testing.T) {
	if testing.Short() {
		t.Skip("a 15-seat game through the real stack")
	}
	names := strings.Split("Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina,Oleg,Polina,Roma", ",")
	var b strings.Builder
	fmt.Fprintf(&b, "game mafia players=%s roles=Mafioso,Mafioso,Mafioso,Commissar,Nurse,%s incidents=off\n",
		strings.Join(names, ","), strings.TrimSuffix(strings.Repeat("Civilian,", 10), ","))
	for _, n := range names {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	b.WriteString("Anna kill Egor\nBoris kill Egor\nClara kill Igor\nDima check Fedor\nEgor save Galya\n")
	lt, err := localplay.Run(mafia.Game{}, []byte(b.String()), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	const seat = 0 // Anna, a Mafioso: her lookup encrypts her target's count
	me := lt.Seats[seat]
	keys := table.SeatSecrets{Card: me.Player.CardKey(), View: me.Player.ViewingKey()}
	// Her night-2 actions entry and her lookup entry.
	actions, lookup := -1, -1
	for i, e := range tr.Entries {
		bd, err := table.UnmarshalBody(e.Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if int(e.Seat) == seat && bd.Kind == table.BodyActions && len(bd.Actions) > 1 {
			actions = i
		}
		if int(e.Seat) == seat && bd.Kind == table.BodyLookup {
			lookup = i
		}
	}
	if actions < 0 || lookup < actions {
		t.Fatalf("no actions entry (%d) before a lookup (%d)", actions, lookup)
	}
	// Her seat, up to her actions entry, keeps the secrets of the ballots
	// it makes there.
	dir := t.TempDir()
	start := func(secrets [][]byte, keep func(uint64, [][]byte) error) *Seat {
		t.Helper()
		d, err := NewSeat(SeatConfig{Seat: seat, Roster: tr.Roster, Sign: tabletest.DeriveSignKey("restart", me.Name), Keys: keys,
			Bot: true, BallotSecrets: secrets, KeepBallots: keep})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	kept := 0
	d := start(nil, func(pos uint64, s [][]byte) error {
		kept = len(s)
		return appendBallots(dir, pos, s)
	})
	for _, e := range tr.Entries[:actions] {
		if err := d.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
	}
	if _, err := d.Author(context.Background(), uint64(actions)); err != nil {
		t.Fatal(err)
	}
	if want := len(d.Table().Pending().Parts) - 1; kept != want { // every part but the check
		t.Fatalf("the actions entry kept %d ballot secrets, want %d", kept, want)
	}
	// The entry the log holds is the first life's (the bot here chose
	// anew): record that life's secrets, as its own seat did.
	if err := os.Remove(filepath.Join(dir, BallotsFile)); err != nil {
		t.Fatal(err)
	}
	if err := appendBallots(dir, uint64(actions), me.Player.BallotSecrets()); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, BallotsFile), os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("999 0 ab") // torn
	f.Close()
	if fi, err := os.Stat(filepath.Join(dir, BallotsFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the ballots file: %v, %v; want mode 0600", fi, err)
	}
	secrets, err := loadBallots(dir)
	if err != nil || len(secrets) != len(me.Player.BallotSecrets()) {
		t.Fatalf("ballots file: %d secrets, %v; want %d", len(secrets), err, len(me.Player.BallotSecrets()))
	}
	// Restarted before her lookup: with the file's secrets her lookup is
	// one the table accepts; without them she cannot make it.
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Entries[:lookup] {
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, withFile := range []bool{true, false} {
		var d *Seat
		if withFile {
			d = start(secrets, nil)
		} else {
			d = start(nil, nil)
		}
		for _, e := range tr.Entries[:lookup] {
			if err := d.Apply(e); err != nil {
				t.Fatalf("entry %d: %v", e.Pos, err)
			}
		}
		enc, err := d.Author(context.Background(), uint64(lookup))
		if !withFile {
			if !errors.Is(err, table.ErrNoBallotSecret) {
				t.Fatalf("restarted without the ballots file: %v, want %v", err, table.ErrNoBallotSecret)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		bd, err := table.UnmarshalBody(enc, 5)
		if err != nil || bd.Kind != table.BodyLookup {
			t.Fatalf("the restarted seat authors %v, %v; want a lookup", bd, err)
		}
		e, err := me.Player.Entry(rt, bd)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("the restarted seat's lookup: %v", err)
		}
	}
}
