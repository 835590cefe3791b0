package tabletest

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine"
)

// HiddenGame is a minimal game dealt face down, for testing the table's
// hidden deal (every seat shuffles the deck with a proof): each seat in
// turn peeks at its own card (move kind 1, no arguments), then seat 0
// reveals every card (move kind 2) and the game is over. Its options are
// one byte: the number of seats.
type HiddenGame struct{}

// Name returns "hidden-test".
func (HiddenGame) Name() string { return "hidden-test" }

// Kinds is 1 + the most seats.
func (HiddenGame) Kinds() int { return 17 }

// HiddenDeal is true: the deck is shuffled by every seat.
func (HiddenGame) HiddenDeal() bool { return true }

// Deck is one card per seat, kinds 1..n.
func (HiddenGame) Deck(options []byte) ([]engine.Card, error) {
	if len(options) != 1 || options[0] < 1 || options[0] > 16 {
		return nil, errors.New("hidden-test: options are one byte, 1..16 seats")
	}
	var d []engine.Card
	for i := range int(options[0]) {
		d = append(d, engine.Card(i+1))
	}
	return d, nil
}

// New starts the game; a hidden deal gives no cards.
func (g HiddenGame) New(options []byte, deal []engine.Card) (engine.State, error) {
	if deal != nil {
		return nil, errors.New("hidden-test: the deal must stay hidden")
	}
	if _, err := g.Deck(options); err != nil {
		return nil, err
	}
	return &HiddenState{Seats: int(options[0])}, nil
}

// The move kinds of HiddenGame.
const (
	HiddenPeek   uint8 = 1
	HiddenReveal uint8 = 2
)

// HiddenState is HiddenGame's state.
type HiddenState struct {
	Seats    int
	Peeked   int           // seats that have peeked
	Revealed []engine.Card // after the reveal, the card of each slot
	waiting  bool
}

// Next says who moves.
func (s *HiddenState) Next() engine.Need {
	switch {
	case s.waiting:
		return engine.Need{Kind: engine.NeedFacts}
	case s.Revealed != nil:
		return engine.Need{Kind: engine.NeedNothing}
	case s.Peeked < s.Seats:
		return engine.Need{Kind: engine.NeedMove, Seat: engine.Seat(s.Peeked)}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: 0}
}

// Apply plays a peek or the final reveal.
func (s *HiddenState) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	need := s.Next()
	if need.Kind != engine.NeedMove || need.Seat != m.Seat {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "not-your-turn", Msg: "not your turn"}
	}
	if len(m.Args) != 0 {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "bad-args", Msg: "no arguments"}
	}
	ns := *s
	switch {
	case m.Kind == HiddenPeek && s.Peeked < s.Seats:
		ns.Peeked++
		return &ns, []engine.Effect{{Kind: engine.EffectPeek, By: m.Seat, Slots: []engine.Slot{engine.Slot(m.Seat)}}}, nil
	case m.Kind == HiddenReveal && s.Peeked == s.Seats:
		ns.waiting = true
		var all []engine.Slot
		for i := range s.Seats {
			all = append(all, engine.Slot(i))
		}
		return &ns, []engine.Effect{{Kind: engine.EffectReveal, Slots: all}}, nil
	}
	return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "wrong-move", Msg: fmt.Sprintf("move kind %d now", m.Kind)}
}

// Learn takes the revealed cards.
func (s *HiddenState) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	if !s.waiting || len(facts) != s.Seats {
		return nil, nil, errors.New("hidden-test: unexpected facts")
	}
	ns := *s
	ns.waiting = false
	ns.Revealed = make([]engine.Card, s.Seats)
	for _, f := range facts {
		ns.Revealed[f.Slot] = f.Card
	}
	return &ns, nil, nil
}

// AppendBinary encodes the state.
func (s *HiddenState) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, byte(s.Seats), byte(s.Peeked), byte(len(s.Revealed)))
	for _, c := range s.Revealed {
		b = append(b, byte(c))
	}
	if s.waiting {
		b = append(b, 1)
	}
	return b, nil
}
