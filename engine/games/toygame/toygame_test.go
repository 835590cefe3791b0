package toygame_test

import (
	"testing"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/games/toygame"
)

// TestContract runs the contract suite every registered game passes on
// the toy game, made as a registry line makes a game.
func TestContract(t *testing.T) {
	g := games.WithView(games.WithBot(toygame.Game{}, toygame.NewBot), toygame.Viewer())
	gametest.Run(t, g, gametest.Config{Playouts: []int{2, 5}, Seed: 1})
}
