package masqview

import (
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/seatview"
)

// The view says what a screen draws beside Mascarade's numbers (a coin on
// every seat's coins, the court and the bank) and how it labels a hidden
// swap's answers, so that no screen keys them on a name or a flag.
func TestMascaradeViewSaysIconsAndAnswers(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima"}
	lt, err := localplay.Run(mascarade.Game{}, []byte("game mascarade players=Anna,Boris,Sasha,Dima\n"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := seatview.Build(First(), seatview.Input{Rules: lt.View().Rules(), Seat: 0, MyTurn: true, Names: names})
	if !ok {
		t.Fatal("no view of a Mascarade state")
	}
	for _, st := range v.Seats {
		if len(st.Attrs) != 1 || st.Attrs[0].Name != "coins" || st.Attrs[0].Icon != seatview.IconCoin {
			t.Errorf("%s's attributes %+v: want the coins, with a coin", st.Name, st.Attrs)
		}
	}
	if len(v.Counters) != 2 {
		t.Fatalf("counters %+v: want the court and the bank", v.Counters)
	}
	for _, c := range v.Counters {
		if c.Icon != seatview.IconCoin {
			t.Errorf("counter %+v: want a coin", c)
		}
	}
	if v.Question == nil {
		t.Fatal("no question on Anna's first turn")
	}
	secret := 0
	for _, c := range v.Question.Choices {
		if !c.Secret {
			continue
		}
		secret++
		if c.Confirm == "" || c.Yes != "Yes, really" || c.No != "No, pretend" {
			t.Errorf("hidden swap %q: confirm %q, answers %q / %q", c.Words, c.Confirm, c.Yes, c.No)
		}
	}
	if secret == 0 {
		t.Error("no hidden swap offered on the first turn")
	}
}
