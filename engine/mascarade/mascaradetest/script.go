package mascaradetest

import (
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
)

// RunScript parses and plays a script and returns the final state. Errors
// carry the line number (a *[mascarade.ScriptError]), wrapping the
// [engine.RuleError] of an illegal line.
func RunScript(src []byte) (*mascarade.State, error) {
	sc, err := mascarade.ParseScript(src)
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
func ScriptDeal(sc *mascarade.Script) []engine.Card {
	if sc.Deal != nil {
		return slices.Clone(sc.Deal)
	}
	return sc.Options.Normalize().Set
}

// Run plays a parsed script (see the package documentation for the
// semantics). On an illegal line it returns the table as it was before that
// line, with the error.
func Run(sc *mascarade.Script) (*Table, error) {
	t, err := New(sc.Options, ScriptDeal(sc))
	if err != nil {
		return nil, &mascarade.ScriptError{Line: 1, Err: err}
	}
	return t, t.RunLines(sc.Lines)
}
