package toygame

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/seatview"
)

// viewer is what a toy table's seats see: each seat's card (face down,
// known to its holder once peeked, face up after the reveal), whose turn
// it is, and the two moves.
type viewer struct{}

func (viewer) Narrator(you engine.Seat) seatview.Narrator {
	return games.TellingNarrator(Game{}, you)
}

func (viewer) Auditor(open seatview.Opener) seatview.Auditor {
	return games.TellingAuditor(Game{}, open)
}

func (viewer) View(in seatview.Input) (seatview.Table, bool) {
	st, ok := in.Rules.(State)
	if !ok {
		return seatview.Table{}, false
	}
	g := Game{}
	t := seatview.Table{Game: g.Title(), You: int(in.Seat), Log: in.Log, Over: st.over, NoPass: true}
	need := st.Next()
	for i, n := range st.names {
		p := engine.Seat(i)
		sl := engine.Slot(i)
		c := seatview.Card{Face: seatview.FaceDown}
		if v, ok := st.Card(p); ok {
			c = seatview.Card{Name: g.CardName(v), Face: seatview.FaceUp}
		} else if v, ok := in.Opened[sl]; ok {
			c = seatview.Card{Name: g.CardName(v), Face: seatview.FaceUp}
		} else if v, ok := in.Known[sl]; ok && p == in.Seat {
			c = seatview.Card{Name: g.CardName(v), Face: seatview.KnownToYou, Note: "your card"}
		}
		t.Seats = append(t.Seats, seatview.Seat{Name: n, You: p == in.Seat,
			Turn: need.Kind == engine.NeedMove && need.Seat == p, Cards: []seatview.Card{c}})
	}
	if st.over {
		sum, _ := g.Summarize(st)
		w := st.Winner()
		t.Status = "game over: every card is revealed"
		t.Result = []string{sum.Ending()}
		t.Ending = sum.Ending()
		t.Won = w == in.Seat
		if in.Seat >= 0 {
			t.Outcome = "you lost"
			if t.Won {
				t.Outcome = "you won!"
			}
		}
		return t, true
	}
	t.Status = fmt.Sprintf("turn %d of %d", st.turn+1, st.total())
	if need.Kind == engine.NeedMove {
		t.Status += " · " + st.names[need.Seat] + "'s turn"
	}
	if in.MyTurn && need.Kind == engine.NeedMove && need.Seat == in.Seat {
		t.Question = &seatview.Question{Text: "your turn", Choices: []seatview.Choice{
			{Words: "peek at your card", Move: engine.Move{Seat: in.Seat, Kind: MovePeek}},
			{Words: "pass", Move: engine.Move{Seat: in.Seat, Kind: MovePass}},
		}}
	}
	return t, true
}
