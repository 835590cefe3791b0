package bot_test

import (
	"math/rand/v2"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

// Bots play whole games for 2-5 players without a refused move, and games
// end.
func TestBotGames(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}
	wins := map[int]int{}
	for players := 2; players <= 5; players++ {
		for seed := range uint64(10) {
			opts := grimm.Options{Players: names[:players], Jewels: seed%2 == 0, Bets: players > 2 && seed%3 == 0, Abilities: seed%4 < 2}
			tab, err := grimmtest.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			bots := make([]*bot.Bot, players)
			for p := range bots {
				bots[p] = bot.New(engine.Seat(p), seed)
			}
			for step := 0; !tab.State.Over(); step++ {
				if step > 3000 {
					t.Fatalf("%d players, seed %d: no end: %v", players, seed, tab.State)
				}
				p := tab.State.Next().Seat
				m, ok := bots[p].Choose(tab.State, tab.Known(p))
				if !ok {
					t.Fatalf("bot %d has no move: %v", p, tab.State)
				}
				if err := tab.Play(m); err != nil {
					t.Fatalf("%d players, seed %d: %q refused: %v", players, seed, grimm.FormatMove(tab.State, m), err)
				}
			}
			for _, r := range tab.State.Results() {
				if r.ByTalismans {
					wins[players]++
				}
			}
		}
	}
	t.Logf("rounds won by talismans, by players: %v", wins)
}

func TestChooseOnlyWhenAsked(t *testing.T) {
	tab, err := grimmtest.New(grimm.Options{Players: []string{"A", "B", "C"}}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	next := tab.State.Next().Seat
	other := (next + 1) % 3
	if _, ok := bot.New(other, 1).Choose(tab.State, tab.Known(other)); ok {
		t.Error("a bot chose a move out of turn")
	}
}

// One bot against three players choosing uniformly among their legal
// moves wins well over its fair share (a quarter) of 4-player games.
func TestBotBeatsRandom(t *testing.T) {
	const games = 60
	won := 0.0
	for seed := range uint64(games) {
		tab, err := grimmtest.New(grimm.Options{Players: []string{"Bot", "B", "C", "D"}}, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := bot.New(0, seed)
		r := rand.New(rand.NewPCG(seed, 99))
		for !tab.State.Over() {
			p := tab.State.Next().Seat
			var m engine.Move
			if p == 0 {
				m, _ = b.Choose(tab.State, tab.Known(p))
			} else {
				ms := tab.State.LegalMoves(p, tab.Known(p))
				m = ms[r.IntN(len(ms))]
				for _, x := range ms {
					if x.Kind == grimm.KindEnd && r.IntN(2) == 0 {
						m = x
					}
				}
			}
			if err := tab.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		w := tab.State.Winners()
		for _, p := range w {
			if p == 0 {
				won += 1 / float64(len(w))
			}
		}
	}
	if won < games*0.4 {
		t.Errorf("the bot won %.1f of %d games", won, games)
	}
	t.Logf("the bot won %.1f of %d games", won, games)
}
