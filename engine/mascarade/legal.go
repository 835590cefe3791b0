package mascarade

import (
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// LegalMoves enumerates every move seat p may make now (without secret
// bits: each swap-like move may be played with either bit). It returns nil
// when the rules do not wait for a move by p.
func (s *State) LegalMoves(p engine.Seat) []engine.Move {
	need := s.Next()
	if need.Kind != engine.NeedMove || need.Seat != p {
		return nil
	}
	l := s.layout
	mine := s.SlotsOf(p)
	var out []engine.Move
	add := func(kind uint8, args ...int) {
		out = append(out, engine.Move{Seat: p, Kind: kind, Args: args})
	}
	switch s.core.Phase {
	case masquerade.PhaseTurn:
		for _, own := range mine {
			for t := range engine.Slot(l.slots()) {
				if l.swapTarget(p, t) || (own < t && l.ownPair(p, own, t)) {
					add(KindSwap, int(own), int(t))
				}
			}
		}
		if s.MustSwap(p) {
			return out
		}
		for _, own := range mine {
			add(KindPeek, int(own))
		}
		for _, c := range slices.Compact(slices.Clone(s.opts.Set)) {
			for _, own := range mine {
				if l.claimable(p, own) {
					add(KindClaim, int(c), int(own))
				}
			}
		}
	case masquerade.PhaseRespond:
		add(KindPass)
		for _, own := range mine {
			add(KindChallenge, int(own))
		}
	case masquerade.PhaseUse:
		u := s.core.User
		switch s.core.Claimed {
		case Bishop:
			for _, t := range s.Richest(u.Seat) {
				add(KindUse, int(t))
			}
		case Witch, Inquisitor:
			if s.core.Claimed == Witch {
				add(KindUse, NoTarget)
			}
			for t := range engine.Seat(s.Players()) {
				if t != u.Seat {
					add(KindUse, int(t))
				}
			}
		case Fool:
			for a := range engine.Slot(l.slots()) {
				for b := a + 1; int(b) < l.slots(); b++ {
					if s.foolPair(u.Seat, a, b) {
						add(KindUse, int(a), int(b))
					}
				}
			}
		case Spy:
			for t := range engine.Slot(l.slots()) {
				if l.swapTarget(u.Seat, t) {
					add(KindUse, int(t))
				}
			}
		}
	case masquerade.PhaseSpySwap:
		add(KindUse)
	case masquerade.PhaseGuess:
		for _, c := range slices.Compact(slices.Clone(s.opts.Set)) {
			add(KindGuess, int(c))
		}
	}
	return out
}
