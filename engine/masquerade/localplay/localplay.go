// Package localplay plays a script of a Mascarade-family game through the
// real stack: a local table (engine/local) where every seat has its own
// keys and replica, every swap is proven, every peek and reveal is made of
// decryption shares, and every entry is signed, encoded, decoded and
// validated as over the network.
//
// Its semantics are those of the rules-level oracle driver
// ([masquerade.Oracle.PlayLine]): responders who are not listed pass, and
// a Spy's line that says swap= plays the look, then (once the peek's shares
// are in) the decision. Each game's scriptplay package binds it to the
// game's rules with [Rules].
package localplay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
)

// State is what the runner needs of a game's rules state.
type State interface {
	engine.State
	// InChallengeWindow reports whether a responder must challenge or pass.
	InChallengeWindow() bool
	// SeatByName returns the seat of a player, case-insensitively.
	SeatByName(name string) (engine.Seat, error)
	// SpyDeciding returns the Spy and the other slot when the Spy, having
	// looked, must now swap or not.
	SpyDeciding() (spy masquerade.Contender, other engine.Slot, ok bool)
}

// Rules binds the runner to one game whose rules state is S.
type Rules[S State] struct {
	Game table.Game // the game the local table plays
	// ParseMove turns a line's tokens said by seatName into a move and its
	// secret swap bit.
	ParseMove func(s S, seatName string, tokens []string) (engine.Move, bool, error)
	// HasSecretSwap reports whether m, applied to s, carries a secret bit.
	HasSecretSwap func(s S, m engine.Move) bool
}

// Run deals a local table for players with opts and plays lines on it. It
// returns the local table (also on an illegal line, as it was before that
// line) and a *[masquerade.ScriptError] naming the line: line 1 when the
// table cannot be set up, one past the last line when closing a challenge
// window left open fails.
func (r Rules[S]) Run(players []string, opts table.Options, lines []masquerade.ScriptLine) (*local.Table, error) {
	lt, err := local.New(r.Game, players, opts)
	if err != nil {
		return nil, &masquerade.ScriptError{Line: 1, Err: err}
	}
	for _, ln := range lines {
		if err := r.playLine(lt, ln); err != nil {
			return lt, &masquerade.ScriptError{Line: ln.LineNo, Err: err}
		}
	}
	if err := r.passResponders(lt, -1); err != nil {
		return lt, &masquerade.ScriptError{Line: len(lines) + 1, Err: err}
	}
	return lt, nil
}

// State returns the rules state of a local table, or ok=false before the
// deal (or if the table plays another game).
func (r Rules[S]) State(lt *local.Table) (S, bool) {
	s, ok := lt.View().Rules().(S)
	return s, ok
}

func (r Rules[S]) passResponders(lt *local.Table, seat engine.Seat) error {
	for {
		s, ok := r.State(lt)
		if !ok || !s.InChallengeWindow() {
			return nil
		}
		next := s.Next().Seat
		if next == seat {
			return nil
		}
		if err := lt.Move(next, engine.Move{Seat: next, Kind: masquerade.KindPass}, nil); err != nil {
			return err
		}
	}
}

func (r Rules[S]) playLine(lt *local.Table, ln masquerade.ScriptLine) error {
	s, ok := r.State(lt)
	if !ok {
		return errNotStarted
	}
	seat, err := s.SeatByName(ln.SeatName)
	if err != nil {
		return err
	}
	if !masquerade.Responds(ln.Tokens) {
		seat = -1
	}
	if err := r.passResponders(lt, seat); err != nil {
		return err
	}
	s, _ = r.State(lt)
	m, swap, err := r.ParseMove(s, ln.SeatName, ln.Tokens)
	if err != nil {
		return err
	}
	var bits []bool
	if r.HasSecretSwap(s, m) {
		bits = []bool{swap}
	}
	if err := lt.Move(m.Seat, m, bits); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return fmt.Errorf("%s may not %s: %s (rule %s)", ln.SeatName, strings.Join(ln.Tokens, " "), re.Msg, re.Rule)
		}
		return err
	}
	// The Spy looks (the peeks' shares are in by now), then swaps or not.
	s, _ = r.State(lt)
	if spy, _, ok := s.SpyDeciding(); ok && spy.Seat == m.Seat && masquerade.HasSwapToken(ln.Tokens) {
		return lt.Move(m.Seat, engine.Move{Seat: m.Seat, Kind: masquerade.KindUse}, []bool{swap})
	}
	return nil
}

type scriptErr string

func (e scriptErr) Error() string { return string(e) }

const errNotStarted = scriptErr("the table has not dealt yet")
