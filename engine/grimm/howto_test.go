package grimm_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/grimm"
)

// The help says where an unmasking's rose comes from as the rules take
// it: from the supply, to whoever unmasked the player (the book:
// "вы получаете 1 жетон розы"); the unmasked player loses none (the help
// said "an unmasked player gives a rose to whoever unmasked them").
func TestHowToPlayRoseFromSupply(t *testing.T) {
	s, err := grimm.NewGame(grimm.Options{Players: []string{"A", "B", "C"}})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(grimm.HowToPlay(s), "\n")
	if strings.Contains(all, "gives a rose") || !strings.Contains(all, "earns a rose from the supply") {
		t.Errorf("how to play:\n%s", all)
	}
}

// The help's bets line says what the book does: an unmasked player takes
// a bet card at once or on a later turn (it said "on a later turn" only,
// while the screen offers it at once too).
func TestHowToPlayBetAtOnceOrLater(t *testing.T) {
	s, err := grimm.NewGame(grimm.Options{Players: []string{"A", "B", "C"}, Bets: true})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(grimm.HowToPlay(s), "\n")
	if !strings.Contains(all, "at once or on a later turn") {
		t.Errorf("how to play:\n%s", all)
	}
}
