package netsession

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// A game with secret night actions (table.BodyActions) asks each living seat for an
// actions entry every night (table.BodyActions). A bot's seat posts it at
// once with its bot's choices (games.NightBot). A person's seat asks its
// player for the target of each power its card holds (Decide); a seat
// holding none posts by itself after the night's floor delay, or when
// its player sleeps (Sleep), so that it does not tell the table at once
// that it holds no power. The game's docs say what timing still tells.

// floorDelay is a night's delay for a seat without a power: between floor
// and twice it, drawn from the seat's secrets and the entry's position,
// so that a restarted seat waits as long as it would have.
func floorDelay(floor time.Duration, pos uint64, keys table.SeatSecrets) time.Duration {
	if floor <= 0 {
		return 0
	}
	h := sha256.New()
	h.Write([]byte("masque night floor"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], pos)
	h.Write(b[:])
	if enc, err := keys.MarshalBinary(); err == nil {
		h.Write(enc)
	}
	r := binary.BigEndian.Uint64(h.Sum(nil))
	return floor + time.Duration(r%uint64(floor))
}

// botActions returns the bot's night actions' body; d.mu is held.
func (d *Seat) botActions() ([]byte, error) {
	s := d.tab.Rules()
	if s == nil {
		return nil, errors.New("night actions are expected before the game started")
	}
	if d.bot == nil {
		if err := d.newBot(s); err != nil {
			return nil, err
		}
	}
	choices := map[uint8]engine.Seat{}
	if ds := d.player.Decisions(d.tab); len(ds) > 0 {
		nb, ok := d.bot.(games.NightBot)
		if !ok {
			return nil, errors.New("the bot makes no night choices")
		}
		nb.See(d.player, d.tab)
		for _, dc := range ds {
			choices[dc.Power] = nb.Decide(s, dc)
		}
	}
	return d.actionsBody(choices)
}

// actionsBody returns the seat's night actions' body with choices,
// keeping whom it checks first (KeepCheck); d.mu is held.
func (d *Seat) actionsBody(choices map[uint8]engine.Seat) ([]byte, error) {
	pos := d.tab.Pos()
	before := d.player.BallotSecrets()
	body, err := d.player.ActionsBody(d.tab, choices)
	if err != nil {
		return nil, fmt.Errorf("night actions: %w", err)
	}
	if d.cfg.KeepBallots != nil {
		var made [][]byte
		for _, s := range d.player.BallotSecrets() {
			if !slices.ContainsFunc(before, func(b []byte) bool { return bytes.Equal(b, s) }) {
				made = append(made, s)
			}
		}
		if err := d.cfg.KeepBallots(pos, made); err != nil {
			return nil, fmt.Errorf("recording your ballots' secrets: %w", err)
		}
	}
	if target, ok := d.player.CheckTargets()[pos]; ok && d.cfg.KeepCheck != nil {
		if err := d.cfg.KeepCheck(pos, target); err != nil {
			return nil, fmt.Errorf("recording whom you check: %w", err)
		}
	}
	return body.MarshalBinary()
}

// Decide records the player's target for power this night; once every
// power the seat holds has a target, the seat posts its actions. It fails,
// changing nothing, when the table does not ask this seat for that power.
func (d *Seat) Decide(power uint8, target engine.Seat) error {
	d.mu.Lock()
	defer d.d()
	if !d.night || !d.myTurn {
		return errors.New("the table does not ask for your night choice now")
	}
	ds := d.player.Decisions(d.tab)
	i := slices.IndexFunc(ds, func(e engine.Effect) bool { return e.Power == power })
	if i < 0 {
		return errors.New("you hold no such power now")
	}
	if !slices.Contains(ds[i].Targets, target) {
		return errors.New("not a target you may choose")
	}
	d.chosen[power] = target
	for _, dc := range ds {
		if _, ok := d.chosen[dc.Power]; !ok {
			return nil
		}
	}
	return d.postNight()
}

// Sleep lets a seat without a power post its night actions now.
func (d *Seat) Sleep() error {
	d.mu.Lock()
	defer d.d()
	if !d.night || !d.myTurn {
		return errors.New("the table does not ask for your night actions now")
	}
	if len(d.player.Decisions(d.tab)) > 0 {
		return errors.New("you must choose first")
	}
	return d.postNight()
}

// postNight hands the night actions with the chosen targets to Author;
// d.mu is held.
func (d *Seat) postNight() error {
	enc, err := d.actionsBody(d.chosen)
	if err != nil {
		clear(d.chosen)
		return err
	}
	d.myTurn, d.night = false, false
	d.moves <- enc
	return nil
}
