package mascarade2

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
			// Peasants were revealed this turn, else 1.
			k := PeasantCoins
			if s.pairBonus {
				k = PeasantPairCoins
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
		s.queue = s.queue[1:]
		// The Princess and the Fool take their coins first, then choose.
		switch s.claim {
		case Princess:
			s.transfer(&s.bank, &s.coins[c.Seat], PrincessCoins)
		case Fool:
			s.transfer(&s.bank, &s.coins[c.Seat], FoolCoins)
		}
		if s.checkEnd() {
			return nil
		}
		if s.needsChoice(c) {
			s.user = c
			s.phase = phaseUse
			return nil
		}
		s.autoPower(c)
		if s.checkEnd() {
			return nil
		}
	}
	// Impostors pay their fine after the real owner's power (the book's
	// Judge and Sorceress notes), all at once.
	if len(s.impostors) > 0 {
		for _, p := range s.impostors {
			s.transfer(&s.coins[p], &s.court, Fine)
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
	case Fool, Spy, Guru, Puppeteer, Princess, Sorceress:
		return true
	case Swindler:
		return len(s.richest(c.Seat)) > 1
	}
	return false
}

// autoPower applies a power that needs no choice.
func (s *State) autoPower(c Contender) {
	p := c.Seat
	switch s.claim {
	case Empress:
		s.transfer(&s.bank, &s.coins[p], EmpressCoins)
	case King:
		s.transfer(&s.bank, &s.coins[p], KingCoins)
	case Widow:
		if s.coins[p] < WidowCoins {
			s.transfer(&s.bank, &s.coins[p], WidowCoins-s.coins[p])
		}
	case Judge:
		s.coins[p] += s.court
		s.court = 0
	case Thief:
		s.transfer(&s.coins[s.seatAfter(p, -1)], &s.coins[p], 1)
		s.transfer(&s.coins[s.seatAfter(p, 1)], &s.coins[p], 1)
	case Beggar:
		// Clockwise from the left, each player richer than the Beggar at
		// that moment gives one coin.
		for k := 1; k < s.Players(); k++ {
			q := s.seatAfter(p, k)
			if s.coins[q] > s.coins[p] {
				s.transfer(&s.coins[q], &s.coins[p], 1)
			}
		}
	case Patron:
		s.transfer(&s.bank, &s.coins[p], PatronCoins)
		s.transfer(&s.bank, &s.coins[s.seatAfter(p, 1)], PatronGift)
		s.transfer(&s.bank, &s.coins[s.seatAfter(p, -1)], PatronGift)
	case Cheater:
		if s.coins[p] >= CheaterCoins {
			s.finish([]engine.Seat{p})
		}
	case Swindler:
		s.transfer(&s.coins[s.richest(p)[0]], &s.coins[p], SwindlerTake)
	}
}

// playUse applies an owner's choice for the power being resolved.
func (s *State) playUse(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindUse {
		return nil, wrongMove(m, "use the "+CardName(s.claim))
	}
	u := s.user
	var eff []engine.Effect
	switch s.claim {
	case Swindler:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !slices.Contains(s.richest(u.Seat), t) {
			return nil, ruleErr(m.Seat, RuleNotRichest, "the Swindler takes from one of the richest other players")
		}
		s.transfer(&s.coins[t], &s.coins[u.Seat], SwindlerTake)
	case Sorceress:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		if m.Args[0] != NoTarget {
			t := engine.Seat(m.Args[0])
			if !s.otherSeat(u.Seat, t) {
				return nil, ruleErr(m.Seat, RuleBadTarget, "the Sorceress exchanges purses with another player (or none)")
			}
			s.coins[t], s.coins[u.Seat] = s.coins[u.Seat], s.coins[t]
		}
	case Fool:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !s.foolPair(u.Seat, a, b) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Fool swaps the cards of two other players (not the middle)")
		}
		eff = []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{a, b}}}
	case Spy:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Slot(m.Args[0])
		if !s.playerCard(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Spy chooses another player's card (not the middle)")
		}
		// The Spy looks first and decides after (a second move), so the
		// swap can depend on what it saw.
		s.pendingSlot = []engine.Slot{t}
		s.phase = phaseSpySwap
		return []engine.Effect{
			{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{s.SlotOf(u.Seat)}},
			{Kind: engine.EffectPeek, By: u.Seat, Slots: []engine.Slot{t}},
		}, nil
	case Guru:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !s.otherSeat(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Guru chooses another player")
		}
		s.target = t
		s.phase = phaseGuess
		return nil, nil
	case Princess:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !s.otherSeat(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Princess chooses another player")
		}
		eff = []engine.Effect{{Kind: engine.EffectShowOthers, By: u.Seat, Except: t, Slots: []engine.Slot{s.SlotOf(t)}}}
	case Puppeteer:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Seat(m.Args[0]), engine.Seat(m.Args[1])
		if a == b || !s.otherSeat(u.Seat, a) || !s.otherSeat(u.Seat, b) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Puppeteer chooses two other players")
		}
		s.transfer(&s.coins[a], &s.coins[u.Seat], PuppeteerTake)
		s.transfer(&s.coins[b], &s.coins[u.Seat], PuppeteerTake)
		if s.checkEnd() {
			return nil, nil // the game ends before they change seats
		}
		s.exchangeChairs(a, b)
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
	eff := []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{s.SlotOf(u.Seat), t}}}
	if s.checkEnd() {
		return eff, nil
	}
	return append(eff, s.resolve()...), nil
}

// exchangeChairs makes seats a and b change chairs. Their cards and purses
// stay on the table: a now has the card and the coins in front of b's old
// chair, and the other way round.
func (s *State) exchangeChairs(a, b engine.Seat) {
	ca, cb := s.chairOf[a], s.chairOf[b]
	s.seatAt[ca], s.seatAt[cb] = b, a
	s.chairOf[a], s.chairOf[b] = cb, ca
	s.coins[a], s.coins[b] = s.coins[b], s.coins[a]
}

// playGuess takes the Guru's target's answer and reveals its card.
func (s *State) playGuess(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindGuess {
		return nil, wrongMove(m, "name your mask")
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
	s.pendingSlot = []engine.Slot{s.SlotOf(s.target)}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: []engine.Slot{s.pendingSlot[0]}}}, nil
}

func (s *State) otherSeat(me, t engine.Seat) bool {
	return t >= 0 && int(t) < len(s.opts.Players) && t != me
}

// foolPair reports whether the Fool at seat p may swap slots a and b: the
// cards of two different other players (no middle card, not the Fool's).
func (s *State) foolPair(p engine.Seat, a, b engine.Slot) bool {
	return a != b && s.playerCard(p, a) && s.playerCard(p, b)
}
