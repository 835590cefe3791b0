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

// Step records one move and everything that followed from it.
type Step = masquerade.Step

// Peek is a card seen privately by one seat.
type Peek = masquerade.Peek

// rules are the oracle's hooks into mascarade2.
var rules = masquerade.OracleRules[*mascarade2.State]{Name: "mascarade2test", ParseMove: mascarade2.ParseMove}

// New starts a game with the given deal (the true cards, one per slot).
func New(opts mascarade2.Options, deal []engine.Card) (*Table, error) {
	s, err := mascarade2.NewGame(opts, deal)
	if err != nil {
		return nil, err
	}
	return masquerade.NewOracle(rules, s, deal), nil
}

// HashState returns the SHA-256 of the canonical encoding of s.
func HashState(s engine.State) [32]byte { return masquerade.HashState(s) }
