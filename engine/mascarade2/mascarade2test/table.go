package mascarade2test

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade"
)

// Table is the omniscient oracle: the public rules state plus the true
// card in every slot. Its methods ([masquerade.Oracle.Play],
// [masquerade.Oracle.PassResponders], [masquerade.Oracle.PlayLine],
// [masquerade.Oracle.Finish]) are the family's.
type Table = masquerade.Oracle[*mascarade2.State]

// The oracle's records, the family's.
type (
	// Step records one move and everything that followed from it.
	Step = masquerade.Step
	// Peek is a card seen privately by one seat (a peek, the Spy, or
	// the Princess's show).
	Peek = masquerade.Peek
)

// New starts a game with the given deal (the true cards, one per slot).
func New(opts mascarade2.Options, deal []engine.Card) (*Table, error) {
	s, err := mascarade2.NewGame(opts, deal)
	if err != nil {
		return nil, err
	}
	return masquerade.OracleOf("mascarade2test", s, deal), nil
}

// RunScript parses and plays a script and returns the final state. Errors
// carry the line number (a *[mascarade2.ScriptError]), wrapping the
// [engine.RuleError] of an illegal line. load reads scenario files (may be
// nil, see [mascarade2.ParseScript]).
func RunScript(src []byte, load mascarade2.ScenarioLoader) (*mascarade2.State, error) {
	sc, err := mascarade2.ParseScript(src, load)
	return masquerade.FinalState("mascarade2test", sc, err)
}

// Run plays a parsed script (see the package documentation for the
// semantics). On an illegal line it returns the table as it was before that
// line, with the error.
func Run(sc *mascarade2.Script) (*Table, error) { return masquerade.RunOracle("mascarade2test", sc) }

// ScriptDeal returns the deal a script is played with by the oracle: its
// deal= cards, or else the normalized set in card order (the oracle has no
// joint coin; a real table deals at random).
func ScriptDeal(sc *mascarade2.Script) []engine.Card { return sc.OracleDeal() }

// HashState returns the SHA-256 of the canonical encoding of s.
func HashState(s engine.State) [32]byte { return masquerade.HashState(s) }
