package bot_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/bot"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
)

var names = []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg"}

// observation returns what seat learns from an oracle step.
func observation(st mascarade2test.Step, seat engine.Seat) bot.Observation {
	o := bot.Observation{Effects: st.Effects, Facts: st.Facts}
	for _, p := range st.Peeks {
		if p.By == seat {
			o.Seen = append(o.Seen, engine.Fact{Slot: p.Slot, Card: p.Card})
		}
	}
	for _, e := range st.Effects {
		if e.Kind == engine.EffectSwap && e.By == seat {
			o.Swap = st.Swap
		}
	}
	return o
}

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
	for range maxSteps {
		need := tab.State.Next()
		if need.Kind == engine.NeedNothing {
			break
		}
		m, swap, ok := bots[need.Seat].Choose(tab.State)
		if !ok {
			t.Fatalf("bot %d has no move: %v", need.Seat, tab.State)
		}
		st, err := tab.Play(m, swap)
		if err != nil {
			t.Fatalf("bot move %s: %v", mascarade2.FormatMove(tab.State, m), err)
		}
		for i, b := range bots {
			b.Observe(observation(st, engine.Seat(i)))
			// The tracker never rules out the true card.
			for sl, c := range tab.Cards {
				if !b.Tracker.Candidates(engine.Slot(sl)).Has(c) {
					t.Fatalf("bot %d rules out the true card %s in slot %d", i, mascarade2.CardName(c), sl)
				}
			}
		}
	}
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
