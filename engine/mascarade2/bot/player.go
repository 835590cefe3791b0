package bot

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// NewBot is the game contract's bot ([games.BotMaker]): [New] for a state
// of this game, its secret swap bits given with its moves.
func NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	st, ok := s.(*mascarade2.State)
	if !ok || st == nil {
		return nil, fmt.Errorf("mascarade2 bot: the rules state is %T, not the game's", s)
	}
	return track.Player(New(st, seat, seed), mascarade2.HasSecretSwap), nil
}
