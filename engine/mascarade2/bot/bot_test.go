package bot_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/bot"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg"}

// playBots plays one game of bots with the default scenario.
func playBots(t *testing.T, players int, seed uint64, maxSteps int) *mascarade2test.Table {
	t.Helper()
	opts := mascarade2.Options{Players: names[:players]}
	deal := opts.Normalize().Set
	r := rand.New(rand.NewPCG(seed, 7))
	r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	tab, err := mascarade2test.New(opts, deal)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*bot.Bot, players)
	for i := range bots {
		bots[i] = bot.New(tab.State, engine.Seat(i), seed*31+uint64(i))
	}
	scripttest.PlayBots(t, tab, bots, func(b *bot.Bot) *bot.Tracker { return b.Tracker }, maxSteps, mascarade2.FormatMove, mascarade2.CardName)
	return tab
}

func TestBotsFinishGames(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 8
	}
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		t.Run(fmt.Sprintf("%dp", p), func(t *testing.T) {
			finished := 0
			for g := range games {
				tab := playBots(t, p, uint64(100*p+g), 3000)
				if tab.State.Over() {
					finished++
				}
			}
			if finished < games*9/10 {
				t.Errorf("bots finished only %d of %d games", finished, games)
			}
		})
	}
}

func TestBotDeterministic(t *testing.T) {
	a := playBots(t, 6, 42, 3000)
	b := playBots(t, 6, 42, 3000)
	if len(a.Steps) != len(b.Steps) || mascarade2test.HashState(a.State) != mascarade2test.HashState(b.State) {
		t.Fatal("the same seeds gave different games")
	}
}
