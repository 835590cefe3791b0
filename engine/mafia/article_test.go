package mafia

import (
	"testing"

	"github.com/masque-games/masque/engine"
)

// A role a game has one of is "the" role; a shared role or a card is "a".
func TestArticle(t *testing.T) {
	for c, want := range map[engine.Card]string{
		Commissar: "the Commissar", Don: "the Don", Madman: "the Madman", Nurse: "the Nurse", Butterfly: "the Night Butterfly",
		Civilian: "a Civilian", Mafioso: "a Mafioso", Misfire: "a Misfire", Alibi: "an Alibi",
	} {
		if got := article(c); got != want {
			t.Errorf("article(%v) = %q, want %q", c, got, want)
		}
	}
}
