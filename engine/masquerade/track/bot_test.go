package track_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	mbot "github.com/masque-games/masque/engine/mascarade/bot"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/mascarade2"
	m2bot "github.com/masque-games/masque/engine/mascarade2/bot"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
	"github.com/masque-games/masque/engine/masquerade/track"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya"}

// edition is what the bot tests take from an edition whose states are S.
type edition[S interface {
	track.Rules
	scripttest.PlayoutState[S]
}] struct {
	min, max int
	games    int // per player count (fewer with -short)
	// table deals a default game for players, the deal shuffled by r.
	table  func(players []string, r *rand.Rand) (*masquerade.Oracle[S], error)
	bot    func(s S, seat engine.Seat, seed uint64) *track.Bot[S]
	format func(S, engine.Move) string
	card   func(engine.Card) string
}

// play plays one game of bots and returns the table.
func (e edition[S]) play(t *testing.T, players int, seed uint64, maxSteps int) *masquerade.Oracle[S] {
	t.Helper()
	tab, err := e.table(names[:players], rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*track.Bot[S], players)
	for i := range bots {
		bots[i] = e.bot(tab.State, engine.Seat(i), seed*31+uint64(i))
	}
	scripttest.PlayBots(t, tab, bots, func(b *track.Bot[S]) *track.Tracker { return b.Tracker }, maxSteps, e.format, e.card)
	return tab
}

// finish requires nine games in ten of bots to end within 3000 moves,
// for every player count.
func (e edition[S]) finish(t *testing.T) {
	games := e.games
	if testing.Short() {
		games = 8
	}
	for p := e.min; p <= e.max; p++ {
		t.Run(fmt.Sprintf("%dp", p), func(t *testing.T) {
			finished := 0
			for g := range games {
				if e.play(t, p, uint64(100*p+g), 3000).State.Over() {
					finished++
				}
			}
			if finished < games*9/10 {
				t.Errorf("bots finished only %d of %d games", finished, games)
			}
		})
	}
}

// deterministic requires the same seeds to play the same game.
func (e edition[S]) deterministic(t *testing.T) {
	a := e.play(t, 6, 42, 3000)
	b := e.play(t, 6, 42, 3000)
	if len(a.Steps) != len(b.Steps) || masquerade.HashState(a.State) != masquerade.HashState(b.State) {
		t.Fatal("the same seeds gave different games")
	}
}

func shuffled(deal []engine.Card, r *rand.Rand) []engine.Card {
	r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	return deal
}

var (
	first = edition[*mascarade.State]{
		min: mascarade.MinPlayers, max: mascarade.MaxPlayers, games: 30,
		table: func(players []string, r *rand.Rand) (*mascaradetest.Table, error) {
			opts := mascarade.Options{Players: players}
			return mascaradetest.New(opts, shuffled(opts.Normalize().Set, r))
		},
		bot: mbot.New, format: mascarade.FormatMove, card: mascarade.CardName,
	}
	second = edition[*mascarade2.State]{
		min: mascarade2.MinPlayers, max: mascarade2.MaxPlayers, games: 20,
		table: func(players []string, r *rand.Rand) (*mascarade2test.Table, error) {
			opts := mascarade2.Options{Players: players}
			return mascarade2test.New(opts, shuffled(opts.Normalize().Set, r))
		},
		bot: m2bot.New, format: mascarade2.FormatMove, card: mascarade2.CardName,
	}
)

func TestBotsFinishGames(t *testing.T) {
	t.Run("mascarade", first.finish)
	t.Run("mascarade2", second.finish)
}

func TestBotDeterministic(t *testing.T) {
	t.Run("mascarade", first.deterministic)
	t.Run("mascarade2", second.deterministic)
}
