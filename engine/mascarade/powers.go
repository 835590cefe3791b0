package mascarade

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// rules gives the shared core ([masquerade.Core]) what it asks of this
// edition: the seating, the slots and the powers.
type rules struct{ *State }

func (r rules) SeatAfter(p engine.Seat, k int) engine.Seat { return r.seatAfter(p, k) }

func (r rules) Owns(p engine.Seat, t engine.Slot) bool {
	return r.layout.valid(t) && r.layout.owns(p, t)
}

func (r rules) Shared() bool { return r.core.Claimed == Peasant }

func (r rules) CardOf(p engine.Seat) engine.Slot { return r.layout.slotOf(p, 0) }

func (r rules) Cards() *masquerade.Catalogue { return catalogue }

func (r rules) PlayTurn(m engine.Move) ([]engine.Effect, error) { return r.playTurn(m) }

func (r rules) PlayUse(m engine.Move) ([]engine.Effect, error) { return r.playUse(m) }

// Power uses owner c's power if it needs no choice, and reports whether c
// must choose.
func (r rules) Power(c Contender) bool {
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
	case Fool, Witch, Spy, Inquisitor:
		return true
	case Bishop:
		return len(s.Richest(c.Seat)) > 1
	}
	return false
}

// autoPower applies a power that needs no choice.
func (s *State) autoPower(c Contender) {
	p := c.Seat
	switch s.core.Claimed {
	case Judge:
		s.core.Purse[p] += s.core.CourtCoins
		s.core.CourtCoins = 0
	case Bishop:
		masquerade.Transfer(&s.core.Purse[s.Richest(p)[0]], &s.core.Purse[p], 2)
	case King:
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], 3)
	case Queen:
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], 2)
	case Thief:
		for _, nb := range s.neighbours(p) {
			masquerade.Transfer(&s.core.Purse[nb], &s.core.Purse[p], 1)
		}
	case Cheat:
		if s.core.Purse[p] >= CheatCoins {
			masquerade.Finish(&s.core, []engine.Seat{p})
		}
	case Widow:
		if s.core.Purse[p] < WidowCoins {
			masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[p], WidowCoins-s.core.Purse[p])
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
		return nil, wrongMove(m, "use the "+CardName(s.core.Claimed))
	}
	u := s.core.User
	l := s.layout
	var eff []engine.Effect
	switch s.core.Claimed {
	case Bishop:
		if err := masquerade.TakeFromRichest(&s.core, m, 2, "Bishop", RuleNotRichest); err != nil {
			return nil, err
		}
	case Witch:
		// The Witch "may" exchange purses: NoTarget keeps her own.
		if err := masquerade.ExchangePurses(&s.core, m, NoTarget, "Witch"); err != nil {
			return nil, err
		}
	case Fool:
		if err := argc(m, 2); err != nil {
			return nil, err
		}
		a, b := engine.Slot(m.Args[0]), engine.Slot(m.Args[1])
		if !s.foolPair(u.Seat, a, b) {
			return nil, ruleErr(m.Seat, RuleBadTarget, "the Fool swaps two cards of other players (no centre, no guard, two different players)")
		}
		masquerade.Transfer(&s.core.BankCoins, &s.core.Purse[u.Seat], 1)
		eff = []engine.Effect{{Kind: engine.EffectSwap, By: u.Seat, Slots: []engine.Slot{a, b}}}
	case Spy:
		return masquerade.SpyLook(&s.core, m, func(t engine.Slot) bool { return l.swapTarget(u.Seat, t) }, "looks at another player's card or a centre card (not a guard)")
	case Inquisitor:
		return nil, masquerade.Question(&s.core, m, "Inquisitor")
	default:
		return nil, wrongMove(m, "this power needs no choice")
	}
	masquerade.Continue(&s.core, rules{s})
	return eff, nil
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
