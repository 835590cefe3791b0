package masquerade

import (
	"encoding"

	"github.com/masque-games/masque/engine"
)

// Apply implements [engine.State]: it returns the state after m and the
// effects the table must carry out, or a *[engine.RuleError]. The receiver
// is not modified.
func (s *State[O, E]) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	return Result(s.Play(m))
}

// Learn implements [engine.State]: it takes the facts of the pending
// reveal, in the order of the reveal's Slots.
func (s *State[O, E]) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	return Result(s.Know(facts))
}

// Play is [State.Apply] with a concrete result type.
func (s *State[O, E]) Play(m engine.Move) (*State[O, E], []engine.Effect, error) {
	if err := CheckMove(&s.core, m, rules{&s.board}); err != nil {
		return nil, nil, err
	}
	ns := s.clone()
	eff, err := PlayMove(&ns.core, m, rules{&ns.board})
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

// Know is [State.Learn] with a concrete result type.
func (s *State[O, E]) Know(facts []engine.Fact) (*State[O, E], []engine.Effect, error) {
	if err := CheckFacts(&s.core, facts, rules{&s.board}); err != nil {
		return nil, nil, err
	}
	ns := s.clone()
	TakeFacts(&ns.core, facts, rules{&ns.board})
	return ns, nil, nil
}

var _ engine.State = (*State[encoding.BinaryMarshaler, Of[encoding.BinaryMarshaler]])(nil)

// rules gives the core ([Rules]) what it asks of the edition: the seating,
// the slots and the powers.
type rules struct{ *board }

func (r rules) SeatAfter(p engine.Seat, k int) engine.Seat { return r.seatAfter(p, k) }

func (r rules) Owns(p engine.Seat, t engine.Slot) bool { return r.owns(p, t) }

func (r rules) Shared() bool { return r.core.Claimed == r.ed.Shared }

func (r rules) CardOf(p engine.Seat) engine.Slot { return r.slotOf(p, 0) }

func (r rules) Cards() *Catalogue { return r.ed.Cards }

func (r rules) PlayTurn(m engine.Move) ([]engine.Effect, error) { return r.playTurn(m) }

func (r rules) PlayUse(m engine.Move) ([]engine.Effect, error) { return r.playUse(m) }

// Power uses owner o's power as far as it goes without a choice (the
// edition's [Spec.Power]), and reports whether o must choose.
func (r rules) Power(o Contender) bool {
	choose := false
	switch r.ed.Choices[r.core.Claimed] {
	case 0:
	case ChoiceRichest:
		choose = len(r.Richest(o.Seat)) > 1
	default:
		choose = true
	}
	r.ed.Power(Work{r.board}, o, choose)
	return choose
}

// playTurn handles the turn player's action: swap, peek or claim.
func (t *board) playTurn(m engine.Move) ([]engine.Effect, error) {
	text := &t.ed.Text
	switch {
	case m.Kind != KindSwap && m.Kind != KindPeek && m.Kind != KindClaim:
		return nil, WrongMove(m, "the turn player "+text.TurnMoves)
	case m.Kind != KindSwap && t.core.Preparatory():
		return nil, RuleErr(m.Seat, RulePreparatory, "turn %d is preparatory: swap or pretend to", t.core.TurnNo)
	case t.core.RevealedPrev[m.Seat] && (m.Kind == KindClaim || t.ed.RevealedMustSwap && m.Kind != KindSwap):
		return nil, RuleErr(m.Seat, t.ed.RuleRevealed, "%s", text.Revealed)
	}
	switch m.Kind {
	case KindSwap:
		if err := ArgCount(m, 2); err != nil {
			return nil, err
		}
		own, to := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !t.owns(m.Seat, own) {
			return nil, RuleErr(m.Seat, RuleNotYourSlot, text.NotYours, m.Args[0])
		}
		if !t.swapTarget(m.Seat, to) && !t.ownPair(m.Seat, own, to) {
			return nil, RuleErr(m.Seat, RuleBadTarget, text.BadSwap, m.Args[1])
		}
		EndTurn(&t.core)
		return []engine.Effect{{Kind: engine.EffectSwap, By: m.Seat, Slots: []engine.Slot{own, to}}}, nil
	case KindPeek:
		if err := ArgCount(m, 1); err != nil {
			return nil, err
		}
		own := engine.Slot(m.Args[0])
		if !t.owns(m.Seat, own) {
			return nil, RuleErr(m.Seat, RuleNotYourSlot, text.NotYours, m.Args[0])
		}
		EndTurn(&t.core)
		return []engine.Effect{{Kind: engine.EffectPeek, By: m.Seat, Slots: []engine.Slot{own}}}, nil
	default: // KindClaim
		if err := ArgCount(m, 2); err != nil {
			return nil, err
		}
		c, own := engine.Card(m.Args[0]), engine.Slot(m.Args[1])
		if !t.ed.Cards.Valid(c) || !t.InPlay(c) {
			return nil, RuleErr(m.Seat, RuleNotInPlay, "%s is not in play", t.ed.Cards.Name(c))
		}
		if !t.claimable(m.Seat, own) {
			return nil, RuleErr(m.Seat, RuleNotYourSlot, text.BadClaim, m.Args[1])
		}
		OpenClaim(&t.core, c, Contender{Seat: m.Seat, Slot: own})
		return nil, nil
	}
}

// playUse applies an owner's choice for the power being resolved.
func (t *board) playUse(m engine.Move) ([]engine.Effect, error) {
	c := &t.core
	power := t.ed.Cards.Name(c.Claimed)
	if m.Kind != KindUse {
		return nil, WrongMove(m, "use the "+power)
	}
	u := c.User
	var eff []engine.Effect
	switch t.ed.Choices[c.Claimed] {
	case ChoiceRichest:
		if err := TakeFromRichest(c, m, t.ed.RichestTake, power, t.ed.RuleNotRichest); err != nil {
			return nil, err
		}
	case ChoicePurses:
		// The power "may" exchange purses: NoTarget keeps its own.
		if err := ExchangePurses(c, m, NoTarget, power); err != nil {
			return nil, err
		}
	case ChoiceFool:
		if err := ArgCount(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !t.foolPair(u.Seat, a, b) {
			return nil, RuleErr(m.Seat, RuleBadTarget, "%s", t.ed.Text.BadFool)
		}
		if t.ed.FoolTake > 0 {
			Transfer(&c.BankCoins, &c.Purse[u.Seat], t.ed.FoolTake)
		}
		eff = []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{a, b}}}
	case ChoiceSpy:
		return SpyLook(c, m, func(sl engine.Slot) bool { return t.spyTarget(u.Seat, sl) }, t.ed.Text.SpyWhat)
	case ChoiceQuestion:
		return nil, Question(c, m, power)
	case ChoiceSeat, ChoiceSeats:
		var err error
		if eff, err = t.ed.Use(Work{t}, m); err != nil {
			return nil, err
		}
	default:
		return nil, WrongMove(m, "this power needs no choice")
	}
	Continue(c, rules{t})
	return eff, nil
}
