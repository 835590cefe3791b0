package mascaradetest

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade"
)

// Table is the omniscient oracle: the public rules state plus the true
// card in every slot. Its methods ([masquerade.Oracle.Play],
// [masquerade.Oracle.PassResponders], [masquerade.Oracle.PlayLine],
// [masquerade.Oracle.Finish]) are the family's.
type Table = masquerade.Oracle[*mascarade.State]

// Step records one move and everything that followed from it.
type Step = masquerade.Step

// Peek is a card seen privately by one seat.
type Peek = masquerade.Peek

// New starts a game with the given deal (the true cards, one per slot).
func New(opts mascarade.Options, deal []engine.Card) (*Table, error) {
	s, err := mascarade.NewGame(opts, deal)
	if err != nil {
		return nil, err
	}
	return masquerade.OracleOf("mascaradetest", s, deal), nil
}

// RunScript parses and plays a script and returns the final state. Errors
// carry the line number (a *[mascarade.ScriptError]), wrapping the
// [engine.RuleError] of an illegal line.
func RunScript(src []byte) (*mascarade.State, error) {
	sc, err := mascarade.ParseScript(src)
	return masquerade.FinalState("mascaradetest", sc, err)
}

// ScriptDeal returns the deal a script is played with by the oracle: its
// deal= cards, or else the normalized set in card order (the oracle has no
// joint coin; a real table deals at random).
func ScriptDeal(sc *mascarade.Script) []engine.Card { return sc.OracleDeal() }

// Run plays a parsed script (see the package documentation for the
// semantics). On an illegal line it returns the table as it was before that
// line, with the error.
func Run(sc *mascarade.Script) (*Table, error) { return masquerade.RunOracle("mascaradetest", sc) }

// HashState returns the SHA-256 of the canonical encoding of s.
func HashState(s engine.State) [32]byte { return masquerade.HashState(s) }
