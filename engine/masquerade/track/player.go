package track

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// EditionBot is an edition's bot over its own state type S.
type EditionBot[S engine.State] interface {
	Choose(s S) (m engine.Move, swap bool, ok bool)
	Observe(o Observation)
}

// Player returns b as the game contract's bot ([games.Bot]): it chooses
// in states of type S only, and gives the secret swap bit of the moves
// that carry one (hasSecretSwap).
func Player[S engine.State](b EditionBot[S], hasSecretSwap func(s S, m engine.Move) bool) games.Bot {
	return player[S]{b, hasSecretSwap}
}

type player[S engine.State] struct {
	b             EditionBot[S]
	hasSecretSwap func(s S, m engine.Move) bool
}

func (p player[S]) Choose(s engine.State) (engine.Move, []bool, bool) {
	st, ok := s.(S)
	if !ok {
		return engine.Move{}, nil, false
	}
	m, swap, ok := p.b.Choose(st)
	if !ok {
		return engine.Move{}, nil, false
	}
	if p.hasSecretSwap(st, m) {
		return m, []bool{swap}, true
	}
	return m, nil, true
}

func (p player[S]) Observe(o Observation) { p.b.Observe(o) }
