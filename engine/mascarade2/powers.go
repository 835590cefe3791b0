package mascarade2

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// rules gives the shared core ([masquerade.Core]) what it asks of this
// edition: the chairs, the slots and the powers.
type rules struct{ *State }

func (r rules) SeatAfter(p engine.Seat, k int) engine.Seat { return r.seatAfter(p, k) }

func (r rules) Owns(p engine.Seat, t engine.Slot) bool { return r.owns(p, t) }

func (r rules) Shared() bool { return r.core.Claimed == Peasant }

func (r rules) CardOf(p engine.Seat) engine.Slot { return r.SlotOf(p) }

func (r rules) Cards() *masquerade.Catalogue { return catalogue }

func (r rules) PlayTurn(m engine.Move) ([]engine.Effect, error) { return r.playTurn(m) }

func (r rules) PlayUse(m engine.Move) ([]engine.Effect, error) { return r.playUse(m) }

// Power uses owner c's power as far as it goes without a choice, and
// reports whether c must choose. The Princess and the Fool take their
// coins first, then choose.
func (r rules) Power(c Contender) bool {
	switch r.core.Claimed {
	case Princess:
		masquerade.Transfer(&r.core.BankCoins, &r.core.Purse[c.Seat], PrincessCoins)
	case Fool:
		masquerade.Transfer(&r.core.BankCoins, &r.core.Purse[c.Seat], FoolCoins)
	}
	if r.needsChoice(c) {
		return true
	}
	r.autoPower(c)
	return false
}

// needsChoice reports whether owner c must make a public choice to use the
// claimed power.
func (s *State) needsChoice(c Contender) bool {
	switch s.core.Claimed {
	case Fool, Spy, Guru, Puppeteer, Princess, Sorceress:
		return true
	case Swindler:
		return len(s.Richest(c.Seat)) > 1
	}
	return false
}

// autoPower applies a power that needs no choice.
func (s *State) autoPower(c Contender) {
	p := c.Seat
	switch s.core.Claimed {
	case Empress:
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], EmpressCoins)
	case King:
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], KingCoins)
	case Widow:
		if s.core.Purse[p] < WidowCoins {
			masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], WidowCoins-s.core.Purse[p])
		}
	case Judge:
		s.core.Purse[p] += s.core.CourtCoins
		s.core.CourtCoins = 0
	case Thief:
		masquerade.Transfer(&s.core.Purse[s.seatAfter(p, -1)], &s.core.Purse[p], 1)
		masquerade.Transfer(&s.core.Purse[s.seatAfter(p, 1)], &s.core.Purse[p], 1)
	case Beggar:
		// Clockwise from the left, each player richer than the Beggar at
		// that moment gives one coin.
		for k := 1; k < s.Players(); k++ {
			q := s.seatAfter(p, k)
			if s.core.Purse[q] > s.core.Purse[p] {
				masquerade.Transfer(&s.core.Purse[q], &s.core.Purse[p], 1)
			}
		}
	case Patron:
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], PatronCoins)
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[s.seatAfter(p, 1)], PatronGift)
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[s.seatAfter(p, -1)], PatronGift)
	case Cheater:
		if s.core.Purse[p] >= CheaterCoins {
			masquerade.Finish(&s.core, []engine.Seat{p})
		}
	case Swindler:
		masquerade.Transfer(&s.core.Purse[s.Richest(p)[0]], &s.core.Purse[p], SwindlerTake)
	}
}

// playUse applies an owner's choice for the power being resolved.
func (s *State) playUse(m engine.Move) ([]engine.Effect, error) {
	if m.Kind != KindUse {
		return nil, wrongMove(m, "use the "+CardName(s.core.Claimed))
	}
	u := s.core.User
	var eff []engine.Effect
	switch s.core.Claimed {
	case Swindler:
		if err := masquerade.TakeFromRichest(&s.core, m, SwindlerTake, "Swindler", RuleNotRichest); err != nil {
			return nil, err
		}
	case Sorceress:
		// The Sorceress "may" exchange purses: NoTarget keeps her own.
		if err := masquerade.ExchangePurses(&s.core, m, NoTarget, "Sorceress"); err != nil {
			return nil, err
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
		return masquerade.SpyLook(&s.core, m, func(t engine.Slot) bool { return s.playerCard(u.Seat, t) }, "chooses another player's card (not the middle)")
	case Guru:
		return nil, masquerade.Question(&s.core, m, "Guru")
	case Princess:
		if err := argc(m, 1); err != nil {
			return nil, err
		}
		t := engine.Seat(m.Args[0])
		if !s.OtherSeat(u.Seat, t) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Princess chooses another player")
		}
		eff = []engine.Effect{{Kind: engine.EffectShowOthers, By: u.Seat, Except: t, Slots: []engine.Slot{s.SlotOf(t)}}}
	case Puppeteer:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Seat(m.Args[0]), engine.Seat(m.Args[1])
		if a == b || !s.OtherSeat(u.Seat, a) || !s.OtherSeat(u.Seat, b) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Puppeteer chooses two other players")
		}
		masquerade.Transfer(&s.core.Purse[a], &s.core.Purse[u.Seat], PuppeteerTake)
		masquerade.Transfer(&s.core.Purse[b], &s.core.Purse[u.Seat], PuppeteerTake)
		if masquerade.CheckEnd(&s.core) {
			return nil, nil // the game ends before they change seats
		}
		s.exchangeChairs(a, b)
	default:
		return nil, wrongMove(m, "this power needs no choice")
	}
	masquerade.Continue(&s.core, rules{s})
	return eff, nil
}

// exchangeChairs makes seats a and b change chairs. Their cards and purses
// stay on the table: a now has the card and the coins in front of b's old
// chair, and the other way round.
func (s *State) exchangeChairs(a, b engine.Seat) {
	ca, cb := s.chairOf[a], s.chairOf[b]
	s.seatAt[ca], s.seatAt[cb] = b, a
	s.chairOf[a], s.chairOf[b] = cb, ca
	s.core.Purse[a], s.core.Purse[b] = s.core.Purse[b], s.core.Purse[a]
}

// foolPair reports whether the Fool at seat p may swap slots a and b: the
// cards of two different other players (no middle card, not the Fool's).
func (s *State) foolPair(p engine.Seat, a, b engine.Slot) bool {
	return a != b && s.playerCard(p, a) && s.playerCard(p, b)
}
