package registry_test

import (
	"testing"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/games/registry"
)

// Every known game keeps the contract: a unique name, the default among
// them, and the contract suite (engine/games/gametest: setup at every
// player count, bot games through the real stack at its smallest player
// count and at two players more, with their invariants, mutated bodies at their real
// positions). -short plays no game.
func TestEveryGameKeepsTheContract(t *testing.T) {
	seen := map[string]bool{}
	if g, err := registry.Lookup(registry.Default); err != nil || g.Name() != registry.Default {
		t.Fatalf("the default game %q: %v", registry.Default, err)
	}
	if _, err := registry.Lookup("chess"); err == nil {
		t.Fatal("an unknown game found")
	}
	for _, g := range registry.All() {
		if seen[g.Name()] {
			t.Fatalf("%s listed twice", g.Name())
		}
		seen[g.Name()] = true
		t.Run(g.Name(), func(t *testing.T) {
			if testing.Short() {
				gametest.Setup(t, g)
				return
			}
			t.Parallel()
			lo, hi := g.Players()
			gametest.Run(t, g, gametest.Config{Seed: 1, Playouts: []int{lo, min(lo+2, hi)}})
		})
	}
}

// fixedScripts holds, for every known game, a script header that fixes
// its deal the game's own way, and one that leaves it to the players'
// coins and shuffles. A new game must add its pair: if its scripts can
// fix the deal, the contract must report it ([games.DealFixed]), or the
// network tables that refuse fixed deals would play it.
var fixedScripts = map[string]struct{ fixed, drawn string }{
	"mascarade": {"game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief\n",
		"game mascarade players=Anna,Boris,Sasha,Dima\n"},
	"mascarade2": {"game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya deal=Princess,King,Empress,Judge,Puppeteer,Swindler\n",
		"game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya\n"},
	"grimm": {"game grimm players=Anna,Boris,Sasha\nround 1 first=Boris\n",
		"game grimm players=Anna,Boris,Sasha\n"},
	"mafia": {"game mafia players=Anna,Boris,Clara,Dima roles=Civilian,Mafioso,Civilian,Civilian\n",
		"game mafia players=Anna,Boris,Clara,Dima\n"},
}

// TestEveryGameReportsItsFixedDeal: a scripted table's fixed deal, in any
// known game, is reported by the one rule network tables and verify use.
func TestEveryGameReportsItsFixedDeal(t *testing.T) {
	for _, g := range registry.All() {
		t.Run(g.Name(), func(t *testing.T) {
			c, ok := fixedScripts[g.Name()]
			if !ok {
				t.Fatal("no fixed-deal script for this game: add one to fixedScripts")
			}
			for _, x := range []struct {
				src   string
				fixed bool
			}{{c.fixed, true}, {c.drawn, false}} {
				sc, err := g.ParseScript([]byte(x.src), nil)
				if err != nil {
					t.Fatalf("%q: %v", x.src, err)
				}
				o, err := sc.Table()
				if err != nil {
					t.Fatalf("%q: %v", x.src, err)
				}
				if how := games.DealFixed(g, &o); (how != "") != x.fixed {
					t.Errorf("%q: DealFixed %q, want fixed %v", x.src, how, x.fixed)
				}
			}
		})
	}
}
