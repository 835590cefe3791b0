package seatview

import (
	"errors"

	"github.com/masque-games/masque/engine"
)

// Play is what a seat does for a choice it took: a move with the secret
// bits of the hidden swaps it causes, or a secret night choice; Skip:
// nothing (a confirmation answered no).
type Play struct {
	Move  engine.Move
	Bits  []bool
	Night *Night // set for a night choice: a screen gives it to its session, never as a move
	Skip  bool
}

// Answers to a choice's confirmation ([Choice.Confirm]).
const (
	Yes = "yes"
	No  = "no"
)

// Play returns what taking c does with answer, the player's answer to its
// confirmation ([Yes], [No], or "" when none was asked): every screen
// plays a choice so. A secret choice needs its answer, which is its
// secret bit (no: the swap is pretended); any other confirmation answered
// otherwise than yes plays nothing.
func (c Choice) Play(answer string) (Play, error) {
	switch {
	case c.Secret && (answer == Yes || answer == No):
		return Play{Move: c.Move, Bits: []bool{answer == Yes}, Night: c.Night}, nil
	case c.Secret:
		return Play{}, errors.New("a hidden swap needs its answer: really swap, yes or no")
	case c.Confirm != "" && answer != Yes:
		return Play{Skip: true}, nil
	}
	return Play{Move: c.Move, Night: c.Night}, nil
}

// PassIndex returns the index of the choice among cs that lets the
// decision go ([Choice.Pass]: a screen plays it on its own key, and when
// an answer window runs out), or -1.
func PassIndex(cs []Choice) int {
	for i, c := range cs {
		if c.Pass {
			return i
		}
	}
	return -1
}
