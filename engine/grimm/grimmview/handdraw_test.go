package grimmview

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// TestUnmaskedOwnDrawShownDrawn: an unmasked seat's draw goes straight
// into its hidden hand (a private look, then its own shuffle); while it
// then gives a card of the hand, its view shows the item it drew in the
// drawn area, as everyone's draw is shown there, and no other seat's
// view does. Its draw was shown nowhere: the hand listed it among the
// others, unmarked. Played through the real stack (the seat's sightings
// are its table.Player's).
func TestUnmaskedOwnDrawShownDrawn(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}
	checked := 0
	for seed := uint64(1); seed <= 3 && checked < 3; seed++ {
		o := grimm.Options{Players: names}
		enc, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		lt, err := local.New(grimm.Game{}, names, table.Options{Game: enc})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]games.KnowingBot, len(names))
		for i := range bots {
			b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed)
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = b.(games.KnowingBot)
		}
		hand := func(p engine.Seat) map[engine.Card]int {
			st := lt.View().Rules().(*grimm.State)
			known := lt.Seats[p].Player.Known(lt.Seats[p].Replica)
			h := map[engine.Card]int{}
			for _, sl := range st.Hand(p) {
				h[known[sl]]++
			}
			return h
		}
		view := func(p engine.Seat) seatview.Table {
			me := lt.Seats[p]
			v, ok := seatview.Build(Viewer{}, seatview.Input{Rules: lt.View().Rules(), Seat: p, Names: names,
				Known: me.Player.Known(me.Replica), Memory: me.Player.Memory})
			if !ok {
				t.Fatal("no view")
			}
			return v
		}
		drawn := func(v seatview.Table) (string, bool) {
			for _, a := range v.Areas {
				if a.Name == "drawn" && len(a.Cards) == 1 && a.Cards[0].Face == seatview.KnownToYou {
					return a.Cards[0].Name, true
				}
			}
			return "", false
		}
		before := map[engine.Seat]map[engine.Card]int{}
		for moves := 0; moves < 5000 && checked < 3; moves++ {
			seat, kind, ok := lt.View().Expect()
			if !ok || kind != table.BodyMove {
				break
			}
			st := lt.View().Rules().(*grimm.State)
			if st.Step() == "hand" && st.Turn() == seat && before[seat] != nil {
				now := hand(seat)
				var got []engine.Card
				for c, n := range now {
					for range n - before[seat][c] {
						got = append(got, c)
					}
				}
				if len(got) == 1 {
					checked++
					if name, ok := drawn(view(seat)); !ok || name != grimm.DisplayName(got[0]) {
						t.Errorf("seed %d: %s drew %s into its hidden hand: its view's drawn area shows %q (%v)", seed, names[seat], grimm.DisplayName(got[0]), name, ok)
					}
					for q := range engine.Seat(len(names)) {
						if q != seat {
							if name, ok := drawn(view(q)); ok {
								t.Errorf("seed %d: %s's view shows %s's hidden draw %s", seed, names[q], names[seat], name)
							}
						}
					}
				}
			} else {
				for p := range engine.Seat(len(names)) {
					before[p] = hand(p)
				}
			}
			me := lt.Seats[seat]
			m, bits, ok := bots[seat].ChooseKnowing(st, me.Player.Known(me.Replica))
			if !ok {
				t.Fatalf("seat %d has no move", seat)
			}
			if err := lt.Move(seat, m, bits); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no unmasked seat drew into its hidden hand in the games played")
	}
}
