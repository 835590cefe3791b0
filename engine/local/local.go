// Package local runs a whole table in one process: every seat holds its
// own keys and its own replica, and every entry goes through the same
// encoding, signing, decoding and validation path as over the network.
// Scripted tables (`masque script`) and tests use it.
package local

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// Seat is one in-process seat: its private side and its own replica.
type Seat struct {
	Name    string
	Player  *table.Player
	Replica *table.Table
}

// Table is a table whose seats all live in this process.
type Table struct {
	Seats      []*Seat
	roster     *ledger.Roster
	rosterSigs [][ed25519.SignatureSize]byte
	entries    []*ledger.Entry
	// OnEntry, if set, is called after each entry is applied everywhere.
	OnEntry func(e *ledger.Entry)
	// OwnNight, if set, names the seats whose night actions Auto never
	// posts, even without a decision (a person's seat, which posts its
	// actions itself after a delay, so as not to tell the table at once
	// that it holds no power).
	OwnNight func(seat engine.Seat) bool
}

// New seats names at a fresh table for game under opts.
func New(game table.Game, names []string, opts table.Options) (*Table, error) {
	var tableID [16]byte
	if _, err := rand.Read(tableID[:]); err != nil {
		return nil, err
	}
	optBytes, err := opts.MarshalBinary()
	if err != nil {
		return nil, err
	}
	r := &ledger.Roster{TableID: tableID, Game: game.Name(), Options: optBytes}
	var signs []ed25519.PrivateKey
	var secrets []table.SeatSecrets
	for i, name := range names {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		sk := table.GenerateSeatSecrets()
		peer := append([]byte("local:"), pub[:8]...)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: name, PeerID: peer, SignKey: pub, Keys: sk.PublicKeys(tableID, i, peer)})
		signs, secrets = append(signs, priv), append(secrets, sk)
	}
	id, err := r.GameID()
	if err != nil {
		return nil, err
	}
	lt := &Table{roster: r}
	for i, name := range names {
		var sig [ed25519.SignatureSize]byte
		copy(sig[:], ed25519.Sign(signs[i], ledger.RosterSigningBytes(id)))
		lt.rosterSigs = append(lt.rosterSigs, sig)
		rep, err := table.New(r, game)
		if err != nil {
			return nil, err
		}
		lt.Seats = append(lt.Seats, &Seat{Name: name, Player: table.NewPlayer(i, signs[i], secrets[i]), Replica: rep})
	}
	return lt, lt.Auto()
}

// View returns seat 0's replica, which every other replica equals.
func (lt *Table) View() *table.Table { return lt.Seats[0].Replica }

// Transcript returns the game so far as a transcript.
func (lt *Table) Transcript() *ledger.Transcript {
	return &ledger.Transcript{Roster: lt.roster, RosterSigs: lt.rosterSigs, Entries: append([]*ledger.Entry{}, lt.entries...)}
}

// publish signs body as seat's entry and applies it on every replica,
// through the wire encoding. The author's replica checks it first: an
// illegal move is refused there and reaches nobody.
func (lt *Table) publish(seat int, body *table.Body) error {
	s := lt.Seats[seat]
	e, err := s.Player.Entry(s.Replica, body)
	if err != nil {
		return err
	}
	wire, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	order := []int{seat}
	for i := range lt.Seats {
		if i != seat {
			order = append(order, i)
		}
	}
	for _, i := range order {
		got, err := ledger.UnmarshalEntry(wire)
		if err != nil {
			return fmt.Errorf("seat %s: %w", lt.Seats[i].Name, err)
		}
		if err := lt.Seats[i].Replica.Apply(got); err != nil {
			if i == seat {
				return err
			}
			return fmt.Errorf("replicas diverge: seat %s rejected what seat %s accepted: %w", lt.Seats[i].Name, s.Name, err)
		}
	}
	h := lt.Seats[0].Replica.StateHash()
	for _, o := range lt.Seats[1:] {
		if o.Replica.StateHash() != h {
			return fmt.Errorf("replicas diverge after entry %d: state hashes differ", e.Pos)
		}
	}
	for _, o := range lt.Seats {
		if err := o.Player.Observe(o.Replica); err != nil {
			return fmt.Errorf("seat %s: %w", o.Name, err)
		}
	}
	lt.entries = append(lt.entries, e)
	if lt.OnEntry != nil {
		lt.OnEntry(e)
	}
	return nil
}

// Auto posts every entry that needs no decision (deal coins, shares, keys)
// until a move is needed or the log is closed.
func (lt *Table) Auto() error {
	for {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return nil
		}
		if kind == table.BodyActions && lt.OwnNight != nil && lt.OwnNight(seat) {
			return nil // the seat posts its night actions itself
		}
		body, auto, err := lt.Seats[seat].Player.AutoBody(lt.Seats[seat].Replica)
		if err != nil {
			return err
		}
		if !auto {
			return nil
		}
		if err := lt.publish(int(seat), body); err != nil {
			return err
		}
	}
}

// Move plays a move by seat (with the secret bits of the hidden swaps it
// causes), then every automatic entry that follows.
func (lt *Table) Move(seat engine.Seat, m engine.Move, swaps []bool) error {
	if int(seat) < 0 || int(seat) >= len(lt.Seats) {
		return fmt.Errorf("no seat %d", seat)
	}
	s := lt.Seats[seat]
	body, err := s.Player.MoveBody(s.Replica, m, swaps)
	if err != nil {
		return err
	}
	if err := lt.publish(int(seat), body); err != nil {
		return err
	}
	return lt.Auto()
}

// Actions posts seat's secret actions (a night's ballots, check and tag)
// with its choices by power, then every automatic entry that follows.
func (lt *Table) Actions(seat engine.Seat, choices map[uint8]engine.Seat) error {
	if int(seat) < 0 || int(seat) >= len(lt.Seats) {
		return fmt.Errorf("no seat %d", seat)
	}
	s := lt.Seats[seat]
	body, err := s.Player.ActionsBody(s.Replica, choices)
	if err != nil {
		return err
	}
	if err := lt.publish(int(seat), body); err != nil {
		return err
	}
	return lt.Auto()
}
