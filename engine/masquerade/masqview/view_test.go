package masqview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/seatview"
)

// A Mascarade seat's view never names a card in front of a player or in
// the centre while the game goes on; once every seat has published its
// card key at the end, every such card is face up and named, as the keys
// open it.
func TestMascaradeCardsOpenOnlyWithThePublishedKeys(t *testing.T) {
	src := "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=1\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim Widow\nBoris challenge\n"
	for _, tc := range []struct {
		name    string
		publish bool
	}{{"keys kept", false}, {"keys published", true}} {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := localplay.Run(mascarade.Game{}, []byte(src), nil, tc.publish)
			if err != nil {
				t.Fatal(err)
			}
			tab := lt.View()
			s, _ := rulesOf(tab.Rules())
			if !s.Over() {
				t.Fatal("the script should end the game")
			}
			opened := tab.Opened()
			if (opened != nil) != tc.publish {
				t.Fatalf("opened %v with keys published %v", opened, tc.publish)
			}
			v, ok := seatview.Build(First(), seatview.Input{Rules: tab.Rules(), Seat: 1, Opened: opened, Names: []string{"Anna", "Boris", "Sasha", "Dima"}})
			if !ok {
				t.Fatal("no view of a Mascarade state")
			}
			for i, st := range v.Seats {
				p := s.Seating()[i]
				for k, c := range st.Cards {
					slot := s.SlotsOf(p)[k]
					switch {
					case tc.publish && (c.Face != seatview.FaceUp || c.Name != s.CardName(opened[slot])):
						t.Errorf("%s's card %+v, want the %s face up", st.Name, c, s.CardName(opened[slot]))
					case !tc.publish && (c.Face != seatview.FaceDown || c.Name != ""):
						t.Errorf("%s's card %+v, want face down", st.Name, c)
					}
				}
			}
			var centre *seatview.Area
			for i := range v.Areas {
				if v.Areas[i].Name == "centre" {
					centre = &v.Areas[i]
				}
			}
			if centre == nil || len(centre.Cards) != len(s.CenterSlots()) {
				t.Fatalf("centre %+v", centre)
			}
			for k, c := range centre.Cards {
				want := ""
				if tc.publish {
					want = s.CardName(opened[s.CenterSlots()[k]])
				}
				if c.Name != want {
					t.Errorf("centre card %d: %+v, want %q", k, c, want)
				}
			}
			if got := strings.Contains(centre.Words, "face down"); got == tc.publish {
				t.Errorf("centre in words: %q", centre.Words)
			}
			if want := fmt.Sprintf("you lost, with %d %s", s.Coins(1), map[bool]string{true: "coin", false: "coins"}[s.Coins(1) == 1]); v.Outcome != want || v.Won {
				t.Errorf("Boris's outcome: %q (won %v), want %q", v.Outcome, v.Won, want)
			}
		})
	}
}

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
