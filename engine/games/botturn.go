package games

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

// MaxBotMoves stops the bots of a game that would play forever (a
// 5-player Grimm game takes a few hundred moves, a 13-player Mascarade
// game a few thousand at most).
const MaxBotMoves = 20000

// BotTurn returns the move bot b makes for the seat of pl, whose replica
// is t, with the secret bit of each hidden swap the move causes, in
// effect order: every session runs a bot's turn with it. The bot first
// sees what its seat knows ([NightBot.See]); it chooses from the cards
// its seat knows when it can ([KnowingBot]), else from the rules state
// and what it observed. An error names the move the bot got wrong.
func BotTurn(g Rules, b Bot, pl *table.Player, t *table.Table) (engine.Move, []bool, error) {
	s := t.Rules()
	if s == nil {
		return engine.Move{}, nil, errors.New("a move is expected before the game started")
	}
	if nb, ok := b.(NightBot); ok {
		nb.See(pl, t)
	}
	var (
		m    engine.Move
		bits []bool
		ok   bool
	)
	if kb, is := b.(KnowingBot); is {
		m, bits, ok = kb.ChooseKnowing(s, pl.Known(t))
	} else {
		m, bits, ok = b.Choose(s)
	}
	if !ok {
		return engine.Move{}, nil, errors.New("the bot has no legal move")
	}
	m.Seat = engine.Seat(pl.Seat)
	_, effects, err := s.Apply(m)
	if err != nil {
		return engine.Move{}, nil, fmt.Errorf("the bot chose %s: %w", g.FormatMove(s, m), err)
	}
	var swaps []bool
	for _, ef := range effects {
		if ef.Kind != engine.EffectSwap {
			continue
		}
		if len(bits) == 0 {
			return engine.Move{}, nil, fmt.Errorf("the bot chose %s without its swap bits", g.FormatMove(s, m))
		}
		swaps, bits = append(swaps, bits[0]), bits[1:]
	}
	return m, swaps, nil
}
