// Package localplay plays a script of any game through the real stack: a
// local table (engine/local) where every seat has its own keys and
// replica, every swap is proven, every peek and reveal is made of
// decryption shares, and every entry is signed, encoded, decoded and
// validated as over the network. The game parses the script and plays its
// lines with its own semantics ([games.Script]); this package only sets
// the table up.
package localplay

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
)

// Run parses src as a script of g and plays it on a fresh local table
// (load reads the files the script names, may be nil; publishKeys: every
// seat publishes its card key at the end). It returns the local table
// (also on an illegal line, as it was before that line) and a
// *[games.ScriptError] naming the line: line 1 when the table cannot be
// set up.
func Run(g games.Rules, src []byte, load games.Loader, publishKeys bool) (*local.Table, error) {
	sc, err := g.ParseScript(src, load)
	if err != nil {
		return nil, err
	}
	opts, err := sc.Table()
	if err != nil {
		return nil, &games.ScriptError{Line: 1, Err: err}
	}
	opts.PublishKeys = publishKeys
	lt, err := local.New(g.Table(), sc.Seats(), opts)
	if err != nil {
		return nil, &games.ScriptError{Line: 1, Err: err}
	}
	return lt, sc.Play(Table{lt})
}

// Table is a local table as the table a script is played on
// ([games.Table]).
type Table struct{ *local.Table }

// Rules returns the rules state now (nil before the deal).
func (t Table) Rules() engine.State { return t.View().Rules() }

// Move plays m for seat with its secret bits.
func (t Table) Move(seat engine.Seat, m engine.Move, bits []bool) error {
	return t.Table.Move(seat, m, bits)
}

// Known returns what seat knows now, by slot (table.Player.Known).
func (t Table) Known(seat engine.Seat) map[engine.Slot]engine.Card {
	if int(seat) < 0 || int(seat) >= len(t.Seats) {
		return nil
	}
	s := t.Seats[seat]
	return s.Player.Known(s.Replica)
}

// ActionsDue returns the seat whose actions entry the table waits for.
func (t Table) ActionsDue() (engine.Seat, bool) {
	seat, kind, ok := t.View().Expect()
	return seat, ok && kind == table.BodyActions
}

// Act posts seat's actions entry with its choices by power.
func (t Table) Act(seat engine.Seat, choices map[uint8]engine.Seat) error {
	return t.Table.Actions(seat, choices)
}

// Decisions returns the parts of seat's due actions that need its choice.
func (t Table) Decisions(seat engine.Seat) []engine.Effect {
	if int(seat) < 0 || int(seat) >= len(t.Seats) {
		return nil
	}
	s := t.Seats[seat]
	return s.Player.Decisions(s.Replica)
}
