package mascarade2

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestProtocolDocumentsTheRules keeps docs/protocol.md §13 (the rules an
// auditor's verifier checks, written from this engine) in step with the
// engine: every rule id a transcript can reach, the box's coins, the
// numbers the powers use and every card's name appear there.
func TestProtocolDocumentsTheRules(t *testing.T) {
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "## 13. Mascarade, rule by rule")
	if i < 0 {
		t.Fatal("docs/protocol.md has no §13")
	}
	sec := doc[i:]
	for _, id := range []string{RuleWrongMove, RuleBadArgs, RuleNotYourSlot, RuleBadTarget, RulePreparatory, RuleNotInPlay, RuleUnknownMove, RuleRevealedClaim, RuleNotRichest} {
		if !strings.Contains(sec, "`"+id+"`") {
			t.Errorf("§13 does not name the rule id %q", id)
		}
	}
	for _, n := range []int{BoxCoins, WinCoins, WidowCoins, MinPlayers, MaxPlayers} {
		if !strings.Contains(sec, fmt.Sprint(n)) {
			t.Errorf("§13 does not give the number %d", n)
		}
	}
	for _, c := range Cards() {
		if !strings.Contains(sec, c.Name) {
			t.Errorf("§13 does not name the card %s", c.Name)
		}
	}
}
