package bot_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

func table(t *testing.T, n int, seed uint64) (*mafiatest.Table, []mafiatest.Player) {
	t.Helper()
	var ns []string
	for i := range n {
		ns = append(ns, fmt.Sprintf("P%d", i))
	}
	tab, err := mafiatest.New(mafia.Options{Players: ns}, seed)
	if err != nil {
		t.Fatal(err)
	}
	var ps []mafiatest.Player
	for p := range engine.Seat(n) {
		ps = append(ps, bot.New(p, seed))
	}
	return tab, ps
}

func play(t *testing.T, tab *mafiatest.Table, ps []mafiatest.Player) {
	t.Helper()
	for range 5000 {
		more, err := tab.Step(ps)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			return
		}
	}
	t.Fatal("no end")
}

func TestDeterministic(t *testing.T) {
	for seed := range uint64(10) {
		a, pa := table(t, 10, seed)
		b, pb := table(t, 10, seed)
		play(t, a, pa)
		play(t, b, pb)
		if fmt.Sprint(a.Moves) != fmt.Sprint(b.Moves) {
			t.Fatalf("seed %d: two games differ", seed)
		}
	}
}

// TestMafiaSpareMates: a mafioso never names a recognised mate, at night
// or in the day's vote (unless every other target is a mate).
func TestMafiaSpareMates(t *testing.T) {
	for seed := range uint64(20) {
		tab, _ := table(t, 12, seed)
		for p := range engine.Seat(12) {
			k := tab.Knowledge(p)
			if !mafia.IsMafia(k.Role) || k.Role == mafia.Madman || len(k.Mates) == 0 {
				continue
			}
			b := bot.New(p, seed)
			for range 50 {
				q := b.Night(tab.State, k, mafia.PowerKill, tab.State.Living())
				for _, mate := range k.Mates {
					if q == mate || q == p {
						t.Fatalf("seed %d: mafioso %d names mate %d", seed, p, q)
					}
				}
			}
		}
	}
}

// TestCommissarVotesForMafia: a Commissar who found a mafioso votes for
// him.
func TestCommissarVotesForMafia(t *testing.T) {
	tab, _ := table(t, 6, 3)
	var com, maf engine.Seat = -1, -1
	for p := range engine.Seat(6) {
		switch tab.RoleOf(p) {
		case mafia.Commissar:
			com = p
		case mafia.Mafioso:
			maf = p
		}
	}
	k := tab.Knowledge(com)
	k.Checks[maf] = true
	for p := range engine.Seat(6) {
		if err := tab.Play(engine.Move{Seat: p, Kind: mafia.MoveHold, Args: []int{1}}); err != nil {
			t.Fatal(err)
		}
	}
	for tab.State.Turn() != com {
		p := tab.State.Turn()
		if err := tab.Play(engine.Move{Seat: p, Kind: mafia.MoveVote, Args: []int{-1}}); err != nil {
			t.Fatal(err)
		}
	}
	m, ok := bot.New(com, 1).Move(tab.State, k)
	if !ok || m.Kind != mafia.MoveVote || m.Args[0] != int(maf) {
		t.Fatalf("the Commissar votes %v, want %d", m, maf)
	}
}

// TestPlaysCardWhenAttacked: an attacked player holding a Misfire plays
// it.
func TestPlaysCardWhenAttacked(t *testing.T) {
	tab := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft\n"+
		"Anna hold no\nBoris hold no\nClara hold no\nDima hold no\nEgor hold no\nAnna kill Clara\n")
	m, ok := bot.New(2, 1).Move(tab.State, tab.Knowledge(2))
	if !ok || m.Kind != mafia.MoveCard || engine.Card(m.Args[0]) != mafia.Misfire {
		t.Fatalf("attacked Clara plays %v", m)
	}
}

func TestGamesBot(t *testing.T) {
	s, err := mafia.NewGame(mafia.Options{Players: []string{"A", "B", "C", "D"}})
	if err != nil {
		t.Fatal(err)
	}
	var gb games.Bot
	gb, err = bot.NewBot(s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	gb.Observe(games.Observation{Seen: []engine.Fact{{Slot: 0, Card: mafia.Mafioso}, {Slot: 4, Card: mafia.Alibi}}})
	m, _, ok := gb.Choose(s)
	if !ok || m.Kind != mafia.MoveHold {
		t.Fatalf("first move %v", m)
	}
	if k := gb.(*bot.Player).Know; k.Role != mafia.Mafioso || k.Hand[4] != mafia.Alibi {
		t.Fatalf("knowledge %+v", k)
	}
}

// winRates plays games seeded 0..games-1 of n bots with the book's
// setup (incident cards included) on the fake table and counts the
// winning sides.
func winRates(t *testing.T, n, games int) map[mafia.Side]int {
	t.Helper()
	out := map[mafia.Side]int{}
	for seed := range uint64(games) {
		tab, ps := table(t, n, seed)
		play(t, tab, ps)
		out[tab.State.Result()]++
	}
	return out
}

// TestWinRates measures how often each side wins bot games at 6, 9 and
// 12 players (MAFIA_WIN_GAMES games each, default 200; -v prints the
// rates) and checks that the civilians, playing on what they
// legitimately know, win at least a fifth of them (bots voting at random
// won 12%, 6% and 11% of 1000 games).
func TestWinRates(t *testing.T) {
	games := 200
	if v := os.Getenv("MAFIA_WIN_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("MAFIA_WIN_GAMES=%q", v)
		}
		games = n
	}
	for _, n := range []int{6, 9, 12} {
		r := winRates(t, n, games)
		civ := float64(r[mafia.SideCivilians]) / float64(games)
		t.Logf("%2d players, %d games: civilians %d (%.0f%%), mafia %d (%.0f%%), draws %d",
			n, games, r[mafia.SideCivilians], 100*civ,
			r[mafia.SideMafia], 100*float64(r[mafia.SideMafia])/float64(games), r[mafia.SideDraw])
		if civ < 0.2 {
			t.Errorf("%d players: the civilians win %.0f%% of %d games, want at least 20%%", n, 100*civ, games)
		}
	}
}

// TestTrustSurvivor: a player who survived a night attack was most
// likely the mafia's victim: a civilian bot does not vote for him even
// when two players already did, and the Nurse protects him.
func TestTrustSurvivor(t *testing.T) {
	tab := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya "+
		"roles=Mafioso,Mafioso,Nurse,Commissar,Civilian,Civilian,Civilian,Civilian,Civilian incidents=off\n"+
		"Anna hold no\nBoris hold no\nClara hold no\nDima hold no\nEgor hold no\nFedor hold no\nGalya hold no\nIgor hold no\nKatya hold no\n"+
		"Anna kill Egor\nBoris kill Egor\nClara save Egor\nDima check Fedor\n"+
		"expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya attacked=Egor:saved\n"+
		"Anna vote Egor\nBoris vote Egor\nClara vote abstain\nDima vote abstain\nEgor vote abstain\n")
	const egor, fedor, clara = 4, 5, 2
	for seed := range uint64(20) {
		m, ok := bot.New(fedor, seed).Move(tab.State, tab.Knowledge(fedor))
		if !ok || m.Kind != mafia.MoveVote || m.Args[0] == egor {
			t.Fatalf("seed %d: Fedor votes %v", seed, m)
		}
		nurse := bot.New(clara, seed)
		nurse.Move(tab.State, tab.Knowledge(clara)) // she sees the day
		if q := nurse.Night(tab.State, tab.Knowledge(clara), mafia.PowerSave, tab.State.Living()); q != egor {
			t.Fatalf("seed %d: the Nurse saves %d, want Egor", seed, q)
		}
	}
}

// scripted plays a script on a fake table seeded 1.
func scripted(t *testing.T, src string) *mafiatest.Table {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}
