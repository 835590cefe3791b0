package masqview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
)

// followLog plays script and returns the public log a follower writes.
func followLog(t *testing.T, script string) string {
	t.Helper()
	lt, err := localplay.Run(mascarade2.Game{}, []byte(script), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	tab, err := table.New(tr.Roster, mascarade2.Game{})
	if err != nil {
		t.Fatal(err)
	}
	f := Second().Follower()
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

// A claim whose power ends the game (the Judge reaches 13 with the
// courthouse) drops the fines still due (rule 19, "what a power or the
// turn had not yet done is dropped"): the log says so, instead of leaving
// the failed challenger wondering where the fine went.
func TestFinesDroppedWhenPowerEnds(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler coins=11
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim King
Boris pass
Sasha challenge
Dima challenge
Boris peek
Sasha claim Judge
Dima pass
Anna challenge
`)
	for _, want := range []string{
		"  coins: Sasha 10→13, court 3→0",
		"  no fine: the game ended before Anna paid (the claim's power ended it)",
		"game over after 7 turns: Sasha won",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// Fines paid before the end are told by the coins as before, with no
// "no fine" line.
func TestFinesPaidNoDroppedLine(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler coins=10
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim King
Boris challenge
Sasha challenge
`)
	if strings.Contains(log, "no fine") {
		t.Errorf("a 'no fine' line where the fines were paid:\n%s", log)
	}
	if !strings.Contains(log, "court 0→2") {
		t.Errorf("the fines are not in the log:\n%s", log)
	}
}

// The last player to answer a claim is among the impostors whose fine
// the end dropped when they challenged too (the log named the others
// only: in a played game, "before Alex, Sasha and Dima paid" left out
// Fedya, the last to challenge).
func TestFinesDroppedNamesTheLastChallenger(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler coins=11
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim King
Boris pass
Sasha challenge
Dima challenge
Boris peek
Sasha claim Judge
Dima pass
Anna challenge
Boris challenge
`)
	want := "  no fine: the game ended before Anna and Boris paid (the claim's power ended it)"
	if !strings.Contains(log, want) {
		t.Errorf("log lacks %q:\n%s", want, log)
	}
}

// A power that empties a purse ends the game before the fines too: the
// log says so (a played game's "coins: Jo 1→0, bot1 9→11, bot2 9→8"
// read as bot2's fine, where bot2 lost a coin to the Thief and neither
// impostor paid).
func TestFinesDroppedWhenPowerEmptiesAPurse(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler coins=1
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Thief
Boris challenge
Sasha pass
Dima challenge
`)
	for _, want := range []string{
		"  no fine: the game ended before Anna and Boris paid (the claim's power ended it)",
		"game over after 5 turns: Dima won",
		"every player has 1 coin\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// A fine that empties a purse ends the game after the fines were paid:
// no "no fine" line.
func TestFineEmptiesAPurseNoDroppedLine(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Thief,Spy,Swindler coins=1
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim King
Boris challenge
`)
	if strings.Contains(log, "no fine") || !strings.Contains(log, "court 0→1") {
		t.Errorf("the fine was paid:\n%s", log)
	}
}

// The Cheater's win at 10 coins ends the game before the fines too.
func TestFinesDroppedWhenCheaterWins(t *testing.T) {
	log := followLog(t, `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,King,Judge,Cheater,Spy,Swindler coins=10
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Cheater
Boris challenge
Sasha pass
Dima challenge
`)
	for _, want := range []string{
		"  no fine: the game ended before Anna and Boris paid (the claim's power ended it)",
		"game over after 5 turns: Dima won",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}
