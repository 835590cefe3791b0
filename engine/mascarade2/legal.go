package mascarade2

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
	own := s.SlotOf(p)
	n := engine.Slot(s.Slots())
	var out []engine.Move
	add := func(kind uint8, args ...int) {
		out = append(out, engine.Move{Seat: p, Kind: kind, Args: args})
	}
	others := func() {
		for t := range engine.Seat(s.Players()) {
			if t != s.core.User.Seat {
				add(KindUse, int(t))
			}
		}
	}
	switch s.core.Phase {
	case masquerade.PhaseTurn:
		for t := range n {
			if s.swapTarget(p, t) {
				add(KindSwap, int(own), int(t))
			}
		}
		if s.Preparatory() {
			return out
		}
		add(KindPeek, int(own))
		if s.MayClaim(p) {
			for _, c := range slices.Compact(slices.Clone(s.opts.Set)) {
				add(KindClaim, int(c), int(own))
			}
		}
	case masquerade.PhaseRespond:
		add(KindPass)
		add(KindChallenge, int(own))
	case masquerade.PhaseUse:
		u := s.core.User
		switch s.core.Claimed {
		case Swindler:
			for _, t := range s.Richest(u.Seat) {
				add(KindUse, int(t))
			}
		case Sorceress:
			add(KindUse, NoTarget)
			others()
		case Guru, Princess:
			others()
		case Fool:
			for a := range n {
				for b := a + 1; b < n; b++ {
					if s.foolPair(u.Seat, a, b) {
						add(KindUse, int(a), int(b))
					}
				}
			}
		case Spy:
			for t := range n {
				if s.playerCard(u.Seat, t) {
					add(KindUse, int(t))
				}
			}
		case Puppeteer:
			for a := range engine.Seat(s.Players()) {
				for b := a + 1; int(b) < s.Players(); b++ {
					if a != u.Seat && b != u.Seat {
						add(KindUse, int(a), int(b))
					}
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
