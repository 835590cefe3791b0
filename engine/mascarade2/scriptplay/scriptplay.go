// Package scriptplay plays a Mascarade (2nd edition) script through the real stack: a
// local table where every seat has its own keys and replica, every swap is
// proven, every peek and reveal is made of decryption shares, and every
// entry is signed, encoded, decoded and validated as over the network.
// Its semantics are those of the rules-level oracle driver
// (engine/mascarade2/mascarade2test): responders who are not listed pass.
package scriptplay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
)

// Run parses and plays src (load reads scenario files, may be nil). It returns the local table (also on an illegal
// line, as it was before that line) and an error naming the line.
func Run(src []byte, load mascarade2.ScenarioLoader, publishKeys bool) (*local.Table, error) {
	sc, err := mascarade2.ParseScript(src, load)
	if err != nil {
		return nil, err
	}
	gameOpts, err := sc.Options.MarshalBinary()
	if err != nil {
		return nil, &mascarade2.ScriptError{Line: 1, Err: err}
	}
	opts := table.Options{Game: gameOpts, Deal: sc.Deal, PublishKeys: publishKeys}
	lt, err := local.New(mascarade2.Game{}, sc.Options.Players, opts)
	if err != nil {
		return nil, &mascarade2.ScriptError{Line: 1, Err: err}
	}
	for _, ln := range sc.Lines {
		if err := playLine(lt, ln); err != nil {
			return lt, &mascarade2.ScriptError{Line: ln.LineNo, Err: err}
		}
	}
	if err := passResponders(lt, -1); err != nil {
		return lt, &mascarade2.ScriptError{Line: len(sc.Lines) + 1, Err: err}
	}
	return lt, nil
}

// State returns the rules state of a local Mascarade (2nd edition) table.
func State(lt *local.Table) *mascarade2.State {
	s, _ := lt.View().Rules().(*mascarade2.State)
	return s
}

func passResponders(lt *local.Table, seat engine.Seat) error {
	for {
		s := State(lt)
		if s == nil || !s.InChallengeWindow() {
			return nil
		}
		next := s.Next().Seat
		if next == seat {
			return nil
		}
		if err := lt.Move(next, engine.Move{Seat: next, Kind: mascarade2.KindPass}, nil); err != nil {
			return err
		}
	}
}

func playLine(lt *local.Table, ln mascarade2.ScriptLine) error {
	s := State(lt)
	if s == nil {
		return errNotStarted
	}
	seat, err := s.SeatByName(ln.SeatName)
	if err != nil {
		return err
	}
	responds := false
	if len(ln.Tokens) > 0 {
		v := strings.ToLower(ln.Tokens[0])
		responds = v == "challenge" || v == "pass"
	}
	if !responds {
		seat = -1
	}
	if err := passResponders(lt, seat); err != nil {
		return err
	}
	s = State(lt)
	m, swap, err := mascarade2.ParseMove(s, ln.SeatName, ln.Tokens)
	if err != nil {
		return err
	}
	var bits []bool
	if mascarade2.HasSecretSwap(s, m) {
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
	if spy, _, ok := State(lt).SpyDeciding(); ok && spy.Seat == m.Seat && mascarade2.HasSwapToken(ln.Tokens) {
		return lt.Move(m.Seat, engine.Move{Seat: m.Seat, Kind: mascarade2.KindUse}, []bool{swap})
	}
	return nil
}

type scriptErr string

func (e scriptErr) Error() string { return string(e) }

const errNotStarted = scriptErr("the table has not dealt yet")
