package mascarade2test

import (
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
)

// RunScript parses and plays a script and returns the final state. Errors
// carry the line number (a *[mascarade2.ScriptError]), wrapping the
// [engine.RuleError] of an illegal line. load reads scenario files (may be
// nil, see [mascarade2.ParseScript]).
func RunScript(src []byte, load mascarade2.ScenarioLoader) (*mascarade2.State, error) {
	sc, err := mascarade2.ParseScript(src, load)
	if err != nil {
		return nil, err
	}
	t, err := Run(sc)
	if t == nil {
		return nil, err
	}
	return t.State, err
}

// ScriptDeal returns the deal a script is played with by the oracle: its
// deal= cards, or else the normalized set in card order (the oracle has no
// joint coin; a real table deals at random).
func ScriptDeal(sc *mascarade2.Script) []engine.Card {
	if sc.Deal != nil {
		return slices.Clone(sc.Deal)
	}
	return sc.Options.Normalize().Set
}

// Run plays a parsed script (see the package documentation for the
// semantics). On an illegal line it returns the table as it was before that
// line, with the error.
func Run(sc *mascarade2.Script) (*Table, error) {
	t, err := New(sc.Options, ScriptDeal(sc))
	if err != nil {
		return nil, &mascarade2.ScriptError{Line: 1, Err: err}
	}
	for _, ln := range sc.Lines {
		if err := t.PlayLine(ln); err != nil {
			return t, err
		}
	}
	return t, t.Finish()
}

// PlayLine plays one script line: first the responders who are not listed
// pass (every responder before the line's seat, or every remaining
// responder if the line is not a challenge or a pass), then the line's
// move. Errors are *[mascarade2.ScriptError] values naming the line.
func (t *Table) PlayLine(ln mascarade2.ScriptLine) error {
	if err := t.playLine(ln); err != nil {
		return &mascarade2.ScriptError{Line: ln.LineNo, Err: err}
	}
	return nil
}

// Finish closes a challenge window left open at the end of a script: the
// remaining responders pass.
func (t *Table) Finish() error { return t.PassResponders(-1) }

func (t *Table) playLine(ln mascarade2.ScriptLine) error {
	seat, err := t.State.SeatByName(ln.SeatName)
	if err != nil {
		return err
	}
	responds := false
	if len(ln.Tokens) > 0 {
		v := strings.ToLower(ln.Tokens[0])
		responds = v == "challenge" || v == "pass"
	}
	if !responds {
		seat = -1 // not an answer: everyone still to answer passes
	}
	if err := t.PassResponders(seat); err != nil {
		return err
	}
	m, swap, err := mascarade2.ParseMove(t.State, ln.SeatName, ln.Tokens)
	if err != nil {
		return err
	}
	if _, err = t.Play(m, swap); err != nil {
		return err
	}
	// "use with=NAME swap=yes" by the Spy is two moves: look, then swap
	// or not. A line that says swap= plays both.
	if spy, _, ok := t.State.SpyDeciding(); ok && spy.Seat == m.Seat && mascarade2.HasSwapToken(ln.Tokens) {
		_, err = t.Play(engine.Move{Seat: m.Seat, Kind: mascarade2.KindUse}, swap)
	}
	return err
}
