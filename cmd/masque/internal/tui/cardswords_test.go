package tui

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/seatview"
)

// A card whose name already says what it is is not labelled twice: the
// bets shown at a round's end read "bet on the Beast", not "bet: bet on
// the Beast"; a hand opened at the end keeps its label.
func TestCardsTextNoDoubleLabel(t *testing.T) {
	for _, tc := range []struct {
		cards []seatview.Card
		want  string
	}{
		{[]seatview.Card{{Name: "bet on the Beast", Face: seatview.FaceUp, Note: "bet"}}, "bet on the Beast"},
		{[]seatview.Card{{Name: "Crown", Face: seatview.FaceUp}, {Name: "Mirror", Face: seatview.FaceUp, Note: "hand"}, {Name: "Clock", Face: seatview.FaceUp, Note: "hand"}},
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
