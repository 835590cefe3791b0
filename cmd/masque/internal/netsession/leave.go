package netsession

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// A player of a game with leaving (games.Leaver) may leave it for
// good while the others play on. The table takes entries only from the
// seat it waits for, so the seat leaves at its next move (at once when
// one is due): every living seat has a move each day (the vote), so that
// is at most one night away. Until then its night actions are its bot's
// choices, posted at once (a seat that holds a power must choose; one
// leaving does not make the others wait for it). Once the leave move is
// applied the seat publishes its card key (table retire) and the table
// computes its part from then on: its program may stop without stalling
// anyone, and p2p does not wait for its state hash at the end (Retired).
//
// The request is kept in the seat's state directory (LeavingFile) before
// anything else happens, so a seat restarted after asking still leaves.

// LeavingFile, in a seat's state directory, marks a seat whose player
// asked to leave the game: its presence is the mark (one line, "leave").
const LeavingFile = "leaving"

// loadLeaving says whether dir holds the mark of a seat asked to leave.
func loadLeaving(dir string) (bool, error) {
	_, err := os.Stat(filepath.Join(dir, LeavingFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

// keepLeaving writes dir's leaving mark, crash-safely.
func keepLeaving(dir string) error {
	return safefile.Write(filepath.Join(dir, LeavingFile), []byte("leave\n"), 0o600)
}

// leaver returns the game's leaving, if it has one.
func (d *Seat) leaver() (games.Leaver, bool) {
	lv, ok := d.game.Table().(games.Leaver)
	return lv, ok
}

// canLeave says whether the seat may ask to leave now; d.mu is held.
func (d *Seat) canLeave() bool {
	lv, ok := d.leaver()
	if !ok || d.leaving || d.tab.Rules() == nil {
		return false
	}
	_, ok = lv.LeaveMove(d.tab.Rules(), engine.Seat(d.seat))
	return ok
}

// Leave asks to leave the game for good (see above). It fails, changing
// nothing, when the game has no leaving, the seat is out already or the
// game is over, or the request cannot be kept in the state directory.
// Asking twice is no error.
func (d *Seat) Leave() error {
	d.mu.Lock()
	defer d.d()
	if d.leaving {
		return nil
	}
	lv, ok := d.leaver()
	if !ok {
		return fmt.Errorf("%s has no leaving mid-game: close the screen instead (the table waits for you to come back)", d.game.Title())
	}
	s := d.tab.Rules()
	if s == nil {
		return errors.New("the game has not started")
	}
	if _, ok := lv.LeaveMove(s, engine.Seat(d.seat)); !ok {
		return errors.New("you are out of the game already, or it is over")
	}
	if d.cfg.KeepLeaving != nil {
		if err := d.cfg.KeepLeaving(); err != nil {
			return fmt.Errorf("recording that you leave: %w", err)
		}
	}
	d.leaving = true
	if !d.myTurn {
		return nil // Author leaves at the seat's next move
	}
	enc, _, err := d.leavingBody(d.night)
	if err != nil {
		return err
	}
	d.myTurn, d.night = false, false
	d.moves <- enc
	return nil
}

// leavingBody is the entry a leaving seat posts when asked for its move
// or night actions; ok is false when it has none to post by itself (the
// game's leaving does not take this moment). d.mu is held.
func (d *Seat) leavingBody(night bool) (body []byte, ok bool, err error) {
	if night {
		body, err = d.botActions()
		return body, true, err
	}
	lv, ok := d.leaver()
	if !ok || d.tab.Rules() == nil {
		return nil, false, nil
	}
	m, ok := lv.LeaveMove(d.tab.Rules(), engine.Seat(d.seat))
	if !ok {
		return nil, false, nil
	}
	body, err = d.moveBody(m)
	return body, true, err
}

// moveBody is the encoded move entry for m, which causes no hidden swap;
// d.mu is held.
func (d *Seat) moveBody(m engine.Move) ([]byte, error) {
	b, err := d.player.MoveBody(d.tab, m, nil)
	if err != nil {
		return nil, fmt.Errorf("leaving: %w", err)
	}
	return b.MarshalBinary()
}

// Retired implements p2p.Retirer: seat published its card key during
// play, and the table computes its part from then on.
func (d *Seat) Retired(seat uint8) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.Retired(int(seat))
}

// secretSeed is a bot seed drawn from the seat's secrets: stable across
// restarts, and unknown to the other seats.
func secretSeed(keys table.SeatSecrets) uint64 {
	h := sha256.New()
	h.Write([]byte("masque leaving bot seed"))
	if enc, err := keys.MarshalBinary(); err == nil {
		h.Write(enc)
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}
