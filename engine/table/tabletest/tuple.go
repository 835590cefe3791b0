package tabletest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
)

// TupleGame is EffectsGame with tuple cards (engine.Tupler) and seats that
// retire, for testing the table's tuples, component views and published
// keys. Card kind k < 8 is the tuple (k, 8 + k%2, 10): the card, a "team"
// and a neutral value; kinds 8..10 are components only. The opening peeks
// components 0 and 1 of each seat's own card only. Its moves are
// EffectsGame's and TupleRetire and TupleRevealFirst.
type TupleGame struct{ EffectsGame }

// TupleGame's own move kinds.
const (
	TupleRetire      uint8 = 100 + iota // [seat]: seat publishes its key and plays no more
	TupleRevealFirst                    // [slot...]: component 0 of each slot is revealed
	TuplePeekLast                       // [slot]: the mover peeks at component 2 only
	TupleRevealComp                     // [slot, comp]: component comp of slot is revealed
	TuplePeekSecret                     // [slot]: the mover peeks at component 3 only (the group secret in odd kinds)
)

// Name returns "tuple-test".
func (TupleGame) Name() string { return "tuple-test" }

// Kinds is 11: eight cards and three component values.
func (TupleGame) Kinds() int { return 11 }

// New starts the game.
func (g TupleGame) New(options []byte, deal []engine.Card) (engine.State, error) {
	s, err := g.EffectsGame.New(options, deal)
	if err != nil {
		return nil, err
	}
	return &TupleState{EffectsState: *s.(*EffectsState)}, nil
}

// TupleState is TupleGame's state.
type TupleState struct {
	EffectsState
	// Retired are the seats that retired, in order.
	Retired []engine.Seat
}

// Tuple lays card kind c out as (c, 8 + c%2, 10, S or 10): the fourth
// component of an odd kind is the table's group secret; kinds 8..10 are
// components only.
func (s *TupleState) Tuple(c engine.Card) []engine.Component {
	if c < 0 || c >= EffectsSlots {
		return nil
	}
	last := engine.Component{Kind: 10}
	if c%2 == 1 {
		last = engine.Component{GroupSecret: true}
	}
	return []engine.Component{{Kind: c}, {Kind: 8 + c%2}, {Kind: 10}, last}
}

// Opening is EffectsGame's, with each seat's peek of components 0 and 1.
func (s *TupleState) Opening() []engine.Effect {
	effs := s.EffectsState.Opening()
	for i := range effs {
		if effs[i].Kind == engine.EffectPeek {
			effs[i].Comps = []int{0, 1}
		}
	}
	return effs
}

// Next skips retired seats' turns.
func (s *TupleState) Next() engine.Need { return s.EffectsState.Next() }

// Apply plays a move; the turn skips retired seats.
func (s *TupleState) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	if slices.Contains(s.Retired, m.Seat) {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "retired", Msg: fmt.Sprintf("seat %d has retired", m.Seat)}
	}
	ns := &TupleState{Retired: slices.Clone(s.Retired)}
	var effs []engine.Effect
	switch m.Kind {
	case TupleRetire, TupleRevealFirst, TuplePeekLast, TupleRevealComp, TuplePeekSecret:
		if need := s.Next(); need.Kind != engine.NeedMove || need.Seat != m.Seat {
			return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "not-your-turn", Msg: "not your turn"}
		}
		ns.EffectsState = s.EffectsState
		ns.Facts = slices.Clone(s.Facts)
		bad := func() (engine.State, []engine.Effect, error) {
			return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "bad-args", Msg: fmt.Sprintf("arguments %v", m.Args)}
		}
		var slots []engine.Slot
		args := m.Args
		if m.Kind == TupleRevealComp {
			if len(args) != 2 {
				return bad()
			}
			args = args[:1]
		}
		for _, a := range args {
			if a < 0 || a >= EffectsSlots {
				return bad()
			}
			slots = append(slots, engine.Slot(a))
		}
		switch m.Kind {
		case TupleRetire:
			if len(m.Args) != 1 || m.Args[0] >= s.Seats || slices.Contains(s.Retired, engine.Seat(m.Args[0])) {
				return bad()
			}
			ns.Retired = append(ns.Retired, engine.Seat(m.Args[0]))
			effs = []engine.Effect{{Kind: engine.EffectRetire, By: engine.Seat(m.Args[0])}}
		case TupleRevealFirst:
			if len(slots) == 0 {
				return bad()
			}
			ns.waiting++
			effs = []engine.Effect{{Kind: engine.EffectReveal, Slots: slots, Comps: []int{0}}}
		case TuplePeekLast, TuplePeekSecret:
			if len(slots) != 1 {
				return bad()
			}
			comp := 2
			if m.Kind == TuplePeekSecret {
				comp = 3
			}
			effs = []engine.Effect{{Kind: engine.EffectPeek, By: m.Seat, Slots: slots, Comps: []int{comp}}}
		case TupleRevealComp:
			ns.waiting++
			effs = []engine.Effect{{Kind: engine.EffectReveal, Slots: slots, Comps: []int{m.Args[1]}}}
		}
		ns.Moves++
		ns.Turn = engine.Seat((int(s.Turn) + 1) % s.Seats)
	default:
		st, e, err := s.EffectsState.Apply(m)
		if err != nil {
			return nil, nil, err
		}
		ns.EffectsState, effs = *st.(*EffectsState), e
		// Shuffles by every seat are by the seats still playing.
		for i := range effs {
			if effs[i].Kind == engine.EffectShuffle && len(effs[i].Seats) > 0 {
				effs[i].Seats = slices.DeleteFunc(effs[i].Seats, func(x engine.Seat) bool { return slices.Contains(s.Retired, x) })
				if len(effs[i].Seats) == 0 {
					return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "bad-args", Msg: "a shuffle by retired seats only"}
				}
			}
		}
	}
	for slices.Contains(ns.Retired, ns.Turn) && len(ns.Retired) < s.Seats {
		ns.Turn = engine.Seat((int(ns.Turn) + 1) % s.Seats)
	}
	return ns, effs, nil
}

// Learn records facts.
func (s *TupleState) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	st, effs, err := s.EffectsState.Learn(facts)
	if err != nil {
		return nil, nil, err
	}
	ns := &TupleState{EffectsState: *st.(*EffectsState), Retired: slices.Clone(s.Retired)}
	for slices.Contains(ns.Retired, ns.Turn) && len(ns.Retired) < s.Seats {
		ns.Turn = engine.Seat((int(ns.Turn) + 1) % s.Seats)
	}
	return ns, effs, nil
}

// AppendBinary encodes the state.
func (s *TupleState) AppendBinary(b []byte) ([]byte, error) {
	if len(s.Retired) > 255 {
		return nil, errors.New("tuple-test: too many retired seats")
	}
	b, err := s.EffectsState.AppendBinary(b)
	if err != nil {
		return nil, err
	}
	b = append(b, byte(len(s.Retired)))
	for _, r := range s.Retired {
		b = append(b, byte(r))
	}
	return b, nil
}
