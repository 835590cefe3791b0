package scripttest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/masquerade"
)

// ProtocolDoc is what an edition's rule-by-rule section of
// docs/protocol.md (the rules an auditor's verifier checks) must name.
type ProtocolDoc struct {
	Path    string   // the file, e.g. "../../docs/protocol.md"
	Heading string   // the section's heading, e.g. "## 13. Mascarade, rule by rule"
	Label   string   // how errors call the section, e.g. "§13"
	RuleIDs []string // every rule id a transcript can reach
	Numbers []int    // the box's coins and the numbers the powers use
	Cards   []string // every card's name
}

// DocumentsRules checks that the section of d.Path starting at d.Heading
// (to the file's end) names every rule id (in backquotes), gives every
// number and names every card, reporting each one missing.
func DocumentsRules(tb testing.TB, d ProtocolDoc) {
	tb.Helper()
	data, err := os.ReadFile(d.Path)
	if err != nil {
		tb.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, d.Heading)
	if i < 0 {
		tb.Fatalf("%s has no %s", d.Path, d.Label)
	}
	sec := doc[i:]
	for _, id := range d.RuleIDs {
		if !strings.Contains(sec, "`"+id+"`") {
			tb.Errorf("%s does not name the rule id %q", d.Label, id)
		}
	}
	for _, n := range d.Numbers {
		if !strings.Contains(sec, fmt.Sprint(n)) {
			tb.Errorf("%s does not give the number %d", d.Label, n)
		}
	}
	for _, c := range d.Cards {
		if !strings.Contains(sec, c) {
			tb.Errorf("%s does not name the card %s", d.Label, c)
		}
	}
}

// familyRuleIDs are the rule ids every edition's transcript can reach.
var familyRuleIDs = []string{masquerade.RuleWrongMove, masquerade.RuleBadArgs, masquerade.RuleNotYourSlot,
	masquerade.RuleBadTarget, masquerade.RulePreparatory, masquerade.RuleNotInPlay, masquerade.RuleUnknownMove}

// DocumentsEdition is [DocumentsRules] for an edition of the family:
// d.RuleIDs are the edition's own, to which it adds the family's, and
// d.Cards the names of cards.
func DocumentsEdition(tb testing.TB, d ProtocolDoc, cards []masquerade.CardInfo) {
	tb.Helper()
	d.RuleIDs = append(append([]string(nil), familyRuleIDs...), d.RuleIDs...)
	for _, c := range cards {
		d.Cards = append(d.Cards, c.Name)
	}
	DocumentsRules(tb, d)
}
