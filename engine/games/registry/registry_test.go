package registry_test

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/table"
)

// Every known game keeps the contract's promises: a unique name that is
// also its table name, a sane player range, a default setup whose options
// give the seated names back and deal a table whose state the game
// summarizes, formats and hands to a bot.
func TestEveryGameKeepsTheContract(t *testing.T) {
	seen := map[string]bool{}
	if g, err := registry.Lookup(registry.Default); err != nil || g.Name() != registry.Default {
		t.Fatalf("the default game %q: %v", registry.Default, err)
	}
	for _, g := range registry.All() {
		t.Run(g.Name(), func(t *testing.T) {
			if seen[g.Name()] {
				t.Fatal("name listed twice")
			}
			seen[g.Name()] = true
			if g.Table().Name() != g.Name() || g.Title() == "" {
				t.Fatalf("table name %q, title %q", g.Table().Name(), g.Title())
			}
			lo, hi := g.Players()
			if lo < 2 || hi < lo {
				t.Fatalf("players %d..%d", lo, hi)
			}
			names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya", "Roma"}
			for _, n := range []int{lo, hi} {
				if n > len(names) {
					continue
				}
				setup, err := g.Configure(n, "", nil)
				if err != nil {
					t.Fatalf("%d players: %v", n, err)
				}
				enc, err := setup.Options(names[:n])
				if err != nil {
					t.Fatalf("%d players: %v", n, err)
				}
				back, err := g.PlayerNames(enc)
				if err != nil || !slices.Equal(back, names[:n]) {
					t.Fatalf("names back %v, %v", back, err)
				}
				// A setup chosen for a table never fixes the deal: a
				// network table would refuse it (games.DealFixed).
				if how := games.DealFixed(g, &table.Options{Game: enc}); how != "" {
					t.Fatalf("%d players: the default setup fixes the deal: %s", n, how)
				}
				deck, err := g.Table().Deck(enc)
				if err != nil {
					t.Fatal(err)
				}
				s, err := g.Table().New(enc, deck)
				if err != nil {
					t.Fatal(err)
				}
				sum, ok := g.Summarize(s)
				if !ok || sum.Over || len(sum.Scores) != n {
					t.Fatalf("summary %+v, %v", sum, ok)
				}
				if _, ok := g.Summarize(nil); ok {
					t.Fatal("a nil state summarized")
				}
				bot, err := g.NewBot(s, 0, 1)
				if err != nil {
					t.Fatal(err)
				}
				m, _, ok := bot.Choose(s)
				if need := s.Next(); need.Kind != engine.NeedMove || need.Seat != 0 {
					// A game that opens with its own effects (a coin
					// first) waits for no move yet.
					if ok {
						t.Fatalf("the bot moves while the rules wait for %+v", need)
					}
					continue
				}
				if !ok || g.FormatMove(s, m) == "" {
					t.Fatalf("the first seat's bot has no move (%v)", ok)
				}
				if _, _, err := s.Apply(m); err != nil {
					t.Fatalf("the bot's move %s: %v", g.FormatMove(s, m), err)
				}
				if g.CardName(deck[0]) == "" {
					t.Fatal("no card name")
				}
			}
			if _, err := g.NewBot(nil, 0, 1); err == nil {
				t.Fatal("a bot for a nil state")
			}
		})
	}
	if _, err := registry.Lookup("chess"); err == nil {
		t.Fatal("an unknown game found")
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
