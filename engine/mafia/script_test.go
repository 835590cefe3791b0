package mafia_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

// run plays a script on the fake table.
func run(t *testing.T, src string) (*mafiatest.Table, error) {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	return tab, err
}

// five is a 5-player table: Anna the mafioso; each seat's first incident
// card, in seat order: Misfire, Alibi, Misfire, Ricochet left, Evidence
// left; the deck's next cards: Misfire, Alibi, ...
const five = "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft\n"

func TestScriptFirstDays(t *testing.T) {
	tab, err := run(t, five+`
expect knows=Anna:Mafioso mates=Anna:none holds=Anna:Misfire holds=Dima:RicochetLeft phase=hold turn=Anna day=1
Anna hold no
Boris hold yes
Clara hold yes
Dima hold no
Egor hold no
expect day=2 waiting=yes
Anna kill Clara
expect phase=night-answer turn=Clara attacked=Clara:open
Clara play Misfire
expect alive=Anna,Boris,Clara,Dima,Egor phase=vote day=2 hand=Clara:0 deck=16
`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(tab.Moves, "\n"), "Clara play Misfire") {
		t.Fatalf("moves: %v", tab.Moves)
	}
}

func TestScriptErrorNamesLinePlayerRule(t *testing.T) {
	_, err := run(t, five+`
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold no
Egor hold no
Anna vote Anna
`)
	var se *mafia.ScriptError
	if !errors.As(err, &se) || se.Line != 8 || !strings.Contains(err.Error(), "Anna") || !strings.Contains(err.Error(), mafia.RuleBadTarget) {
		t.Fatalf("err = %v", err)
	}
}

func TestExampleGame(t *testing.T) {
	src, err := os.ReadFile("testdata/game-5.txt")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := run(t, string(src))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := mafia.Game{}.Summarize(tab.State)
	j, _ := sum.MarshalJSON()
	if want := `{"over":true,"winners":["Boris","Clara","Dima","Egor"],"side":"civilians","alive":["Boris","Clara","Dima"],"day":3}`; string(j) != want {
		t.Fatalf("summary %s, want %s", j, want)
	}
	// Through the games contract: the same script parses, and its table
	// options carry the fixed deal.
	gs, err := mafia.Game{}.ParseScript(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	topts, err := gs.Table()
	if err != nil || !(mafia.Game{}).FixedDeal(topts.Game) || len(gs.Seats()) != 5 {
		t.Fatalf("table options %v, %v", topts, err)
	}
}
