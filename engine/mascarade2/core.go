package mascarade2

import (
	"github.com/masque-games/masque/engine"
)

// The public accessors of the shared core ([masquerade.Core]). State keeps
// its core in an unexported field, so that the core's fields (the rules'
// working state) cannot be reached, let alone written, from other
// packages; these methods forward the core's read-only accessors. Those
// returning slices return copies.

// Coins returns seat p's purse.
func (s *State) Coins(p engine.Seat) int { return s.core.Coins(p) }

// AllCoins returns every seat's purse, in seat order.
func (s *State) AllCoins() []int { return s.core.AllCoins() }

// Court returns the coins in the courthouse.
func (s *State) Court() int { return s.core.Court() }

// Bank returns the coins in the bank.
func (s *State) Bank() int { return s.core.Bank() }

// Total returns bank + purses + court, which is always the coins of the
// box.
func (s *State) Total() int { return s.core.Total() }

// Turn returns the 1-based number of the current turn.
func (s *State) Turn() int { return s.core.Turn() }

// Preparatory reports whether the current turn is one of the opening
// turns, in which a player may only swap or pretend to.
func (s *State) Preparatory() bool { return s.core.Preparatory() }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.core.Over() }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (s *State) Winners() []engine.Seat { return s.core.Winners() }

// LastRevealed returns the cards of the most recent reveal (a challenge or
// a question), in reveal order.
func (s *State) LastRevealed() []engine.Fact { return s.core.LastRevealed() }

// Claim returns the card claimed in the current turn, with the claimant
// and challengers so far, or ok=false if no claim is open.
func (s *State) Claim() (card engine.Card, contenders []Contender, ok bool) {
	return s.core.Claim()
}

// InChallengeWindow reports whether the rules wait for a responder to
// challenge or pass.
func (s *State) InChallengeWindow() bool { return s.core.InChallengeWindow() }

// Resolving returns the owner who must now choose how to use the power
// (phase "use"), or ok=false.
func (s *State) Resolving() (Contender, bool) { return s.core.Resolving() }

// SpyDeciding returns the Spy and the other slot it looked at when the
// Spy, having seen both cards, must now swap them or not; ok=false
// otherwise.
func (s *State) SpyDeciding() (spy Contender, other engine.Slot, ok bool) {
	return s.core.SpyDeciding()
}

// Questioned returns the seat that must name its card, or ok=false.
func (s *State) Questioned() (engine.Seat, bool) { return s.core.Questioned() }

// PendingReveal returns the slots whose facts the rules wait for, in
// order, or nil.
func (s *State) PendingReveal() []engine.Slot { return s.core.PendingReveal() }

// OtherSeat reports whether t is a seat other than me.
func (s *State) OtherSeat(me, t engine.Seat) bool { return s.core.OtherSeat(me, t) }

// Richest returns the seats with the most coins, leaving out seat except,
// in seat order.
func (s *State) Richest(except engine.Seat) []engine.Seat { return s.core.Richest(except) }
