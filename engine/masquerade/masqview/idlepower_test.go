package masqview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
)

// game is what a follower test plays: the rules and the table's game.
type game interface {
	games.Rules
	table.Game
}

// followGame plays script in game g and returns the public log a follower
// made by v writes, spoken to seat you (-1: to nobody).
func followGame(t *testing.T, g game, v Viewer, you engine.Seat, script string) string {
	t.Helper()
	lt, err := localplay.Run(g, []byte(script), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	tab, err := table.New(tr.Roster, g)
	if err != nil {
		t.Fatal(err)
	}
	f := v.Follower()
	if you >= 0 {
		f.SpeakTo(you)
	}
	f.Start(tab)
	for _, e := range tr.Entries {
		if err := tab.Apply(e); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Follow(tab, e); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(f.Lines, "\n")
}

// A claim whose power moves no coin (the Cheat short of 10 coins, the
// Judge before an empty courthouse, the Beggar with nobody richer, the
// Widow already at 10) used to end with the passes and nothing else: a
// first-time player could not tell whether the power was used at all.
// The log now says what the power found.
func TestIdlePowerSaysWhy(t *testing.T) {
	const prep1 = "Anna swap Boris no\nBoris swap centre1 no\nSasha swap Dima no\nDima swap Anna no\n"
	for _, tc := range []struct {
		name   string
		game   game
		v      Viewer
		you    engine.Seat
		script string
		want   []string
	}{
		{"cheat-short", mascarade.Game{}, First(), -1,
			"game mascarade players=Anna,Boris,Sasha,Dima deal=Cheat,Thief,King,Judge,Bishop,Queen\n" + prep1 +
				"Anna claim Cheat\nBoris pass\nSasha pass\nDima pass\n",
			[]string{"  the Cheat's power: Anna had only 6 coins and did not win (the Cheat wins with 10 or more)"}},
		{"cheat-short-you", mascarade.Game{}, First(), 0,
			"game mascarade players=Anna,Boris,Sasha,Dima deal=Cheat,Thief,King,Judge,Bishop,Queen\n" + prep1 +
				"Anna claim Cheat\nBoris pass\nSasha pass\nDima pass\n",
			[]string{"  the Cheat's power: you had only 6 coins and did not win (the Cheat wins with 10 or more)"}},
		{"judge-empty-court", mascarade.Game{}, First(), -1,
			"game mascarade players=Anna,Boris,Sasha,Dima deal=Cheat,Thief,King,Judge,Bishop,Queen\n" + prep1 +
				"Anna claim Judge\nBoris pass\nSasha pass\nDima pass\n",
			[]string{"  the Judge's power: the courthouse was empty, Anna took nothing"}},
		{"judge-challenged-empty-court", mascarade2.Game{}, Second(), -1,
			"game mascarade2 players=Anna,Boris,Sasha,Dima deal=Judge,King,Empress,Thief,Spy,Swindler\n" +
				"Anna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\n" +
				"Anna claim Judge\nBoris challenge\nSasha pass\nDima pass\n",
			[]string{"  the Judge's power comes before the fines: the courthouse was empty, Anna took nothing\n  coins: Boris 6→5, court 0→1"}},
		{"beggar-nobody-richer", mascarade2.Game{}, Second(), -1,
			"game mascarade2 players=Anna,Boris,Sasha,Dima,Egor deal=Beggar,King,Empress,Judge,Widow,Cheater,Sorceress\n" +
				"Anna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\nEgor peek\n" +
				"Anna claim Beggar\nBoris pass\nSasha pass\nDima pass\nEgor pass\n",
			[]string{"  the Beggar's power: nobody was richer than Anna, who got no coin"}},
		{"widow-rich", mascarade2.Game{}, Second(), -1,
			"game mascarade2 players=Anna,Boris,Sasha,Dima,Egor deal=Widow,King,Empress,Judge,Sorceress,Cheater,Beggar coins=11\n" +
				"Anna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\nEgor peek\n" +
				"Anna claim Widow\nBoris pass\nSasha pass\nDima pass\nEgor pass\n",
			[]string{"  the Widow's power: Anna already had 11 coins, 10 or more, and took nothing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := followGame(t, tc.game, tc.v, tc.you, tc.script)
			for _, want := range tc.want {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
		})
	}
}

// A power that moved coins says nothing more than the coins.
func TestBusyPowerNoIdleLine(t *testing.T) {
	log := followGame(t, mascarade.Game{}, First(), -1,
		"game mascarade players=Anna,Boris,Sasha,Dima deal=Cheat,Thief,King,Judge,Bishop,Queen\n"+
			"Anna swap Boris no\nBoris swap centre1 no\nSasha swap Dima no\nDima swap Anna no\n"+
			"Anna claim King\nBoris pass\nSasha pass\nDima pass\n")
	if strings.Contains(log, "power:") {
		t.Errorf("an idle-power line after a power that paid:\n%s", log)
	}
	if !strings.Contains(log, "coins: Anna 6→9") {
		t.Errorf("log lacks the King's coins:\n%s", log)
	}
}

// When every contender was an impostor nobody used the power: no line
// about it, only the fines.
func TestImpostorsNoIdleLine(t *testing.T) {
	log := followGame(t, mascarade2.Game{}, Second(), -1,
		"game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler\n"+
			"Anna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\n"+
			"Anna claim Judge\nBoris challenge\nSasha pass\nDima pass\n")
	if strings.Contains(log, "power") {
		t.Errorf("an idle-power line when nobody owned the Judge:\n%s", log)
	}
	if !strings.Contains(log, "coins: Anna 6→5, Boris 6→5, court 0→2") {
		t.Errorf("log lacks the fines:\n%s", log)
	}
}
