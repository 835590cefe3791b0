package bot

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// Mask is a set of cards: bit c is set if card c may be there.
type Mask = track.Mask

// Observation is what one seat learns from one step of the game (a move
// and the reveals it led to).
type Observation = track.Observation

// Tracker is one seat's knowledge of where the cards are.
type Tracker = track.Tracker

// NewTracker starts from the face-up deal of s.
func NewTracker(s *mascarade.State, seat engine.Seat) *Tracker {
	return track.NewTracker(s.Deal(), seat)
}
