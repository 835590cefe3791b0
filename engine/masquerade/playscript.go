package masquerade

import (
	"encoding"
	"errors"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// PlayState is what the family's script semantics need of an edition's
// rules state.
type PlayState interface {
	engine.State
	// InChallengeWindow reports whether a responder must challenge or pass.
	InChallengeWindow() bool
	// SeatByName returns the seat of a player, case-insensitively.
	SeatByName(name string) (engine.Seat, error)
	// SpyDeciding returns the Spy and the other slot when the Spy, having
	// looked, must now swap or not.
	SpyDeciding() (spy Contender, other engine.Slot, ok bool)
}

// LinePlayer plays a Mascarade-family script's lines on a [games.Table]
// (a local table of real seats): responders who are not listed pass, and a
// Spy's line that says swap= plays the look, then (once the peek's shares
// are in) the decision. These are the semantics of the rules-level oracle
// ([Oracle.PlayLine]).
type LinePlayer[S PlayState] struct {
	// ParseMove turns a line's tokens said by seatName into a move and its
	// secret swap bit.
	ParseMove func(s S, seatName string, tokens []string) (engine.Move, bool, error)
	// HasSecretSwap reports whether m, applied to s, carries a secret bit.
	HasSecretSwap func(s S, m engine.Move) bool
}

// Play plays lines on t. Errors are *[ScriptError] values naming the line:
// one past the last line when closing a challenge window left open fails.
func (r LinePlayer[S]) Play(t games.Table, lines []ScriptLine) error {
	for _, ln := range lines {
		if err := r.playLine(t, ln); err != nil {
			return &ScriptError{Line: ln.LineNo, Err: err}
		}
	}
	if err := r.passResponders(t, -1); err != nil {
		return &ScriptError{Line: len(lines) + 1, Err: err}
	}
	return nil
}

func (r LinePlayer[S]) state(t games.Table) (S, bool) {
	s, ok := t.Rules().(S)
	return s, ok
}

func (r LinePlayer[S]) passResponders(t games.Table, seat engine.Seat) error {
	for {
		s, ok := r.state(t)
		if !ok || !s.InChallengeWindow() {
			return nil
		}
		next := s.Next().Seat
		if next == seat {
			return nil
		}
		if err := t.Move(next, engine.Move{Seat: next, Kind: KindPass}, nil); err != nil {
			return err
		}
	}
}

func (r LinePlayer[S]) playLine(t games.Table, ln ScriptLine) error {
	s, ok := r.state(t)
	if !ok {
		return errNotStarted
	}
	seat, err := s.SeatByName(ln.SeatName)
	if err != nil {
		return err
	}
	if !Responds(ln.Tokens) {
		seat = -1
	}
	if err := r.passResponders(t, seat); err != nil {
		return err
	}
	s, _ = r.state(t)
	m, swap, err := r.ParseMove(s, ln.SeatName, ln.Tokens)
	if err != nil {
		return err
	}
	var bits []bool
	if r.HasSecretSwap(s, m) {
		bits = []bool{swap}
	}
	if err := t.Move(m.Seat, m, bits); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return fmt.Errorf("%s may not %s: %s (rule %s)", ln.SeatName, strings.Join(ln.Tokens, " "), re.Msg, re.Rule)
		}
		return err
	}
	// The Spy looks (the peeks' shares are in by now), then swaps or not.
	s, _ = r.state(t)
	if spy, _, ok := s.SpyDeciding(); ok && spy.Seat == m.Seat && HasSwapToken(ln.Tokens) {
		return t.Move(m.Seat, engine.Move{Seat: m.Seat, Kind: KindUse}, []bool{swap})
	}
	return nil
}

type scriptErr string

func (e scriptErr) Error() string { return string(e) }

const errNotStarted = scriptErr("the table has not dealt yet")

// ScriptTable is a [games.Script]'s Table for an edition's script: the
// canonical encoding of its options and its fixed deal.
func ScriptTable(opts encoding.BinaryMarshaler, deal []engine.Card) (table.Options, error) {
	enc, err := opts.MarshalBinary()
	if err != nil {
		return table.Options{}, fmt.Errorf("the script's options: %w", err)
	}
	return table.Options{Game: enc, Deal: deal}, nil
}
