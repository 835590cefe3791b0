package masqview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// A round of passes in one challenge window is one line of Lines (a claim
// among 13 players used to add 12 "pass" lines to the screen's log); the
// events still carry one line per move (replays, narration streams).
func TestPassesFold(t *testing.T) {
	lt, err := localplay.Run(mascarade.Game{}, []byte(`game mascarade players=Anna,Boris,Sasha,Dima,Egor deal=Queen,Thief,King,Judge,Bishop,Witch
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Egor no
Egor swap Anna no
Anna claim King
Boris pass
Sasha pass
Dima pass
Egor pass
Boris claim Judge
Sasha pass
Dima challenge
`), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	tab, err := table.New(tr.Roster, mascarade.Game{})
	if err != nil {
		t.Fatal(err)
	}
	f := First().Follower()
	f.Start(tab) // a fixed deal: dealt before the first entry
	events := 0
	for _, e := range tr.Entries {
		if err := tab.Apply(e); err != nil {
			t.Fatal(err)
		}
		ev, err := f.Follow(tab, e)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ev.Lines {
			if strings.HasSuffix(l, " passes") {
				events++
			}
		}
	}
	log := strings.Join(f.Lines, "\n")
	for _, want := range []string{"turn 6  passed: Boris, Sasha, Dima, Egor\n  coins: Anna 6→9", "turn 7  Sasha passes\n", "turn 7  passed: Egor, Anna\n  revealed:"} {
		if !strings.Contains(log+"\n", want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "turn 6  Boris passes") {
		t.Errorf("the passes are not folded:\n%s", log)
	}
	if events != 7 {
		t.Errorf("%d pass lines in the events, want one per pass (7)", events)
	}
}
