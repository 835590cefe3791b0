package view

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// The recognition night comes before day 1's first move: a seat asked
// for its night actions then is told it is night 1, not day 1, and is not
// shown the first day's "vote today?" count yet.
func TestMafiaRecognitionNightIsNight(t *testing.T) {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor"}}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := mafia.Game{}.New(enc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		night, tableNight bool
		when              string
		vote              bool
	}{{true, true, "night 1", false}, {false, false, "day 1", true}, {false, true, "night 1", false}} {
		// tableNight without night: the seat posted its own night
		// actions, the others have not yet (day 1's first move, seat 0's,
		// is not asked yet).
		tb, ok := Build(Input{Rules: s, Seat: 0, Names: o.Players, Night: tc.night, TableNight: tc.tableNight,
			MyTurn: tc.night || !tc.tableNight, Private: mafia.NewKnowledge(engine.Seat(0))})
		if !ok {
			t.Fatal("no view")
		}
		if tc.tableNight && !tc.night {
			if tb.Status != "night 1 · the city sleeps" || tb.Seats[0].Turn || tb.Waiting != "" || tb.Question != nil {
				t.Errorf("after its own night actions, the seat is shown %q (turn %v, waiting %q, question %v)",
					tb.Status, tb.Seats[0].Turn, tb.Waiting, tb.Question != nil)
			}
		}
		if !strings.HasPrefix(tb.Status, tc.when) {
			t.Errorf("night %v: status %q, want it to start with %q", tc.night, tb.Status, tc.when)
		}
		vote := false
		for _, n := range tb.Notices {
			vote = vote || n.Title == "Vote today?"
		}
		if vote != tc.vote {
			t.Errorf("night %v: the vote-today notice shown: %v", tc.night, vote)
		}
	}
}
