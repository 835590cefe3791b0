package grimm

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// Know is [State.Learn] with a concrete result type.
func (s *State) Know(facts []engine.Fact) (*State, []engine.Effect, error) {
	switch s.phase {
	case phWaitCoin:
		if len(facts) != 1 || facts[0].Slot != -1 {
			return nil, nil, ruleErr(-1, RuleBadFacts, "want one coin (a fact with slot -1), got %d facts", len(facts))
		}
		ns := s.clone()
		return ns, ns.takeCoin(facts[0].Coin), nil
	case phWaitReveal:
		if len(facts) != len(s.waitSlots) {
			return nil, nil, ruleErr(-1, RuleBadFacts, "want %d facts, got %d", len(s.waitSlots), len(facts))
		}
		for i, f := range facts {
			sl := s.waitSlots[i]
			if f.Slot != sl {
				return nil, nil, ruleErr(-1, RuleBadFacts, "fact %d is for slot %d, want slot %d", i, f.Slot, sl)
			}
			ok := false
			switch {
			case sl >= CharSlot0 && sl < ItemSlot0:
				ok = IsCharacter(f.Card)
			case sl >= ItemSlot0 && sl < BetSlot0:
				ok = IsItem(f.Card)
			default:
				ok = IsBet(f.Card)
			}
			if !ok {
				return nil, nil, ruleErr(-1, RuleBadFacts, "slot %d cannot hold %s", sl, CardName(f.Card))
			}
			if sl < ItemSlot0 && s.known[sl] != 0 && s.known[sl] != f.Card {
				return nil, nil, ruleErr(-1, RuleBadFacts, "slot %d was proven to hold %s, revealed %s", sl, CardName(s.known[sl]), CardName(f.Card))
			}
			if sl < ItemSlot0 {
				for other, c := range s.known {
					if c == f.Card && engine.Slot(other) != sl {
						return nil, nil, ruleErr(-1, RuleBadFacts, "%s revealed in slot %d is known in slot %d", CardName(c), sl, other)
					}
				}
				for _, g := range facts[:i] {
					if g.Card == f.Card {
						return nil, nil, ruleErr(-1, RuleBadFacts, "%s revealed twice", CardName(f.Card))
					}
				}
			}
		}
		ns := s.clone()
		return ns, ns.takeReveal(facts), nil
	}
	return nil, nil, ruleErr(-1, RuleNoFactsWanted, "the rules wait for a move, not for facts")
}

func (s *State) takeCoin(coin [32]byte) []engine.Effect {
	switch s.why {
	case forRound:
		st := NewStream(coin, "round")
		s.actions = s.roundActions(st)
		s.first = s.firstPlayer(st)
		if fx := s.opts.fixed(s.round); fx != nil {
			if fx.Actions != nil {
				s.actions = [2]Action{fx.Actions[0], fx.Actions[1]}
			}
			if fx.First >= 0 {
				s.first = fx.First
			}
		}
		s.turn = s.first
		eff := s.dealAbilities()
		if len(s.choosing) > 0 {
			s.phase = phAbility
			return eff
		}
		return append(eff, s.startDraft()...)
	case forDance:
		s.passes = s.randomPasses(coin)
		var hidden []engine.Slot
		for _, x := range s.passes {
			if s.where[x.Slot-ItemSlot0] == inHand {
				hidden = append(hidden, x.Slot)
			}
		}
		if len(hidden) > 0 {
			s.phase, s.waitSlots = phWaitReveal, hidden
			return []engine.Effect{{Kind: engine.EffectReveal, Slots: slices.Clone(hidden)}}
		}
		return s.finishPasses()
	default: // forExchange
		s.passes = s.randomPasses(coin)
		return s.finishPasses()
	}
}

// startDraft reveals the draft row: players + 2 items, 6 with 2 players.
func (s *State) startDraft() []engine.Effect {
	row := s.n + 2
	if s.n == 2 {
		row = 6
	}
	eff, _ := s.revealDraw(row, forDraft)
	return eff
}

// dealAbilities gives, in rounds 2 and 3 with abilities, every player
// tied for the fewest roses the ability of the character it played in the
// previous round (with 2 players it chooses one of its two: those seats
// are queued in choosing). Hansel's Gambler takes the top bet card at
// once (the bet deck is shuffled, so it is a random one) and views it.
func (s *State) dealAbilities() []engine.Effect {
	if !s.opts.Abilities || s.round < 2 || len(s.results) == 0 {
		return nil
	}
	prev := s.results[len(s.results)-1].Chars
	lo := s.Roses(0)
	for p := range engine.Seat(s.n) {
		lo = min(lo, s.Roses(p))
	}
	for p := range engine.Seat(s.n) {
		if s.Roses(p) != lo {
			continue
		}
		if s.n == 2 {
			s.choosing = append(s.choosing, p)
			continue
		}
		s.ability[p] = prev[p]
	}
	return s.gamblerBet()
}

// gamblerBet hands the holders of Hansel's ability their random bet card.
func (s *State) gamblerBet() []engine.Effect {
	var eff []engine.Effect
	for p := range engine.Seat(s.n) {
		if s.ability[p] != Hansel || !s.opts.Bets {
			continue
		}
		if deck := s.betDeck(); len(deck) > 0 {
			s.betHeld[deck[0]-BetSlot0] = int8(p)
			eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{deck[0]}})
		}
	}
	return eff
}

// chooseAbility takes a 2-player seat's choice of ability card: one of
// the two characters it played in the previous round.
func (s *State) chooseAbility(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindChoose {
		return nil, wrongMove(m, "choose your ability card")
	}
	if err := argc(m, 1, 1); err != nil {
		return nil, err
	}
	c := engine.Card(m.Args[0])
	if !slices.Contains(s.AbilityChoices(m.Seat), c) {
		return nil, ruleErr(m.Seat, RuleBadArgs, "%s is not one of the characters you played last round", CardName(c))
	}
	s.ability[m.Seat] = c
	s.choosing = s.choosing[1:]
	if len(s.choosing) > 0 {
		return nil, nil
	}
	return append(s.gamblerBet(), s.startDraft()...), nil
}

// AbilityChoices returns the characters seat p played in the previous
// round, among which a 2-player seat chooses its ability.
func (s *State) AbilityChoices(p engine.Seat) []engine.Card {
	if len(s.results) == 0 {
		return nil
	}
	prev := s.results[len(s.results)-1].Chars
	var out []engine.Card
	for _, sl := range s.CharSlotsOf(p) {
		out = append(out, prev[sl])
	}
	return out
}

// roundActions draws the round's two action cards: two of the action
// cards not used in earlier rounds ([Pick] on the deck in card order);
// with 2 players, two of the four in rounds 1 and 3, the other two in
// round 2.
func (s *State) roundActions(st *Stream) [2]Action {
	deck := actionDeck(s.n, s.opts.Bets)
	if s.n == 2 && s.round == 2 {
		var rest []Action
		for _, a := range deck {
			if !slices.Contains(s.spent, a) {
				rest = append(rest, a)
			}
		}
		return [2]Action{rest[0], rest[1]}
	}
	if s.n == 2 {
		return [2]Action(Pick(st, deck, 2))
	}
	var rest []Action
	for _, a := range deck {
		if !slices.Contains(s.spent, a) {
			rest = append(rest, a)
		}
	}
	got := Pick(st, rest, 2)
	return [2]Action{got[0], got[1]}
}

// firstPlayer returns the round's first player: in round 1, drawn from
// the coin; later, the player with the fewest roses, a tie going to the
// one closest clockwise after a player with the most roses, and a tie
// still (or every player level) drawn from the coin among the tied.
func (s *State) firstPlayer(st *Stream) engine.Seat {
	all := make([]engine.Seat, s.n)
	for i := range all {
		all[i] = engine.Seat(i)
	}
	if s.round == 1 {
		return all[st.Intn(s.n)]
	}
	lo, hi := s.Roses(0), s.Roses(0)
	for _, p := range all {
		lo, hi = min(lo, s.Roses(p)), max(hi, s.Roses(p))
	}
	var low, high []engine.Seat
	for _, p := range all {
		if s.Roses(p) == lo {
			low = append(low, p)
		}
		if s.Roses(p) == hi {
			high = append(high, p)
		}
	}
	if len(low) == 1 {
		return low[0]
	}
	if lo == hi {
		return low[st.Intn(len(low))]
	}
	best, bestD := []engine.Seat(nil), s.n+1
	for _, c := range low {
		d := s.n + 1
		for _, h := range high {
			d = min(d, ((int(c)-int(h))%s.n+s.n)%s.n)
		}
		switch {
		case d < bestD:
			best, bestD = []engine.Seat{c}, d
		case d == bestD:
			best = append(best, c)
		}
	}
	return best[st.Intn(len(best))]
}

func (s *State) takeReveal(facts []engine.Fact) []engine.Effect {
	for _, f := range facts {
		switch {
		case f.Slot < ItemSlot0:
			s.known[f.Slot] = f.Card
		case f.Slot < BetSlot0:
			s.card[f.Slot-ItemSlot0] = f.Card
		default:
			s.betKnown[f.Slot-BetSlot0] = f.Card
		}
	}
	slots := s.waitSlots
	s.waitSlots = nil
	switch s.why {
	case forDraft:
		for _, sl := range slots {
			s.where[sl-ItemSlot0] = inRow
		}
		s.draftLeft = s.n
		if s.n == 2 {
			s.draftLeft = 4
		}
		s.draftSeat = s.first
		s.cont = contDraft
		return s.advance()
	case forExtra:
		s.drawn = slots
		s.phase, s.dec = phDecide, decExtra
		return nil
	case forDraw, forSearch, forToast:
		s.drawn = slots
		switch {
		case s.why == forToast:
			s.phase = phToast
			return nil
		case s.why == forSearch:
			s.phase, s.dec = phDecide, decSearch
			return nil
		case s.drawNo == 1:
			s.phase, s.dec = phDecide, decFirst
			return nil
		case s.keptFirst:
			s.phase, s.dec = phDecide, decSecond
			return nil
		}
		s.drawn = nil
		s.actor = s.turn
		s.transfer([]pass{{Slot: slots[0], From: -1, To: s.turn}}, s.turn)
		s.cont = contAction
		return s.advance()
	case forDance:
		return s.finishPasses()
	case forHandGive:
		ps := s.passes
		s.passes = nil
		s.actor = s.turn
		s.transfer(ps, s.turn)
		s.cont = contEnd
		return s.advance()
	default: // forRoundEnd
		return s.finishRound()
	}
}

// rewardValue is the value of round r's reward token.
func rewardValue(r int) int { return 2*r - 1 }

// endRound closes a round: every character still hidden (and every bet
// card held) is revealed, then [State.finishRound] pays.
func (s *State) endRound() []engine.Effect {
	s.pending, s.drawn, s.eaves, s.passes = nil, nil, nil, nil
	s.roundDone = false
	var slots []engine.Slot
	for p := range engine.Seat(s.n) {
		for _, sl := range s.CharSlotsOf(p) {
			if s.known[sl] == 0 {
				slots = append(slots, sl)
			}
		}
	}
	for i, h := range s.betHeld {
		if h >= 0 && s.betKnown[i] == 0 {
			slots = append(slots, BetSlot0+engine.Slot(i))
		}
	}
	if len(slots) > 0 {
		s.phase, s.why, s.waitSlots = phWaitReveal, forRoundEnd, slots
		return []engine.Effect{{Kind: engine.EffectReveal, Slots: slices.Clone(slots)}}
	}
	return s.finishRound()
}

// finishRound pays the reward, the bets and the jewels, then ends the game
// (10 roses, or round 3) or starts the next round.
func (s *State) finishRound() []engine.Effect {
	w := s.roundWin
	v := rewardValue(s.round)
	res := RoundResult{Round: s.round, Winner: w, ByTalismans: s.talismanWin}
	for p := range engine.Seat(s.n) {
		for _, sl := range s.CharSlotsOf(p) {
			res.Chars = append(res.Chars, s.known[sl])
		}
	}
	if w >= 0 {
		s.rewards[w] += v
		if s.n > 2 {
			wc := s.known[s.CharSlotsOf(w)[0]]
			for i, h := range s.betHeld {
				if h >= 0 && s.betKnown[i] == BetBase+wc {
					s.roses[h] += v
				}
			}
		}
	}
	for p := range s.n {
		if s.jewels[p] {
			s.jewels[p] = false
			s.roses[p]++
		}
	}
	s.results = append(s.results, res)
	s.lastWin = w
	if s.n > 2 {
		s.spent = append(s.spent, s.actions[0], s.actions[1])
	} else {
		s.spent = []Action{s.actions[0], s.actions[1]}
	}
	end := s.round == Rounds
	for p := range engine.Seat(s.n) {
		if s.Roses(p) >= RoseTarget {
			end = true
		}
	}
	if end {
		s.phase = phOver
		s.winners = s.bestSeats()
		return nil
	}
	s.resetRound(s.round + 1)
	return s.roundEffects(true)
}

// bestSeats returns the winners: the most roses, then the greater sum of
// reward tokens; a tie still shares the win.
func (s *State) bestSeats() []engine.Seat {
	var out []engine.Seat
	for p := range engine.Seat(s.n) {
		if len(out) == 0 {
			out = []engine.Seat{p}
			continue
		}
		q := out[0]
		switch {
		case s.Roses(p) > s.Roses(q) || (s.Roses(p) == s.Roses(q) && s.rewards[p] > s.rewards[q]):
			out = []engine.Seat{p}
		case s.Roses(p) == s.Roses(q) && s.rewards[p] == s.rewards[q]:
			out = append(out, p)
		}
	}
	return out
}

// --- bets

// canTakeBet reports whether unmasked seat p may still take its bet card.
func (s *State) canTakeBet(p engine.Seat) bool {
	return s.opts.Bets && s.Unmasked(p) && !s.betTaken[p] && len(s.betDeck()) > 0
}

// betDeck returns the bet slots nobody holds.
func (s *State) betDeck() []engine.Slot {
	var out []engine.Slot
	for i, h := range s.betHeld {
		if h < 0 {
			out = append(out, BetSlot0+engine.Slot(i))
		}
	}
	return out
}

// betLook lets seat p look at every bet card left, then take one.
func (s *State) betLook(p engine.Seat) []engine.Effect {
	deck := s.betDeck()
	if len(deck) == 0 {
		return s.advance()
	}
	var eff []engine.Effect
	for _, sl := range deck {
		eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{sl}})
	}
	s.phase, s.betSeat = phBetPick, p
	return eff
}

func (s *State) betStart(m engine.Move) ([]engine.Effect, error) {
	if err := argc(m, 0, 0); err != nil {
		return nil, err
	}
	if !s.canTakeBet(m.Seat) {
		return nil, wrongMove(m, "you may not take a bet card now")
	}
	return s.betLook(m.Seat), nil
}

func (s *State) betPick(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindBet {
		return nil, wrongMove(m, "take a bet card")
	}
	if err := argc(m, 1, 1); err != nil {
		return nil, err
	}
	sl := engine.Slot(m.Args[0])
	deck := s.betDeck()
	if !slices.Contains(deck, sl) {
		return nil, ruleErr(m.Seat, RuleBadBet, "slot %d is not in the bet deck", m.Args[0])
	}
	s.betHeld[sl-BetSlot0] = int8(m.Seat)
	var eff []engine.Effect
	if rest := slices.DeleteFunc(deck, func(x engine.Slot) bool { return x == sl }); len(rest) > 1 {
		eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: rest})
	}
	if len(s.pending) > 0 && s.pending[0].Kind == respMayBet && s.pending[0].Seat == m.Seat {
		// Taken at the unmasking: whatever was going on goes on.
		s.pending = s.pending[1:]
		s.betTaken[m.Seat] = true
		return append(eff, s.advance()...), nil
	}
	if s.Unmasked(m.Seat) {
		s.betTaken[m.Seat] = true
		if len(s.Hand(m.Seat)) > 0 {
			s.phase = phHandGive
			return eff, nil
		}
	}
	s.cont = contEnd
	return append(eff, s.advance()...), nil
}
