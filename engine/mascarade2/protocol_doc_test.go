package mascarade2

import (
	"testing"

	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// TestProtocolDocumentsTheRules keeps docs/protocol.md §13 (the rules an
// auditor's verifier checks, written from this engine) in step with the
// engine: every rule id a transcript can reach, the box's coins, the
// numbers the powers use and every card's name appear there.
func TestProtocolDocumentsTheRules(t *testing.T) {
	scripttest.DocumentsEdition(t, scripttest.ProtocolDoc{
		Path:    "../../docs/protocol.md",
		Heading: "## 13. Mascarade, rule by rule",
		Label:   "§13",
		RuleIDs: []string{RuleRevealedClaim, RuleNotRichest},
		Numbers: []int{BoxCoins, WinCoins, WidowCoins, MinPlayers, MaxPlayers},
	}, Cards())
}
