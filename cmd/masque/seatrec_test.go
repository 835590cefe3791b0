package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine/table"
)

// TestSeatingRecordFile: a seating record written and read back is the
// same; a damaged one is refused with an error naming the file and what
// is wrong (the host then opens a new table), never a panic; differs
// names every option changed since.
func TestSeatingRecordFile(t *testing.T) {
	dir := t.TempDir()
	keys, err := table.GenerateSeatSecrets().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	good := seatingRecord{Version: seatingRecordVersion, TableID: strings.Repeat("ab", 16), Name: "friday", Player: "Anna",
		Game: "mascarade", Players: 3, PublishKeys: true, MoveTime: time.Minute, Keys: keys,
		Seats: []heldSeat{{Name: "Bob", SignKey: []byte("k"), CardKey: []byte("c")}}}
	path := filepath.Join(dir, "r.json")
	w := &seatingWriter{path: path, rec: good}
	if err := w.write(toState(t, &good)); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the record: %v %v, want mode 0600 (it holds the host's keys)", st, err)
	}
	got, err := loadSeating(path)
	if err != nil || got == nil || got.TableID != good.TableID || len(got.Seats) != 1 || got.Seats[0].Name != "Bob" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if d := got.differs(&good); d != "" {
		t.Errorf("the same table differs: %s", d)
	}
	other := good
	other.Players, other.Player = 4, "Anne"
	if d := got.differs(&other); !strings.Contains(d, "players 3, now 4") || !strings.Contains(d, "your name Anna, now Anne") {
		t.Errorf("differs: %q", d)
	}
	if rec, err := loadSeating(filepath.Join(dir, "none.json")); rec != nil || err != nil {
		t.Errorf("no record: %v, %v", rec, err)
	}
	for _, c := range []struct {
		name string
		edit func(r *seatingRecord)
		raw  string
		want string
	}{
		{"not json", nil, "{", "r.json"},
		{"version", func(r *seatingRecord) { r.Version = 9 }, "", "version 9"},
		{"table id", func(r *seatingRecord) { r.TableID = "xyz" }, "", `table id "xyz"`},
		{"keys", func(r *seatingRecord) { r.Keys = []byte{1, 2} }, "", "your keys"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := []byte(c.raw)
			if c.edit != nil {
				r := good
				c.edit(&r)
				b, _ = json.Marshal(&r)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			rec, err := loadSeating(path)
			if err == nil || rec != nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("loadSeating: %v, %v; want an error naming %s and %q", rec, err, path, c.want)
			}
		})
	}
}

// toState is rec's seating as netsession reports it.
func toState(t *testing.T, rec *seatingRecord) netsession.SeatingState {
	t.Helper()
	id, err := rec.tableID()
	if err != nil {
		t.Fatal(err)
	}
	return netsession.SeatingState{TableID: id, CardKey: rec.CardKey, Held: rec.held()}
}
