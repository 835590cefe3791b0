package mafia_test

import (
	"os"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// TestLongPlayouts plays many more seeded games (MAFIA_LONG=1).
func TestLongPlayouts(t *testing.T) {
	if os.Getenv("MAFIA_LONG") == "" {
		t.Skip("set MAFIA_LONG=1")
	}
	for n := mafia.MinPlayers; n <= mafia.MaxPlayers; n++ {
		for seed := range uint64(300) {
			o := mafia.Options{Players: names(n), TieDraw: seed%7 == 0, NoIncidents: seed%5 == 0}
			switch {
			case seed%3 == 1:
				o.Specials = []engine.Card{}
			case seed%3 == 2 && n >= 9:
				o.Specials = []engine.Card{mafia.Butterfly, mafia.Madman}
			case seed%3 == 2 && n >= 6:
				o.Specials = []engine.Card{mafia.Butterfly}
			}
			if tab, err := playout(o, seed*31+uint64(n), seed%2 == 0); err != nil {
				t.Fatalf("%d players, seed %d: %v\n%v", n, seed, err, tab.Moves)
			}
		}
	}
}
