package mascarade

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Apply implements [engine.State]: it returns the state after m and the
// effects the table must carry out, or a *[engine.RuleError]. The receiver
// is not modified.
func (s *State) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	return masquerade.Result(s.Play(m))
}

// Learn implements [engine.State]: it takes the facts of the pending
// reveal, in the order of the reveal's Slots.
func (s *State) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	return masquerade.Result(s.Know(facts))
}

// Play is [State.Apply] with a concrete result type.
func (s *State) Play(m engine.Move) (*State, []engine.Effect, error) {
	if err := masquerade.CheckMove(&s.core, m, rules{s}); err != nil {
		return nil, nil, err
	}
	ns := s.clone()
	eff, err := masquerade.PlayMove(&ns.core, m, rules{ns})
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

func wrongMove(m engine.Move, what string) error { return masquerade.WrongMove(m, what) }

func argc(m engine.Move, n int) error { return masquerade.ArgCount(m, n) }

// playTurn handles the turn player's action: swap, peek or claim.
func (s *State) playTurn(m engine.Move) ([]engine.Effect, error) {
	l := s.layout
	if m.Kind != KindSwap {
		switch {
		case m.Kind != KindPeek && m.Kind != KindClaim:
			return nil, wrongMove(m, "the turn player swaps, peeks or claims")
		case s.Preparatory():
			return nil, ruleErr(m.Seat, RulePreparatory, "turn %d is preparatory: swap or pretend to", s.core.TurnNo)
		case s.core.RevealedPrev[m.Seat]:
			return nil, ruleErr(m.Seat, RuleRevealedSwap, "your card was revealed during the previous turn: swap or pretend to")
		}
	}
	switch m.Kind {
	case KindSwap:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		own, t := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !l.valid(own) || !l.owns(m.Seat, own) {
			return nil, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not one of your cards", m.Args[0])
		}
		if !l.swapTarget(m.Seat, t) && !l.ownPair(m.Seat, own, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "cannot swap with slot %d (the same card, another player's guard, your own card in the standard game, or no such slot)", m.Args[1])
		}
		masquerade.EndTurn(&s.core)
		return []engine.Effect{{Kind: engine.EffectSwap, By: m.Seat, Slots: []engine.Slot{own, t}}}, nil
	case KindPeek:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		own := engine.Slot(m.Args[0])
		if !l.valid(own) || !l.owns(m.Seat, own) {
			return nil, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not one of your cards", m.Args[0])
		}
		masquerade.EndTurn(&s.core)
		return []engine.Effect{{Kind: engine.EffectPeek, By: m.Seat, Slots: []engine.Slot{own}}}, nil
	default: // KindClaim
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		c, own := engine.Card(m.Args[0]), engine.Slot(m.Args[1])
		if !ValidCard(c) || !s.InPlay(c) {
			return nil, ruleErr(m.Seat, RuleNotInPlay, "%s is not in play", CardName(c))
		}
		if !l.claimable(m.Seat, own) {
			return nil, ruleErr(m.Seat, RuleNotYourSlot, "cannot claim with slot %d (not your card, or your guard)", m.Args[1])
		}
		masquerade.OpenClaim(&s.core, c, Contender{Seat: m.Seat, Slot: own})
		return nil, nil
	}
}

// Know is [State.Learn] with a concrete result type.
func (s *State) Know(facts []engine.Fact) (*State, []engine.Effect, error) {
	if err := masquerade.CheckFacts(&s.core, facts, rules{s}); err != nil {
		return nil, nil, err
	}
	ns := s.clone()
	masquerade.TakeFacts(&ns.core, facts, rules{ns})
	return ns, nil, nil
}
