package masquerade_test

import (
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// TestProtocolDocumentsTheRules keeps docs/protocol.md §13 (the rules an
// auditor's verifier checks, written from this engine) in step with the
// engine, for each edition: every rule id a transcript can reach, the
// box's coins, the numbers the powers use and every card's name appear
// there.
func TestProtocolDocumentsTheRules(t *testing.T) {
	doc := func(own []string, numbers ...int) scripttest.ProtocolDoc {
		return scripttest.ProtocolDoc{
			Path:    "../../docs/protocol.md",
			Heading: "## 13. Mascarade, rule by rule",
			Label:   "§13",
			RuleIDs: own,
			Numbers: numbers,
		}
	}
	t.Run(mascarade.GameName, func(t *testing.T) {
		scripttest.DocumentsEdition(t, doc([]string{mascarade.RuleRevealedSwap, mascarade.RuleNotRichest},
			mascarade.BoxCoins, mascarade.WinCoins, mascarade.WidowCoins, mascarade.MinPlayers, mascarade.MaxPlayers), mascarade.Cards())
	})
	t.Run(mascarade2.GameName, func(t *testing.T) {
		scripttest.DocumentsEdition(t, doc([]string{mascarade2.RuleRevealedClaim, mascarade2.RuleNotRichest},
			mascarade2.BoxCoins, mascarade2.WinCoins, mascarade2.WidowCoins, mascarade2.MinPlayers, mascarade2.MaxPlayers), mascarade2.Cards())
	})
}
