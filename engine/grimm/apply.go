package grimm

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/masque-games/masque/engine"
)

// Move kinds. See the package documentation for each kind's Args.
const (
	KindPick   uint8 = 1  // [item]: take an item from the draft row
	KindKeep   uint8 = 2  // []: keep the drawn item
	KindGive   uint8 = 3  // [seat] | [seat, seat] (Toast) | [seat, hand slot] (unmasked)
	KindAct    uint8 = 4  // [action, item, jewel, args...]
	KindEnd    uint8 = 5  // []: end the turn without an action
	KindHint   uint8 = 6  // [character] or [character, 8 nonce words]: "I am not X"
	KindUnmask uint8 = 7  // [character slot]: "I am X", unmasked
	KindWin    uint8 = 8  // [character slot]: "I am X" with 3 of X's talismans
	KindCommit uint8 = 9  // [16 words]: an Eavesdrop commitment
	KindBet    uint8 = 10 // [] (unmasked: look at the bets) | [bet slot]: take it
	KindDraw   uint8 = 11 // []: take an ability's optional extra draw
	KindChoose uint8 = 12 // [character]: 2 players, the ability card to take
)

// CommitWords is the number of 16-bit words in an Eavesdrop commitment
// (32 bytes), NonceWords in its nonce (16 bytes). Move arguments are
// 32-bit signed integers, at most 16 per move (the table's limit), so a
// word carries 16 bits.
const (
	CommitWords = 16
	NonceWords  = 8
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
// reveal (in the order of its Slots) or the pending coin (one fact, Slot
// -1).
func (s *State) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	ns, eff, err := s.Know(facts)
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

// Next implements [engine.State].
func (s *State) Next() engine.Need {
	switch s.phase {
	case phOver:
		return engine.Need{Kind: engine.NeedNothing}
	case phWaitCoin, phWaitReveal:
		return engine.Need{Kind: engine.NeedFacts}
	case phDraft:
		return engine.Need{Kind: engine.NeedMove, Seat: s.draftSeat}
	case phRespond:
		return engine.Need{Kind: engine.NeedMove, Seat: s.pending[0].Seat}
	case phCommit:
		for _, p := range s.eaves {
			if !s.commit[p] {
				return engine.Need{Kind: engine.NeedMove, Seat: p}
			}
		}
	case phBetPick:
		return engine.Need{Kind: engine.NeedMove, Seat: s.betSeat}
	case phAbility:
		return engine.Need{Kind: engine.NeedMove, Seat: s.choosing[0]}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: s.turn}
}

// Play is [State.Apply] with a concrete result type.
func (s *State) Play(m engine.Move) (*State, []engine.Effect, error) {
	need := s.Next()
	switch need.Kind {
	case engine.NeedNothing:
		return nil, nil, ruleErr(m.Seat, RuleGameOver, "the game is over")
	case engine.NeedFacts:
		return nil, nil, ruleErr(m.Seat, RuleWaitingFacts, "the table must first establish a coin or a reveal")
	}
	if m.Seat != need.Seat {
		return nil, nil, ruleErr(m.Seat, RuleNotYourTurn, "%s must move", s.Name(need.Seat))
	}
	if m.Kind < KindPick || m.Kind > KindChoose {
		return nil, nil, ruleErr(m.Seat, RuleUnknownMove, "no move kind %d", m.Kind)
	}
	ns := s.clone()
	eff, err := ns.play(m)
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

func wrongMove(m engine.Move, what string) error {
	return ruleErr(m.Seat, RuleWrongMove, "%s: %s", KindName(m.Kind), what)
}

func argc(m engine.Move, lo, hi int) error {
	if len(m.Args) < lo || len(m.Args) > hi {
		return ruleErr(m.Seat, RuleBadArgs, "%s takes %d to %d arguments, got %d", KindName(m.Kind), lo, hi, len(m.Args))
	}
	return nil
}

// play applies a move to the (cloned) receiver.
func (s *State) play(m engine.Move) ([]engine.Effect, error) {
	switch s.phase {
	case phDraft:
		if m.Kind != KindPick {
			return nil, wrongMove(m, "pick an item from the row")
		}
		return s.pick(m)
	case phDecide:
		return s.decide(m)
	case phToast:
		return s.toastGive(m)
	case phHandGive:
		return s.handGive(m)
	case phRespond:
		return s.respond(m)
	case phCommit:
		return s.commitMove(m)
	case phAction:
		switch m.Kind {
		case KindEnd:
			if err := argc(m, 0, 0); err != nil {
				return nil, err
			}
			s.cont = contEnd
			return s.advance(), nil
		case KindAct:
			return s.action(m)
		}
		return nil, wrongMove(m, "act or end the turn")
	case phBetPick:
		return s.betPick(m)
	case phAbility:
		return s.chooseAbility(m)
	}
	return nil, wrongMove(m, "not now")
}

// --- the draft

func (s *State) pick(m engine.Move) ([]engine.Effect, error) {
	if err := argc(m, 1, 1); err != nil {
		return nil, err
	}
	it := engine.Card(m.Args[0])
	for i := range NumItems {
		if s.where[i] == inRow && s.card[i] == it {
			s.actor = m.Seat
			s.transfer([]pass{{Slot: ItemSlot0 + engine.Slot(i), From: -1, To: m.Seat}}, m.Seat)
			s.draftLeft--
			s.draftSeat = s.seatAfter(s.draftSeat, 1)
			s.cont = contDraft
			return s.advance(), nil
		}
	}
	return nil, ruleErr(m.Seat, RuleNotInRow, "the row holds no %s", CardName(it))
}

// --- a turn's draws

func (s *State) decide(m engine.Move) ([]engine.Effect, error) {
	sl := s.drawn[0]
	switch m.Kind {
	case KindKeep:
		if err := argc(m, 0, 0); err != nil {
			return nil, err
		}
		if s.dec == decSecond {
			return nil, wrongMove(m, "you kept the first card: give the second")
		}
		if s.n > 2 && s.Unmasked(m.Seat) {
			return nil, wrongMove(m, "an unmasked player keeps nothing face up: give it")
		}
		s.drawn = nil
		s.transfer([]pass{{Slot: sl, From: -1, To: m.Seat}}, m.Seat)
		if s.dec == decFirst {
			s.keptFirst = true
		}
	case KindGive:
		if err := argc(m, 1, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if err := s.checkRecipient(m.Seat, t); err != nil {
			return nil, err
		}
		s.drawn = nil
		s.transfer([]pass{{Slot: sl, From: -1, To: t}}, m.Seat)
	default:
		return nil, wrongMove(m, "keep or give the drawn item")
	}
	switch s.dec {
	case decFirst:
		s.cont = contSecond
	case decSecond:
		s.cont = contAction
	case decSearch:
		s.cont = contEnd
	}
	// decExtra: the continuation set before the extra draw stands.
	return s.advance(), nil
}

// checkRecipient checks that seat from may give an item to seat t: another
// seat, not unmasked.
func (s *State) checkRecipient(from, t engine.Seat) error {
	if t < 0 || int(t) >= s.n || t == from || s.Unmasked(t) {
		return ruleErr(from, RuleBadTarget, "cannot give to %s (yourself, unmasked, or no such player)", s.Name(t))
	}
	return nil
}

// drawTop takes up to k items from the top of the deck, refilling it from
// the discard pile when it runs out; it returns the slots and the effects
// (a shuffle by every seat of a refilled deck).
func (s *State) drawTop(k int) ([]engine.Slot, []engine.Effect) {
	var out []engine.Slot
	var eff []engine.Effect
	for range k {
		if len(s.deck) == 0 {
			var pile []engine.Slot
			for i := range NumItems {
				if s.where[i] == inDiscard {
					pile = append(pile, ItemSlot0+engine.Slot(i))
					s.where[i], s.card[i] = inDeck, 0
				}
			}
			if len(pile) == 0 {
				break
			}
			s.deck = pile
			eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: slices.Clone(pile)})
		}
		sl := s.deck[0]
		s.deck = s.deck[1:]
		out = append(out, sl)
	}
	return out, eff
}

// revealDraw draws k items face up for purpose why.
func (s *State) revealDraw(k int, why purpose) ([]engine.Effect, bool) {
	slots, eff := s.drawTop(k)
	if len(slots) == 0 {
		return eff, false
	}
	for _, sl := range slots {
		s.where[sl-ItemSlot0] = inDrawn
	}
	s.phase, s.why, s.waitSlots = phWaitReveal, why, slots
	return append(eff, engine.Effect{Kind: engine.EffectReveal, Slots: slices.Clone(slots)}), true
}

// startTurn begins seat t's turn.
func (s *State) startTurn(t engine.Seat) []engine.Effect {
	s.turn, s.actor = t, t
	s.drawNo, s.keptFirst, s.acted = 1, false, false
	if s.n > 2 && s.Unmasked(t) {
		return s.unmaskedDraw(t)
	}
	s.hinted, s.beastDone = false, false
	s.cont = contFirst
	if s.ability[t] == Cinderella && !s.hasPair(t) && len(s.MaskedSlots(t)) > 0 {
		// Modest gifts: no two equal items at the start of the turn.
		s.pending = append(s.pending, response{Seat: t, Kind: respMayDraw, Causer: t})
	}
	return s.advance()
}

// unmaskedDraw is an unmasked seat's draw: a private look at the top item
// into its hand, which it then reshuffles alone; then it gives a card.
func (s *State) unmaskedDraw(t engine.Seat) []engine.Effect {
	slots, eff := s.drawTop(1)
	for _, sl := range slots {
		s.where[sl-ItemSlot0], s.owner[sl-ItemSlot0], s.card[sl-ItemSlot0] = inHand, int8(t), 0
		eff = append(eff,
			engine.Effect{Kind: engine.EffectPeek, By: t, Slots: []engine.Slot{sl}},
			engine.Effect{Kind: engine.EffectShuffle, Seats: []engine.Seat{t}, Slots: s.Hand(t)})
	}
	if len(s.Hand(t)) == 0 && !s.canTakeBet(t) {
		s.cont = contEnd
		return append(eff, s.advance()...)
	}
	s.phase = phHandGive
	return eff
}

// hasPair reports whether seat p has two equal items in front of it.
func (s *State) hasPair(p engine.Seat) bool {
	var cnt [NumKinds]int
	for _, it := range s.Front(p) {
		if cnt[it.Item]++; cnt[it.Item] >= 2 {
			return true
		}
	}
	return false
}

func (s *State) handGive(m engine.Move) ([]engine.Effect, error) {
	if m.Kind == KindBet {
		return s.betStart(m)
	}
	if m.Kind != KindGive {
		return nil, wrongMove(m, "give a card of your hand")
	}
	if err := argc(m, 2, 2); err != nil {
		return nil, err
	}
	t, sl := engine.Seat(m.Args[0]), engine.Slot(m.Args[1])
	if err := s.checkRecipient(m.Seat, t); err != nil {
		return nil, err
	}
	if !slices.Contains(s.Hand(m.Seat), sl) {
		return nil, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not in your hand", m.Args[1])
	}
	s.passes = []pass{{Slot: sl, From: m.Seat, To: t}}
	s.phase, s.why, s.waitSlots = phWaitReveal, forHandGive, []engine.Slot{sl}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: []engine.Slot{sl}}}, nil
}

// --- moving items and the triggers they cause

// transfer moves items to seats' fronts at once, then queues the forced
// responses: 3 of a kind first (a talisman win comes first), then 2 of a
// kind, each group in turn order from the actor. From -1 is the row or a
// draw. causer gets the rose for an unmasking.
func (s *State) transfer(ps []pass, causer engine.Seat) {
	var before [5][NumKinds]int
	for p := range engine.Seat(s.n) {
		for _, it := range s.Front(p) {
			before[p][it.Item]++
		}
	}
	for _, x := range ps {
		i := x.Slot - ItemSlot0
		s.where[i], s.owner[i] = inFront, int8(x.To)
	}
	var after [5][NumKinds]int
	for p := range engine.Seat(s.n) {
		for _, it := range s.Front(p) {
			after[p][it.Item]++
		}
	}
	var boons, banes []response
	for k := range s.n {
		p := s.seatAfter(s.actor, k)
		if s.Unmasked(p) {
			continue
		}
		for _, it := range Items() {
			b, a := before[p][it], after[p][it]
			if b < 3 && a >= 3 {
				boons = append(boons, response{Seat: p, Kind: respBoon, Char: s.opts.Charms.BoonOwner(it), Causer: causer})
			}
			if b < 2 && a >= 2 {
				banes = append(banes, response{Seat: p, Kind: respBane, Char: s.opts.Charms.BaneOwner(it), Causer: causer})
			}
		}
	}
	s.pending = append(s.pending, append(boons, banes...)...)
	if !s.opts.Abilities {
		return
	}
	for _, x := range ps {
		g := x.From
		if g < 0 {
			g = causer
		}
		if g == x.To || g < 0 {
			continue
		}
		it := s.card[x.Slot-ItemSlot0]
		switch s.ability[g] {
		case EvilQueen: // True reflection
			if it == Mirror || it == Crown {
				s.pending = append(s.pending, response{Seat: x.To, Kind: respEaves, Causer: g})
			}
		case RedRidingHood: // Curiosity
			if it == Disguise || it == Treats {
				s.fx = append(s.fx, s.lookAtDeck(g)...)
			}
		}
	}
	// Power over time: six different items end the round at once.
	for k := range s.n {
		p := s.seatAfter(s.actor, k)
		if s.ability[p] != SleepingBeauty || len(s.MaskedSlots(p)) == 0 {
			continue
		}
		var kinds [NumKinds]bool
		diff := 0
		for _, it := range s.Front(p) {
			if !kinds[it.Item] {
				kinds[it.Item] = true
				diff++
			}
		}
		if diff >= 6 {
			s.roundDone, s.roundWin = true, p
			return
		}
	}
}

// lookAtDeck lets seat p view one card of the character deck (the top:
// it is random, the deck being reshuffled after every look), then every
// seat reshuffles the deck.
func (s *State) lookAtDeck(p engine.Seat) []engine.Effect {
	deck := s.CharDeck()
	return []engine.Effect{
		{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{deck[0]}},
		{Kind: engine.EffectShuffle, Slots: deck},
	}
}

// --- the flow

// advance resolves what needs no move (responses already settled, the
// end of a round, the next step of the turn) and returns the effects.
func (s *State) advance() []engine.Effect {
	eff := s.fx
	s.fx = nil
	for {
		if s.roundDone {
			return append(eff, s.endRound()...)
		}
		for len(s.pending) > 0 && s.settled(s.pending[0]) {
			s.pending = s.pending[1:]
		}
		if len(s.pending) > 0 {
			s.phase = phRespond
			return eff
		}
		switch s.cont {
		case contDraft:
			if s.draftLeft > 0 {
				s.phase = phDraft
				return eff
			}
			for i := range NumItems {
				if s.where[i] == inRow {
					s.where[i] = inDiscard
				}
			}
			s.cont = contNone
			return append(eff, s.startTurn(s.first)...)
		case contSecond:
			s.drawNo = 2
			e, ok := s.revealDraw(1, forDraw)
			eff = append(eff, e...)
			if ok {
				return eff
			}
			s.cont = contAction
		case contAction:
			if !s.acted && s.canAct(s.turn) {
				s.phase = phAction
				return eff
			}
			s.cont = contEnd
		case contFirst:
			if s.n > 2 && s.Unmasked(s.turn) {
				// Unmasked by an extra draw before the turn's own.
				s.cont = contNone
				return append(eff, s.unmaskedDraw(s.turn)...)
			}
			s.drawNo = 1
			e, ok := s.revealDraw(1, forDraw)
			eff = append(eff, e...)
			if ok {
				return eff
			}
			s.cont = contAction
		case contEnd:
			if s.ability[s.turn] == Beast && s.hinted && !s.beastDone && len(s.MaskedSlots(s.turn)) > 0 {
				// Master of the game: a hint token placed this turn earns
				// a draw at its end.
				s.beastDone = true
				e, ok := s.revealDraw(1, forExtra)
				eff = append(eff, e...)
				if ok {
					return eff
				}
			}
			s.cont = contNone
			return append(eff, s.startTurn(s.seatAfter(s.turn, 1))...)
		default:
			return eff
		}
	}
}

// settled reports whether a queued response needs no move: the seat is
// out, or the answer is already public (its hint token lies on the
// portrait, or the portrait is broken, so the seat cannot be that
// character; with 2 players, the portrait of its own unmasked character).
func (s *State) settled(r response) bool {
	if r.Kind == respMayBet {
		return !s.canTakeBet(r.Seat)
	}
	if s.Unmasked(r.Seat) {
		return true
	}
	switch r.Kind {
	case respBane, respBoon:
		return s.broken[r.Char] || s.HasToken(r.Seat, r.Char)
	case respEaves:
		return s.eavesChoices(r.Seat) == 0
	case respMayDraw:
		return len(s.deck) == 0 && len(s.Discard()) == 0
	}
	return false
}

// eavesChoices returns how many portraits seat p may place a token on
// when asked for any hint: unbroken, without p's token, less p's own
// masked characters (which are among them).
func (s *State) eavesChoices(p engine.Seat) int {
	k := 0
	for c := EvilQueen; c <= Hansel; c++ {
		if !s.broken[c] && !s.HasToken(p, c) {
			k++
		}
	}
	return max(0, k-len(s.MaskedSlots(p)))
}

// canAct reports whether seat p can pay for an action now.
func (s *State) canAct(p engine.Seat) bool {
	if len(s.MaskedSlots(p)) == 0 {
		return false
	}
	front := s.Front(p)
	if s.jewels[p] && len(front) > 0 {
		return true
	}
	var cnt [NumKinds]int
	for _, it := range front {
		if cnt[it.Item]++; cnt[it.Item] >= 2 {
			return true
		}
	}
	return false
}

// maskedSeats returns the seats with a masked character.
func (s *State) maskedSeats() []engine.Seat {
	var out []engine.Seat
	for p := range engine.Seat(s.n) {
		if !s.Unmasked(p) {
			out = append(out, p)
		}
	}
	return out
}

// --- responses

func (s *State) respond(m engine.Move) ([]engine.Effect, error) {
	r := s.pending[0]
	if r.Kind == respMayBet {
		// Bets: "либо немедленно после раскрытия, либо в любой из
		// следующих ваших ходов" — now, or on a later turn.
		switch m.Kind {
		case KindBet:
			if err := argc(m, 0, 0); err != nil {
				return nil, err
			}
			return s.betLook(m.Seat), nil // the response stays queued until the pick
		case KindEnd:
			if err := argc(m, 0, 0); err != nil {
				return nil, err
			}
			s.pending = s.pending[1:]
			return s.advance(), nil
		}
		return nil, wrongMove(m, "take a bet card now (bet), or on a later turn (end)")
	}
	if (r.Kind == respMayDraw) != (m.Kind == KindDraw || m.Kind == KindEnd) {
		if r.Kind == respMayDraw {
			return nil, wrongMove(m, "draw an item, or end to decline")
		}
		return nil, wrongMove(m, "answer with a hint, an unmasking or a win")
	}
	switch m.Kind {
	case KindHint:
		var c engine.Card
		if len(m.Args) >= 1 {
			c = engine.Card(m.Args[0])
		}
		if r.Kind == respEaves {
			if err := argc(m, 1, 1+NonceWords); err != nil {
				return nil, err
			}
			if !s.placeable(m.Seat, c) {
				return nil, ruleErr(m.Seat, RuleBadHint, "no hint token may go on %s (broken, or your token is there)", CardName(c))
			}
			if s.commit[m.Seat] {
				if len(m.Args) != 1+NonceWords {
					return nil, ruleErr(m.Seat, RuleBadCommit, "open the commitment: the hint needs its nonce")
				}
				for i, x := range m.Args[1:] {
					if x < 0 || x > 0xffff {
						// One encoding per nonce: words are 16 bits.
						return nil, ruleErr(m.Seat, RuleBadArgs, "nonce word %d out of range", i)
					}
				}
				if CommitHash(m.Seat, c, m.Args[1:]) != s.commits[m.Seat] {
					return nil, ruleErr(m.Seat, RuleBadCommit, "the hint on %s does not open the commitment", CardName(c))
				}
			} else if len(m.Args) != 1 {
				return nil, ruleErr(m.Seat, RuleBadArgs, "no commitment to open")
			}
		} else {
			if err := argc(m, 1, 1); err != nil {
				return nil, err
			}
			if c != r.Char {
				return nil, ruleErr(m.Seat, RuleBadHint, "the hint must name %s", CardName(r.Char))
			}
			if !s.placeable(m.Seat, c) {
				return nil, ruleErr(m.Seat, RuleBadHint, "no hint token may go on %s", CardName(c))
			}
		}
		s.pending = s.pending[1:]
		s.commit[m.Seat], s.commits[m.Seat] = false, [32]byte{}
		s.tokens[c] |= 1 << m.Seat
		if m.Seat == s.turn {
			s.hinted = true
		}
		if r.Kind == respGuess {
			s.roses[m.Seat]++
			switch s.ability[r.Causer] {
			case BigBadWolf: // Big eyes
				s.fx = append(s.fx, s.lookAtDeck(r.Causer)...)
			case Rumpelstiltskin: // Sly accusation
				s.pending = append([]response{{Seat: r.Causer, Kind: respMayDraw, Causer: r.Causer}}, s.pending...)
			}
		}
		return append(s.proveNot(m.Seat, c), s.advance()...), nil
	case KindUnmask:
		if r.Kind != respBane && r.Kind != respGuess {
			return nil, wrongMove(m, "nothing asks you to unmask")
		}
		sl, err := s.ownMasked(m)
		if err != nil {
			return nil, err
		}
		s.pending = s.pending[1:]
		eff := []engine.Effect{{Kind: engine.EffectProve, By: m.Seat, Slots: []engine.Slot{sl}, Cards: []engine.Card{r.Char}}}
		roses := 1
		if r.Kind == respGuess {
			roses = 2
		}
		if r.Causer != m.Seat {
			s.roses[r.Causer] += roses
		}
		eff = append(eff, s.unmask(sl, r.Char)...)
		if !s.roundDone && s.canTakeBet(m.Seat) {
			s.pending = append([]response{{Seat: m.Seat, Kind: respMayBet, Causer: m.Seat}}, s.pending...)
		}
		return append(eff, s.advance()...), nil
	case KindDraw, KindEnd:
		if err := argc(m, 0, 0); err != nil {
			return nil, err
		}
		s.pending = s.pending[1:]
		if m.Kind == KindEnd {
			return s.advance(), nil
		}
		eff, ok := s.revealDraw(1, forExtra)
		if !ok {
			return append(eff, s.advance()...), nil
		}
		return eff, nil
	case KindWin:
		if r.Kind != respBoon {
			return nil, wrongMove(m, "you do not hold 3 of a kind")
		}
		sl, err := s.ownMasked(m)
		if err != nil {
			return nil, err
		}
		s.pending = nil
		s.known[sl] = r.Char
		s.roundDone, s.roundWin = true, m.Seat
		eff := []engine.Effect{{Kind: engine.EffectProve, By: m.Seat, Slots: []engine.Slot{sl}, Cards: []engine.Card{r.Char}}}
		s.talismanWin = true
		return append(eff, s.advance()...), nil
	}
	return nil, wrongMove(m, "answer with a hint, an unmasking or a win")
}

// ownMasked reads a move's character slot argument: one of the mover's
// masked character slots (implied when it has one).
func (s *State) ownMasked(m engine.Move) (engine.Slot, error) {
	mine := s.MaskedSlots(m.Seat)
	if len(m.Args) == 0 && len(mine) == 1 {
		return mine[0], nil
	}
	if len(m.Args) != 1 {
		return 0, ruleErr(m.Seat, RuleBadArgs, "%s takes your character slot", KindName(m.Kind))
	}
	sl := engine.Slot(m.Args[0])
	if !slices.Contains(mine, sl) {
		return 0, ruleErr(m.Seat, RuleNotYourSlot, "slot %d is not one of your masked characters", m.Args[0])
	}
	return sl, nil
}

// placeable reports whether seat p may put a hint token on c.
func (s *State) placeable(p engine.Seat, c engine.Card) bool {
	return IsCharacter(c) && !s.broken[c] && !s.HasToken(p, c) && s.TokensLeft(p) > 0
}

// proveNot returns the proofs of "I am not c" for each of p's masked
// character slots.
func (s *State) proveNot(p engine.Seat, c engine.Card) []engine.Effect {
	var eff []engine.Effect
	for _, sl := range s.MaskedSlots(p) {
		eff = append(eff, engine.Effect{Kind: engine.EffectProve, By: p, Slots: []engine.Slot{sl}, Cards: []engine.Card{c}, Not: true})
	}
	return eff
}

// unmask makes character slot sl (proven to hold c) public: the portrait
// breaks, the tokens on it go back, and with 3-5 players the seat's items
// become its hidden hand. It checks the round's end.
func (s *State) unmask(sl engine.Slot, c engine.Card) []engine.Effect {
	p := s.SlotSeat(sl)
	s.known[sl], s.unmasked[sl] = c, true
	s.broken[c], s.tokens[c] = true, 0
	var eff []engine.Effect
	if s.Unmasked(p) {
		if s.n > 2 {
			front := s.Front(p)
			var slots []engine.Slot
			for _, it := range front {
				i := it.Slot - ItemSlot0
				s.where[i], s.card[i] = inHand, 0
				slots = append(slots, it.Slot)
			}
			if len(slots) > 0 {
				eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Seats: []engine.Seat{p}, Slots: slots})
			}
		}
		masked := s.maskedSeats()
		if len(masked) <= 1 {
			s.roundDone = true
			s.roundWin = -1
			if len(masked) == 1 {
				s.roundWin = masked[0]
			}
		}
	}
	return eff
}

// --- Eavesdrop commitments

// CommitHash returns the Eavesdrop commitment of seat p to a hint on
// character c with nonce (8 words of 16 bits, [NonceArgs]):
//
//	SHA-256("masque/grimm/eavesdrop/v1" || u8 seat || u8 character || nonce as 8 u16be)
func CommitHash(p engine.Seat, c engine.Card, nonce []int) [32]byte {
	h := sha256.New()
	h.Write([]byte("masque/grimm/eavesdrop/v1"))
	h.Write([]byte{byte(p), byte(c)})
	var w [2]byte
	for _, x := range nonce {
		binary.BigEndian.PutUint16(w[:], uint16(x))
		h.Write(w[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// CommitArgs returns a commitment as a KindCommit move's Args.
func CommitArgs(h [32]byte) []int {
	out := make([]int, CommitWords)
	for i := range out {
		out[i] = int(binary.BigEndian.Uint16(h[2*i:]))
	}
	return out
}

// NonceArgs returns a 16-byte nonce as 8 words for a KindHint move.
func NonceArgs(nonce [16]byte) []int {
	out := make([]int, NonceWords)
	for i := range out {
		out[i] = int(binary.BigEndian.Uint16(nonce[2*i:]))
	}
	return out
}

func (s *State) commitMove(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindCommit {
		return nil, wrongMove(m, "commit to a portrait first")
	}
	if err := argc(m, CommitWords, CommitWords); err != nil {
		return nil, err
	}
	var h [32]byte
	for i, x := range m.Args {
		if x < 0 || x > 0xffff {
			return nil, ruleErr(m.Seat, RuleBadArgs, "commitment word %d out of range", i)
		}
		binary.BigEndian.PutUint16(h[2*i:], uint16(x))
	}
	s.commits[m.Seat], s.commit[m.Seat] = h, true
	for _, p := range s.eaves {
		if !s.commit[p] {
			return nil, nil
		}
	}
	for _, p := range s.eaves {
		s.pending = append(s.pending, response{Seat: p, Kind: respEaves, Causer: s.actor})
	}
	s.eaves = nil
	return s.advance(), nil
}
