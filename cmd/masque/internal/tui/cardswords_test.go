package tui

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/view"
)

// A card whose name already says what it is is not labelled twice: the
// bets shown at a round's end read "bet on the Beast", not "bet: bet on
// the Beast"; a hand opened at the end keeps its label.
func TestCardsTextNoDoubleLabel(t *testing.T) {
	for _, tc := range []struct {
		cards []view.Card
		want  string
	}{
		{[]view.Card{{Name: "bet on the Beast", Face: view.FaceUp, Note: "bet"}}, "bet on the Beast"},
		{[]view.Card{{Name: "Crown", Face: view.FaceUp}, {Name: "Mirror", Face: view.FaceUp, Note: "hand"}, {Name: "Clock", Face: view.FaceUp, Note: "hand"}},
			"Crown, hand: Mirror, Clock"},
	} {
		got := cardsText(tc.cards)
		if got != tc.want {
			t.Errorf("cardsText(%+v) = %q, want %q", tc.cards, got, tc.want)
		}
		if strings.Contains(got, "bet: bet") {
			t.Errorf("labelled twice: %q", got)
		}
	}
}
