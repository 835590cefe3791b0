package mascarade

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// resolve works through the owners still to use the power, then fines the
// impostors and ends the turn. It stops early when an owner must choose
// (phase "use") or the game ends. It returns any effects.
func (s *State) resolve() []engine.Effect {
	for len(s.queue) > 0 {
		c := s.queue[0]
		if s.claim == Peasant {
			// All Peasant owners are paid at once: 2 each when both
			// Peasants were revealed together, else 1.
			k := 1
			if s.pairBonus {
				k = 2
			}
			for _, o := range s.queue {
				s.transfer(&s.bank, &s.coins[o.Seat], k)
			}
			s.queue = nil
			if s.checkEnd() {
				return nil
			}
			continue
		}
		if s.needsChoice(c) {
			s.queue = s.queue[1:]
			s.user = c
			s.phase = phaseUse
			return nil
		}
		s.queue = s.queue[1:]
		s.autoPower(c)
		if s.checkEnd() {
			return nil
		}
	}
	// Impostors pay their fine after the real owner's power (the book's
	// Judge, Witch and Widow examples), all at once.
	if len(s.impostors) > 0 {
		for _, p := range s.impostors {
			s.transfer(&s.coins[p], &s.court, 1)
		}
		s.impostors = nil
		if s.checkEnd() {
			return nil
		}
	}
	s.endTurn()
	return nil
}

// needsChoice reports whether owner c must make a public choice to use the
// claimed power.
func (s *State) needsChoice(c Contender) bool {
	switch s.claim {
	case Fool, Witch, Spy, Inquisitor:
		return true
	case Bishop:
		return len(s.richest(c.Seat)) > 1
	}
	return false
}

// autoPower applies a power that needs no choice.
func (s *State) autoPower(c Contender) {
	p := c.Seat
	switch s.claim {
	case Judge:
		s.coins[p] += s.court
		s.court = 0
	case Bishop:
		s.transfer(&s.coins[s.richest(p)[0]], &s.coins[p], 2)
	case King:
		s.transfer(&s.bank, &s.coins[p], 3)
	case Queen:
		s.transfer(&s.bank, &s.coins[p], 2)
	case Thief:
		for _, nb := range s.neighbours(p) {
			s.transfer(&s.coins[nb], &s.coins[p], 1)
		}
	case Cheat:
		if s.coins[p] >= CheatCoins {
			s.finish([]engine.Seat{p})
		}
	case Widow:
		if s.coins[p] < WidowCoins {
			s.transfer(&s.bank, &s.coins[p], WidowCoins-s.coins[p])
		}
	}
}

// neighbours returns the distinct seats to the right and left of p: two
// players with 3+ players, the single opponent with 2.
func (s *State) neighbours(p engine.Seat) []engine.Seat {
	right, left := s.seatAfter(p, -1), s.seatAfter(p, 1)
	if right == left {
		return []engine.Seat{left}
	}
	return []engine.Seat{right, left}
}

// playUse applies an owner's choice for the power being resolved.
func (s *State) playUse(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindUse {
		return nil, wrongMove(m, "use the "+CardName(s.claim))
	}
	u := s.user
	l := s.layout
	var eff []engine.Effect
	switch s.claim {
	case Bishop:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !slices.Contains(s.richest(u.Seat), t) {
			return nil, ruleErr(m.Seat, RuleNotRichest, "the Bishop takes from one of the richest other players")
		}
		s.transfer(&s.coins[t], &s.coins[u.Seat], 2)
	case Witch:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		// The Witch "may" exchange purses: NoTarget keeps her own.
		if m.Args[0] != NoTarget {
			t := engine.Seat(m.Args[0])
			if !s.otherSeat(u.Seat, t) {
				return nil, ruleErr(m.Seat, RuleBadTarget, "the Witch swaps purses with another player (or none)")
			}
			s.coins[t], s.coins[u.Seat] = s.coins[u.Seat], s.coins[t]
		}
	case Fool:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !s.foolPair(u.Seat, a, b) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Fool swaps two cards of other players (no centre, no guard, two different players)")
		}
		s.transfer(&s.bank, &s.coins[u.Seat], 1)
		eff = []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{a, b}}}
	case Spy:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Slot(m.Args[0])
		if !l.swapTarget(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Spy looks at another player's card or a centre card (not a guard)")
		}
		// The Spy looks first and decides after (a second move), so the
		// swap can depend on what it saw.
		s.pendingSlot = []engine.Slot{t}
		s.phase = phaseSpySwap
		return []engine.Effect{
			{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{u.Slot}},
			{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{t}},
		}, nil
	case Inquisitor:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !s.otherSeat(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Inquisitor points at another player")
		}
		s.target = t
		s.phase = phaseGuess
		return nil, nil
	default:
		return nil, wrongMove(m, "this power needs no choice")
	}
	if s.checkEnd() {
		return eff, nil
	}
	return append(eff, s.resolve()...), nil
}

// playSpySwap takes the Spy's decision: a hidden swap (or not) of its card
// and the card it looked at.
func (s *State) playSpySwap(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindUse {
		return nil, wrongMove(m, "swap the two cards or not")
	}
	if err := argc(m, 0); err != nil {
		return nil, err
	}
	u, t := s.user, s.pendingSlot[0]
	s.pendingSlot = nil
	s.phase = phaseUse
	eff := []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{u.Slot, t}}}
	if s.checkEnd() {
		return eff, nil
	}
	return append(eff, s.resolve()...), nil
}

// playGuess takes the Inquisitor's target's guess and reveals its card.
func (s *State) playGuess(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindGuess {
		return nil, wrongMove(m, "guess your character")
	}
	if err := argc(m, 1); err != nil {
		return nil, err
	}
	c := engine.Card(m.Args[0])
	if !ValidCard(c) || !s.InPlay(c) {
		return nil, ruleErr(m.Seat, RuleNotInPlay, "%s is not in play", CardName(c))
	}
	s.guess = c
	s.phase = phaseGuessReveal
	s.pendingSlot = []engine.Slot{s.layout.slotOf(s.target, 0)}
	s.phase = phaseGuessReveal
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: []engine.Slot{s.pendingSlot[0]}}}, nil
}

func (s *State) otherSeat(me, t engine.Seat) bool {
	return t >= 0 && int(t) < len(s.opts.Players) && t != me
}

// foolPair reports whether the Fool at seat p may swap slots a and b: two
// distinct player cards, neither the Fool's nor a guard, and of two
// different players whenever the Fool has two or more opponents.
func (s *State) foolPair(p engine.Seat, a, b engine.Slot) bool {
	l := s.layout
	if a == b || !l.valid(a) || !l.valid(b) || l.isGuard(a) || l.isGuard(b) {
		return false
	}
	oa, _, okA := l.owner(a)
	ob, _, okB := l.owner(b)
	if !okA || !okB || oa == p || ob == p {
		return false
	}
	return oa != ob || len(s.opts.Players) == 2
}
