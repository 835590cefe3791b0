package bot_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/bot"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya", "Roma"}

// playBots plays one game of bots and returns the table.
func playBots(t *testing.T, players int, seed uint64, maxSteps int) *mascaradetest.Table {
	t.Helper()
	opts := mascarade.Options{Players: names[:players]}
	deal := opts.Normalize().Set
	r := rand.New(rand.NewPCG(seed, 7))
	r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	tab, err := mascaradetest.New(opts, deal)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*bot.Bot, players)
	for i := range bots {
		bots[i] = bot.New(tab.State, engine.Seat(i), seed*31+uint64(i))
	}
	scripttest.PlayBots(t, tab, bots, func(b *bot.Bot) *bot.Tracker { return b.Tracker }, maxSteps, mascarade.FormatMove, mascarade.CardName)
	return tab
}

func TestBotsFinishGames(t *testing.T) {
	for p := 2; p <= 13; p++ {
		t.Run(fmt.Sprintf("%dp", p), func(t *testing.T) {
			const games = 30
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
	if len(a.Steps) != len(b.Steps) || mascaradetest.HashState(a.State) != mascaradetest.HashState(b.State) {
		t.Fatal("the same seeds gave different games")
	}
}
