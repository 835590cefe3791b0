package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
)

// seatingRecord is what 'masque host' records, durably, while it seats
// players (before the join code is shown, and at every seat taken or
// freed): killed before the game starts, the same command run again
// opens the same table (same id, same code) with the same seats, and the
// seated players' programs reconnect to it on their own. It is removed
// once seating ends (the game's state directory takes over) or is given
// up. The file holds the creator's secret keys: mode 0600.
type seatingRecord struct {
	Version     int
	TableID     string // hex
	Name        string // the table's name
	Player      string // the creator's name, seat 0
	Game        string
	Scenario    string
	Players     int
	PublishKeys bool
	HideMemory  bool
	MoveTime    time.Duration
	Keys        []byte // the creator's secret keys (table.SeatSecrets)
	CardKey     []byte // their proofs for seat 0 of this table
	Seats       []heldSeat
}

// heldSeat is a joiner's seat in a seatingRecord.
type heldSeat struct {
	Name    string
	SignKey []byte
	CardKey []byte
	Addrs   [][]byte
	// Relayed: a phone's seat (reached through a forwarder): the table
	// cannot be resumed with it.
	Relayed bool `json:",omitempty"`
}

const seatingRecordVersion = 1

// seatingPath is the record of the table named name this identity
// seats: STATE/seating/FINGERPRINT/HASH-OF-NAME.json.
func seatingPath(id peer.ID, name string) (string, error) {
	dir, err := stateSubdir("seating", lobby.Fingerprint(id))
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(name))
	return filepath.Join(dir, hex.EncodeToString(h[:16])+".json"), nil
}

// loadSeating reads the record at path: nil, nil when there is none.
func loadSeating(path string) (*seatingRecord, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("the seating record: %w", err)
	}
	var rec seatingRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("the seating record %s: %w", path, err)
	}
	if rec.Version != seatingRecordVersion {
		return nil, fmt.Errorf("the seating record %s: version %d, want %d", path, rec.Version, seatingRecordVersion)
	}
	if _, err := rec.tableID(); err != nil {
		return nil, fmt.Errorf("the seating record %s: %w", path, err)
	}
	if _, err := table.UnmarshalSeatSecrets(rec.Keys); err != nil {
		return nil, fmt.Errorf("the seating record %s: your keys: %w", path, err)
	}
	return &rec, nil
}

func (rec *seatingRecord) tableID() ([16]byte, error) {
	var id [16]byte
	b, err := hex.DecodeString(rec.TableID)
	if err != nil || len(b) != len(id) {
		return id, fmt.Errorf("table id %q is not 32 hex digits", rec.TableID)
	}
	copy(id[:], b)
	return id, nil
}

// held returns the record's seats for netsession.HostConfig.Held.
func (rec *seatingRecord) held() []p2p.HeldSeat {
	out := make([]p2p.HeldSeat, len(rec.Seats))
	for i, s := range rec.Seats {
		out[i] = p2p.HeldSeat{Name: s.Name, SignKey: s.SignKey, CardKey: s.CardKey, Addrs: s.Addrs}
	}
	return out
}

// names are the seated players' names, the creator's first.
func (rec *seatingRecord) names() []string {
	out := []string{rec.Player}
	for _, s := range rec.Seats {
		out = append(out, s.Name)
	}
	return out
}

// differs says how rec's table differs from the one now asked for ("":
// it does not).
func (rec *seatingRecord) differs(want *seatingRecord) string {
	var d []string
	add := func(what string, was, now any) {
		d = append(d, fmt.Sprintf("%s %v, now %v", what, was, now))
	}
	if rec.Game != want.Game {
		add("game", rec.Game, want.Game)
	}
	if rec.Scenario != want.Scenario {
		add("scenario", rec.Scenario, want.Scenario)
	}
	if rec.Players != want.Players {
		add("players", rec.Players, want.Players)
	}
	if rec.Player != want.Player {
		add("your name", rec.Player, want.Player)
	}
	if rec.HideMemory != want.HideMemory {
		add("no memory panel", rec.HideMemory, want.HideMemory)
	}
	if rec.MoveTime != want.MoveTime {
		add("move time", rec.MoveTime, want.MoveTime)
	}
	if !want.PublishKeys && rec.PublishKeys {
		add("card keys published", rec.PublishKeys, want.PublishKeys)
	}
	for i, s := range rec.Seats {
		if s.Relayed {
			d = append(d, fmt.Sprintf("seat %d (%s) was a phone's, which cannot be held again", i+1, s.Name))
		}
	}
	return strings.Join(d, ", ")
}

// seatingWriter writes a seatingRecord at every change of the seating.
type seatingWriter struct {
	mu   sync.Mutex
	path string
	rec  seatingRecord
	warn func(error)
}

// write records s (netsession.HostConfig.OnSeating).
func (w *seatingWriter) write(s netsession.SeatingState) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rec.TableID = hex.EncodeToString(s.TableID[:])
	w.rec.CardKey = s.CardKey
	w.rec.Seats = w.rec.Seats[:0]
	for _, h := range s.Held {
		w.rec.Seats = append(w.rec.Seats, heldSeat{Name: h.Name, SignKey: h.SignKey, CardKey: h.CardKey, Addrs: h.Addrs, Relayed: h.Relayed})
	}
	b, err := json.MarshalIndent(&w.rec, "", "  ")
	if err == nil {
		err = safefile.Write(w.path, b, 0o600)
	}
	if err != nil && w.warn != nil {
		w.warn(err)
	}
	return err
}

// remove deletes the record: seating ended or was given up.
func (w *seatingWriter) remove() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := os.Remove(w.path); err != nil && !errors.Is(err, os.ErrNotExist) && w.warn != nil {
		w.warn(err)
	}
}
