package mascarade

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Apply implements [engine.State]: it returns the state after m and the
// effects the table must carry out, or a *[engine.RuleError]. The receiver
// is not modified.
func (s *State) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	ns, eff, err := s.Play(m)
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

// Learn implements [engine.State]: it takes the facts of the pending
// reveal, in the order of the reveal's Slots.
func (s *State) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	ns, eff, err := s.Know(facts)
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

// Play is [State.Apply] with a concrete result type.
func (s *State) Play(m engine.Move) (*State, []engine.Effect, error) {
	if s.phase == phaseOver {
		return nil, nil, ruleErr(m.Seat, RuleGameOver, "the game is over")
	}
	need := s.Next()
	if need.Kind == engine.NeedFacts {
		return nil, nil, ruleErr(m.Seat, RuleWaitingFacts, "the cards of a reveal are due before any move")
	}
	if m.Seat != need.Seat {
		if m.Seat < 0 || int(m.Seat) >= len(s.opts.Players) {
			return nil, nil, ruleErr(m.Seat, RuleNotYourTurn, "no such seat")
		}
		return nil, nil, ruleErr(m.Seat, RuleNotYourTurn, "%s must act now (%s)", s.opts.Players[need.Seat], s.phaseDesc())
	}
	if m.Kind < KindSwap || m.Kind > KindGuess {
		return nil, nil, ruleErr(m.Seat, RuleUnknownMove, "move kind %d", m.Kind)
	}
	ns := s.clone()
	var eff []engine.Effect
	var err error
	switch s.phase {
	case phaseTurn:
		eff, err = ns.playTurn(m)
	case phaseRespond:
		eff, err = ns.playRespond(m)
	case phaseUse:
		eff, err = ns.playUse(m)
	case phaseGuess:
		eff, err = ns.playGuess(m)
	case phaseSpySwap:
		eff, err = ns.playSpySwap(m)
	}
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

func (s *State) phaseDesc() string {
	switch s.phase {
	case phaseTurn:
		return "turn"
	case phaseRespond:
		return "challenge or pass"
	case phaseUse:
		return "use the " + CardName(s.claim)
	case phaseGuess:
		return "guess a character"
	case phaseSpySwap:
		return "the Spy swaps the two cards or not"
	}
	return "waiting"
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
			return nil, ruleErr(m.Seat, RulePreparatory, "turn %d is preparatory: swap or pretend to", s.turn)
		case s.revealedPrev[m.Seat]:
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
		if !l.swapTarget(m.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "cannot swap with slot %d (your own card, a guard, or no such slot)", m.Args[1])
		}
		s.endTurn()
		return []engine.Effect{{Kind: engine.EffectSwap, By: m.Seat, Slots: []engine.Slot{own, t}}}, nil
	case KindPeek:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		own := engine.Slot(m.Args[0])
		if !l.valid(own) || !l.owns(m.Seat, own) {
			return nil, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not one of your cards", m.Args[0])
		}
		s.endTurn()
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
		s.claim = c
		s.contenders = []Contender{{Seat: m.Seat, Slot: own}}
		s.responder = 1
		s.phase = phaseRespond
		return nil, nil
	}
}

// playRespond handles a challenge or a pass in the challenge window.
func (s *State) playRespond(m engine.Move) ([]engine.Effect, error) {
	switch m.Kind {
	case KindPass:
		if err := argc(m, 0); err != nil {
			return nil, err
		}
	case KindChallenge:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		own := engine.Slot(m.Args[0])
		if !s.layout.valid(own) || !s.layout.owns(m.Seat, own) {
			return nil, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not one of your cards", m.Args[0])
		}
		s.contenders = append(s.contenders, Contender{Seat: m.Seat, Slot: own})
	default:
		return nil, wrongMove(m, "challenge or pass")
	}
	s.responder++
	if s.responder < len(s.opts.Players) {
		return nil, nil
	}
	// Everyone has answered.
	if len(s.contenders) == 1 {
		s.queue = []Contender{s.contenders[0]}
		return s.resolve(), nil
	}
	s.phase = phaseReveal
	s.pendingSlot = make([]engine.Slot, len(s.contenders))
	for i, c := range s.contenders {
		s.pendingSlot[i] = c.Slot
	}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: append([]engine.Slot(nil), s.pendingSlot...)}}, nil
}

// Know is [State.Learn] with a concrete result type.
func (s *State) Know(facts []engine.Fact) (*State, []engine.Effect, error) {
	if s.phase != phaseReveal && s.phase != phaseGuessReveal {
		return nil, nil, ruleErr(-1, RuleNoFactsWanted, "no reveal is pending")
	}
	if len(facts) != len(s.pendingSlot) {
		return nil, nil, ruleErr(-1, RuleBadFacts, "%d facts for %d revealed slots", len(facts), len(s.pendingSlot))
	}
	for i, f := range facts {
		if f.Slot != s.pendingSlot[i] {
			return nil, nil, ruleErr(-1, RuleBadFacts, "fact %d is about slot %d, expected slot %d", i, f.Slot, s.pendingSlot[i])
		}
		if !s.InPlay(f.Card) {
			return nil, nil, ruleErr(-1, RuleBadFacts, "fact %d: card %d is not in play", i, f.Card)
		}
	}
	ns := s.clone()
	ns.lastRevealed = append([]engine.Fact(nil), facts...)
	ns.pendingSlot = nil
	if s.phase == phaseReveal {
		var owners []Contender
		for i, c := range ns.contenders {
			ns.revealedNow[c.Seat] = true
			if facts[i].Card == ns.claim {
				owners = append(owners, c)
			} else {
				ns.impostors = append(ns.impostors, c.Seat)
			}
		}
		ns.queue = owners
		ns.pairBonus = ns.claim == Peasant && len(owners) == 2
		return ns, ns.resolve(), nil
	}
	// The Inquisitor's question.
	ns.revealedNow[ns.target] = true
	if facts[0].Card != ns.guess {
		ns.transfer(&ns.coins[ns.target], &ns.coins[ns.user.Seat], InquisitorFine)
	}
	if ns.checkEnd() {
		return ns, nil, nil
	}
	return ns, ns.resolve(), nil
}

// endTurn passes the turn clockwise and rolls the "revealed during the
// previous turn" memory.
func (s *State) endTurn() {
	s.revealedPrev, s.revealedNow = s.revealedNow, s.revealedPrev
	clear(s.revealedNow)
	s.turn++
	s.seat = s.seatAfter(s.seat, 1)
	s.phase = phaseTurn
	s.clearClaim()
}

func (s *State) clearClaim() {
	s.claim = 0
	s.contenders = nil
	s.responder = 0
	s.queue = nil
	s.pairBonus = false
	s.impostors = nil
	s.user = Contender{}
	s.target = 0
	s.guess = 0
	s.pendingSlot = nil
}

// transfer moves up to k coins from *from to *to: who must pay more than
// they have pays all they have (rules README, decision 1).
func (s *State) transfer(from, to *int, k int) { masquerade.Transfer(from, to, k) }

// checkEnd ends the game if someone has 13 coins (they win; several if
// they got there at once) or someone is bankrupt (the richest win). It
// reports whether the game is over.
func (s *State) checkEnd() bool {
	if s.phase == phaseOver {
		return true
	}
	win, over := masquerade.Ending(s.coins, WinCoins)
	if !over {
		return false
	}
	s.finish(win)
	return true
}

// finish ends the game with the given winners.
func (s *State) finish(win []engine.Seat) {
	s.clearClaim()
	s.phase = phaseOver
	s.winners = win
}

// richest returns the seats with the most coins, leaving out seat except.
func (s *State) richest(except engine.Seat) []engine.Seat {
	return masquerade.Richest(s.coins, except)
}
