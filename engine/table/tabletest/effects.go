package tabletest

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine"
)

// EffectsGame is a minimal game that uses every effect the table carries
// out, for testing the table itself. Its options are one byte: the number
// of seats, 1..8. The deck is the 8 kinds 0..7, one per slot; slot i < n
// is seat i's card, the others are a common pile.
//
// The game opens ([table.Opener]) with a set of every slot (kind 7 − i in
// slot i), a shuffle of all 8 slots by every seat, a peek by each seat at
// its own slot and a coin that picks the first seat (the coin's first
// byte modulo n). Then seats move in turn, each move one of the Effects*
// kinds; a coin or a reveal makes the rules wait for its facts, which are
// recorded in order.
type EffectsGame struct{}

// The move kinds of EffectsGame (arguments in brackets).
const (
	EffectsOneOf        uint8 = iota + 1 // [slot, k...]: "the card in slot is one of k..."
	EffectsNoneOf                        // [slot, k...]: "the card in slot is none of k..."
	EffectsMix                           // [mask, slot...]: the seats of mask (every seat if 0) shuffle the slots
	EffectsCoin                          // []: a joint coin
	EffectsSwap                          // [a, b]: a hidden swap of slots a and b by the mover
	EffectsPeek                          // [slot]: the mover peeks at slot
	EffectsReveal                        // [slot...]: the slots are revealed
	EffectsSet                           // [slot, k]: slot takes the face-up card k
	EffectsEnd                           // []: the game is over
	EffectsSwapThenNone                  // [a, b, slot, k]: a swap of a and b, then "slot is not k"
	EffectsNoneThenSwap                  // [slot, k, a, b]: "slot is not k", then a swap of a and b
	EffectsTwoNones                      // [slot, k1, k2]: two statements, "not k1" and "not k2"
)

// EffectsSlots is the number of slots (and kinds) of EffectsGame.
const EffectsSlots = 8

// Name returns "effects-test".
func (EffectsGame) Name() string { return "effects-test" }

// Kinds is 8.
func (EffectsGame) Kinds() int { return EffectsSlots }

// Opens is true: the game starts with its opening effects.
func (EffectsGame) Opens() bool { return true }

// Deck is the kinds 0..7.
func (EffectsGame) Deck(options []byte) ([]engine.Card, error) {
	if len(options) != 1 || options[0] < 1 || options[0] > EffectsSlots {
		return nil, errors.New("effects-test: options are one byte, 1..8 seats")
	}
	var d []engine.Card
	for i := range EffectsSlots {
		d = append(d, engine.Card(i))
	}
	return d, nil
}

// New starts the game.
func (g EffectsGame) New(options []byte, deal []engine.Card) (engine.State, error) {
	if _, err := g.Deck(options); err != nil {
		return nil, err
	}
	return &EffectsState{Seats: int(options[0]), waiting: 1}, nil
}

// EffectsState is EffectsGame's state.
type EffectsState struct {
	Seats int
	Turn  engine.Seat
	Over  bool
	Moves int
	// Facts are the established facts, in order: coins (Slot −1) and
	// revealed cards.
	Facts   []engine.Fact
	waiting int // facts awaited (coins and reveals)
}

// Opening is the game's first effects.
func (s *EffectsState) Opening() []engine.Effect {
	all := make([]engine.Slot, EffectsSlots)
	cards := make([]engine.Card, EffectsSlots)
	for i := range all {
		all[i], cards[i] = engine.Slot(i), engine.Card(EffectsSlots-1-i)
	}
	effs := []engine.Effect{{Kind: engine.EffectSet, Slots: all, Cards: cards}, {Kind: engine.EffectShuffle, Slots: all}}
	for i := range s.Seats {
		effs = append(effs, engine.Effect{Kind: engine.EffectPeek, By: engine.Seat(i), Slots: []engine.Slot{engine.Slot(i)}})
	}
	return append(effs, engine.Effect{Kind: engine.EffectCoin})
}

// Next says what the rules wait for.
func (s *EffectsState) Next() engine.Need {
	switch {
	case s.waiting > 0:
		return engine.Need{Kind: engine.NeedFacts}
	case s.Over:
		return engine.Need{Kind: engine.NeedNothing}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: s.Turn}
}

// Apply plays a move.
func (s *EffectsState) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	fail := func(rule, format string, a ...any) (engine.State, []engine.Effect, error) {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: rule, Msg: fmt.Sprintf(format, a...)}
	}
	if need := s.Next(); need.Kind != engine.NeedMove || need.Seat != m.Seat {
		return fail("not-your-turn", "not seat %d's turn", m.Seat)
	}
	slots := func(args []int) ([]engine.Slot, bool) {
		var out []engine.Slot
		for _, a := range args {
			if a < 0 || a >= EffectsSlots {
				return nil, false
			}
			out = append(out, engine.Slot(a))
		}
		return out, true
	}
	cards := func(args []int) ([]engine.Card, bool) {
		var out []engine.Card
		for _, a := range args {
			if a < 0 || a >= EffectsSlots {
				return nil, false
			}
			out = append(out, engine.Card(a))
		}
		return out, len(out) > 0
	}
	prove := func(slot int, not bool, ks []int) (engine.Effect, bool) {
		sl, ok1 := slots([]int{slot})
		cs, ok2 := cards(ks)
		return engine.Effect{Kind: engine.EffectProve, By: m.Seat, Slots: sl, Cards: cs, Not: not}, ok1 && ok2
	}
	swap := func(a, b int) (engine.Effect, bool) {
		sl, ok := slots([]int{a, b})
		return engine.Effect{Kind: engine.EffectSwap, By: m.Seat, Slots: sl}, ok && a != b
	}
	ns := *s
	ns.Facts = append([]engine.Fact(nil), s.Facts...)
	var effs []engine.Effect
	ok := true
	a := m.Args
	switch {
	case (m.Kind == EffectsOneOf || m.Kind == EffectsNoneOf) && len(a) >= 2:
		var e engine.Effect
		e, ok = prove(a[0], m.Kind == EffectsNoneOf, a[1:])
		effs = append(effs, e)
	case m.Kind == EffectsMix && len(a) >= 2:
		if a[0] < 0 || a[0] >= 1<<s.Seats {
			return fail("bad-args", "mask %d", a[0])
		}
		var seats []engine.Seat
		for i := range s.Seats {
			if a[0]&(1<<i) != 0 {
				seats = append(seats, engine.Seat(i))
			}
		}
		var sl []engine.Slot
		sl, ok = slots(a[1:])
		effs = append(effs, engine.Effect{Kind: engine.EffectShuffle, Slots: sl, Seats: seats})
	case m.Kind == EffectsCoin && len(a) == 0:
		ns.waiting++
		effs = append(effs, engine.Effect{Kind: engine.EffectCoin})
	case m.Kind == EffectsSwap && len(a) == 2:
		var e engine.Effect
		e, ok = swap(a[0], a[1])
		effs = append(effs, e)
	case m.Kind == EffectsPeek && len(a) == 1:
		var sl []engine.Slot
		sl, ok = slots(a)
		effs = append(effs, engine.Effect{Kind: engine.EffectPeek, By: m.Seat, Slots: sl})
	case m.Kind == EffectsReveal && len(a) >= 1:
		var sl []engine.Slot
		sl, ok = slots(a)
		ns.waiting++
		effs = append(effs, engine.Effect{Kind: engine.EffectReveal, Slots: sl})
	case m.Kind == EffectsSet && len(a) == 2:
		sl, ok1 := slots(a[:1])
		cs, ok2 := cards(a[1:])
		ok = ok1 && ok2
		effs = append(effs, engine.Effect{Kind: engine.EffectSet, Slots: sl, Cards: cs})
	case m.Kind == EffectsEnd && len(a) == 0:
		ns.Over = true
	case m.Kind == EffectsSwapThenNone && len(a) == 4:
		e1, ok1 := swap(a[0], a[1])
		e2, ok2 := prove(a[2], true, a[3:])
		ok = ok1 && ok2
		effs = append(effs, e1, e2)
	case m.Kind == EffectsNoneThenSwap && len(a) == 4:
		e1, ok1 := prove(a[0], true, a[1:2])
		e2, ok2 := swap(a[2], a[3])
		ok = ok1 && ok2
		effs = append(effs, e1, e2)
	case m.Kind == EffectsTwoNones && len(a) == 3:
		e1, ok1 := prove(a[0], true, a[1:2])
		e2, ok2 := prove(a[0], true, a[2:3])
		ok = ok1 && ok2
		effs = append(effs, e1, e2)
	default:
		return fail("bad-move", "move kind %d with %d arguments", m.Kind, len(a))
	}
	if !ok {
		return fail("bad-args", "arguments %v", a)
	}
	ns.Moves++
	ns.Turn = engine.Seat((int(s.Turn) + 1) % s.Seats)
	return &ns, effs, nil
}

// Learn records facts: the opening's coin picks the first seat.
func (s *EffectsState) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	if s.waiting == 0 || len(facts) == 0 {
		return nil, nil, errors.New("effects-test: unexpected facts")
	}
	ns := *s
	ns.Facts = append(append([]engine.Fact(nil), s.Facts...), facts...)
	ns.waiting--
	if s.Moves == 0 && len(s.Facts) == 0 {
		if facts[0].Slot != -1 {
			return nil, nil, errors.New("effects-test: the opening waits for a coin")
		}
		ns.Turn = engine.Seat(int(facts[0].Coin[0]) % s.Seats)
	}
	return &ns, nil, nil
}

// AppendBinary encodes the state.
func (s *EffectsState) AppendBinary(b []byte) ([]byte, error) {
	over := byte(0)
	if s.Over {
		over = 1
	}
	b = append(b, byte(s.Seats), byte(s.Turn), over, byte(s.waiting))
	b = binary.BigEndian.AppendUint32(b, uint32(s.Moves))
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.Facts)))
	for _, f := range s.Facts {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(f.Slot)))
		b = append(b, byte(f.Card))
		b = append(b, f.Coin[:]...)
	}
	return b, nil
}
