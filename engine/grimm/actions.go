package grimm

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// action plays KindAct: [action, item, jewel, args...].
func (s *State) action(m engine.Move) ([]engine.Effect, error) {
	if len(m.Args) < 3 {
		return nil, ruleErr(m.Seat, RuleBadArgs, "act takes an action, an item and the jewel flag")
	}
	a, it, jewel := Action(m.Args[0]), engine.Card(m.Args[1]), m.Args[2]
	if m.Args[0] < int(MaskOff) || m.Args[0] > int(LearnSecret) {
		return nil, ruleErr(m.Seat, RuleBadArgs, "no action %d", m.Args[0])
	}
	if a != MaskOff && !slices.Contains(s.actions[:], a) {
		return nil, ruleErr(m.Seat, RuleNotAvailable, "%s is not among this round's actions", a)
	}
	if jewel != 0 && jewel != 1 {
		return nil, ruleErr(m.Seat, RuleBadArgs, "the jewel flag is 0 or 1")
	}
	need := 2
	if jewel == 1 {
		if !s.jewels[m.Seat] {
			return nil, ruleErr(m.Seat, RuleNoJewel, "you have no jewel to spend")
		}
		need = 1
	}
	if !IsItem(it) || s.Count(m.Seat, it) < need {
		return nil, ruleErr(m.Seat, RuleNoPair, "you do not have %d %s in front of you", need, CardName(it))
	}
	args := m.Args[3:]
	// Check the action's own arguments before paying.
	countAfter := func(x engine.Card) int {
		k := s.Count(m.Seat, x)
		if x == it {
			k -= need
		}
		return k
	}
	switch a {
	case MaskOff:
		if len(args) != 2 {
			return nil, ruleErr(m.Seat, RuleBadArgs, "Mask off! takes a target and a character")
		}
		t, c := engine.Seat(args[0]), engine.Card(args[1])
		if err := s.checkRecipient(m.Seat, t); err != nil {
			return nil, err
		}
		if !IsCharacter(c) || s.broken[c] || s.HasToken(t, c) {
			return nil, ruleErr(m.Seat, RuleBadGuess, "cannot name %s for %s (broken portrait, or %s's hint token is there)", CardName(c), s.Name(t), s.Name(t))
		}
	case Eavesdrop:
		if len(args) < 1 || len(args) > 2 || (len(args) == 2 && args[0] == args[1]) {
			return nil, ruleErr(m.Seat, RuleBadArgs, "Eavesdrop takes one or two different players")
		}
		if s.n == 2 && len(args) != 1 {
			return nil, ruleErr(m.Seat, RuleBadArgs, "with 2 players, Eavesdrop names the opponent")
		}
		for _, x := range args {
			if err := s.checkRecipient(m.Seat, engine.Seat(x)); err != nil {
				return nil, err
			}
		}
	case GuestList, Toast, Search, LearnSecret:
		if len(args) != 0 {
			return nil, ruleErr(m.Seat, RuleBadArgs, "%s takes no arguments", a)
		}
	case Dance:
		if len(args) != 2 || (args[0] != 1 && args[0] != -1) {
			return nil, ruleErr(m.Seat, RuleBadArgs, "Dance takes a direction (left or right) and an item")
		}
		if g := engine.Card(args[1]); !IsItem(g) || countAfter(g) < 1 {
			return nil, ruleErr(m.Seat, RuleNoItem, "no %s left in front of you to pass", CardName(g))
		}
	case Exchange:
		if len(args) != 2 {
			return nil, ruleErr(m.Seat, RuleBadArgs, "Exchange takes a target and an item")
		}
		if err := s.checkRecipient(m.Seat, engine.Seat(args[0])); err != nil {
			return nil, err
		}
		if g := engine.Card(args[1]); !IsItem(g) || countAfter(g) < 1 {
			return nil, ruleErr(m.Seat, RuleNoItem, "no %s left in front of you to give", CardName(g))
		}
	}

	// Pay: the jewel, and the items (the lowest slots of that kind).
	if jewel == 1 {
		s.jewels[m.Seat] = false
	}
	paid := 0
	for _, x := range s.Front(m.Seat) {
		if x.Item == it && paid < need {
			s.where[x.Slot-ItemSlot0] = inDiscard
			paid++
		}
	}
	s.acted, s.act, s.actor = true, a, m.Seat
	if s.n == 2 && a != MaskOff {
		s.roses[m.Seat]++
	}
	s.cont = contEnd
	var eff []engine.Effect
	switch a {
	case MaskOff:
		s.pending = append(s.pending, response{Seat: engine.Seat(args[0]), Kind: respGuess, Char: engine.Card(args[1]), Causer: m.Seat})
	case Eavesdrop:
		s.commit, s.commits = [5]bool{}, [5][32]byte{}
		var named []engine.Seat
		for _, x := range args {
			if s.eavesChoices(engine.Seat(x)) > 0 {
				named = append(named, engine.Seat(x))
			}
		}
		if len(named) == 2 {
			s.eaves = named
			s.phase = phCommit
			return nil, nil
		}
		for _, p := range named {
			s.pending = append(s.pending, response{Seat: p, Kind: respEaves, Causer: m.Seat})
		}
	case GuestList, Search:
		k := 2
		if a == Search {
			k = 1
		}
		deck := s.CharDeck()
		for i := 0; i < k && i < len(deck); i++ {
			eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: m.Seat, Slots: []engine.Slot{deck[i]}})
		}
		eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: deck})
		if a == Search {
			e, ok := s.revealDraw(1, forSearch)
			eff = append(eff, e...)
			if ok {
				return eff, nil
			}
		}
	case Toast:
		e, ok := s.revealDraw(2, forToast)
		eff = append(eff, e...)
		if ok {
			return eff, nil
		}
	case Dance, Exchange:
		g := engine.Card(args[1])
		for _, x := range s.Front(m.Seat) {
			if x.Item == g {
				s.gift = x.Slot
				break
			}
		}
		if a == Dance {
			s.dir = args[0]
		} else {
			s.target = engine.Seat(args[0])
		}
		s.phase, s.why = phWaitCoin, forDance
		if a == Exchange {
			s.why = forExchange
		}
		return []engine.Effect{{Kind: engine.EffectCoin}}, nil
	case LearnSecret:
		return s.betLook(m.Seat), nil
	}
	return append(eff, s.advance()...), nil
}

// nextMasked returns the next seat from p in direction dir that is not
// unmasked (p itself excluded), or -1.
func (s *State) nextMasked(p engine.Seat, dir int) engine.Seat {
	for k := 1; k < s.n; k++ {
		q := s.seatAfter(p, k*dir)
		if !s.Unmasked(q) {
			return q
		}
	}
	return -1
}

// randomPasses derives the random cards of a Dance or an Exchange from a
// coin: with purpose "dance", every opponent in seat order from the
// actor's left draws one index among its items (front items in slot order,
// or an unmasked seat's hand slots in slot order); with "exchange", the
// target draws two distinct indices among its front items ([Pick]).
func (s *State) randomPasses(coin [32]byte) []pass {
	var out []pass
	if s.why == forDance {
		st := NewStream(coin, "dance")
		out = append(out, pass{Slot: s.gift, From: s.actor, To: s.nextMasked(s.actor, s.dir)})
		for k := 1; k < s.n; k++ {
			p := s.seatAfter(s.actor, k)
			var from []engine.Slot
			if s.Unmasked(p) {
				from = s.Hand(p)
			} else {
				for _, it := range s.Front(p) {
					from = append(from, it.Slot)
				}
			}
			if len(from) == 0 {
				continue
			}
			out = append(out, pass{Slot: from[st.Intn(len(from))], From: p, To: s.nextMasked(p, s.dir)})
		}
		return out
	}
	st := NewStream(coin, "exchange")
	var from []engine.Slot
	for _, it := range s.Front(s.target) {
		from = append(from, it.Slot)
	}
	out = append(out, pass{Slot: s.gift, From: s.actor, To: s.target})
	for _, sl := range Pick(st, from, 2) {
		out = append(out, pass{Slot: sl, From: s.target, To: s.actor})
	}
	return out
}

// finishPasses lands the passes of a Dance or an Exchange.
func (s *State) finishPasses() []engine.Effect {
	ps := s.passes
	s.passes = nil
	s.transfer(ps, s.actor)
	return s.advance()
}

func (s *State) toastGive(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindGive {
		return nil, wrongMove(m, "give the toasted items")
	}
	k := len(s.drawn)
	if err := argc(m, k, k); err != nil {
		return nil, err
	}
	var ps []pass
	for i, sl := range s.drawn {
		t := engine.Seat(m.Args[i])
		if err := s.checkRecipient(m.Seat, t); err != nil {
			return nil, err
		}
		ps = append(ps, pass{Slot: sl, From: -1, To: t})
	}
	s.drawn = nil
	s.transfer(ps, m.Seat)
	return s.advance(), nil
}
