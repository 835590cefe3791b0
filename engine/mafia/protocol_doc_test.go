package mafia

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
)

// docs/protocol.md §2.2.3, §4.4 and §12 describe Mafia for an auditor
// who reads no Go: the card kinds, the role counts, the incident deck, the
// move kinds, the powers and the rule ids written there must be the
// code's.
func TestProtocolDocumentsMafia(t *testing.T) {
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	section := func(start, end string) string {
		i := strings.Index(doc, start)
		if i < 0 {
			t.Fatalf("docs/protocol.md has no %q", start)
		}
		j := strings.Index(doc[i+len(start):], end)
		if j < 0 {
			return doc[i:]
		}
		return doc[i : i+len(start)+j]
	}
	opts := section("#### 2.2.3 Mafia's options", "### 2.3 ")
	moves := section("### 4.4 Moves of Mafia", "## 5. ")
	slots := section("## 12. Mafia, slot by slot", "### 12.2 ")
	night := section("### 12.5 A night", "### 12.6 ")

	// Card kinds: "| k | name" with the name the game gives people.
	for k := range NumKinds {
		row := fmt.Sprintf("| %d | ", k)
		i := strings.Index(slots, row)
		if i < 0 {
			t.Errorf("§12.1 lists no kind %d", k)
			continue
		}
		cell := slots[i+len(row):]
		cell = cell[:strings.Index(cell, "|")]
		if !strings.Contains(cell, CardWords(engine.Card(k))) {
			t.Errorf("§12.1 names kind %d %q, the code %q", k, strings.TrimSpace(cell), CardWords(engine.Card(k)))
		}
	}
	if !strings.Contains(slots, fmt.Sprintf("K = %d kinds", NumKinds)) {
		t.Errorf("§12.1 does not say K = %d", NumKinds)
	}

	// Role counts per player count, a row per range.
	for _, r := range []struct{ lo, hi int }{{4, 5}, {6, 8}, {9, 11}, {12, 14}, {15, 18}} {
		for n := r.lo; n <= r.hi; n++ {
			c, err := CountsFor(n)
			if err != nil {
				t.Fatal(err)
			}
			row := fmt.Sprintf("| %d–%d | %d | %d | %d |", r.lo, r.hi, c.CivilSpecials, c.MafiaSpecials, c.Mafiosi)
			if !strings.Contains(opts, row) {
				t.Errorf("§2.2.3 lacks the row %q for %d players", row, n)
			}
		}
	}
	if _, err := CountsFor(MinPlayers - 1); err == nil {
		t.Error("CountsFor accepts too few players")
	}
	if !strings.Contains(opts, fmt.Sprintf("n (%d..%d)", MinPlayers, MaxPlayers)) {
		t.Errorf("§2.2.3 does not bound the players to %d..%d", MinPlayers, MaxPlayers)
	}
	// Default specials and the example deck.
	deck, err := RoleDeck(9, nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(opts), " ")
	list := func(cs []engine.Card) string {
		return strings.Trim(strings.ReplaceAll(fmt.Sprint(cardInts(cs)), " ", ", "), "[]")
	}
	if want := fmt.Sprintf("default specials (%s): deck [%s]", list(DefaultSpecials(9)), list(deck)); !strings.Contains(flat, want) {
		t.Errorf("§2.2.3's 9-player example is not the code's: want %q", want)
	}
	// The canonical incident deck.
	if want := list(CanonicalIncidents()); !strings.Contains(flat, want) {
		t.Errorf("§2.2.3 does not give the incident deck %s", want)
	}

	// Move kinds.
	for k := MoveHold; k <= MoveLeave; k++ {
		if row := fmt.Sprintf("| %d | %s |", k, KindName(k)); !strings.Contains(moves, row) {
			t.Errorf("§4.4 lacks the move row %q", row)
		}
	}
	// Every rule id.
	for _, id := range []string{RuleGameOver, RuleWaitingFacts, RuleNoSeat, RuleDead, RuleNotYourTurn, RuleWrongMove,
		RuleBadArgs, RuleBadTarget, RuleNotInHand, RuleWrongCard, RuleNoFactsWanted, RuleBadFacts} {
		if !strings.Contains(moves, "`"+id+"`") {
			t.Errorf("§4.4 does not name the rule id %s", id)
		}
	}
	// Powers, in the night's order.
	for p := PowerKill; p <= PowerCheck; p++ {
		if !strings.Contains(night, fmt.Sprintf("power %d", p)) {
			t.Errorf("§12.5 does not name power %d (%s)", p, PowerName(p))
		}
	}
	// The tuple's width and the neutral kinds used by checks and tags.
	if !strings.Contains(slots, fmt.Sprintf("width-%d tuple", TupleLen)) {
		t.Errorf("§12.1 does not give the tuple width %d", TupleLen)
	}
	if !strings.Contains(night, fmt.Sprintf("Neutral %d", NotMafia)) {
		t.Errorf("§12.5 does not give the check's neutral kind %d", NotMafia)
	}
}

func cardInts(cs []engine.Card) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = int(c)
	}
	return out
}
