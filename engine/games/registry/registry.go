// Package registry lists the games masque knows: the one package that
// imports every game, so that the command line, the sessions and the
// replay and verify glue find a game by its name and switch on none.
//
// Adding a game is one entry in [All] plus the game's package.
package registry

import (
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
	gbot "github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/mafia"
	mafiabot "github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/mascarade"
	mbot "github.com/masque-games/masque/engine/mascarade/bot"
	"github.com/masque-games/masque/engine/mascarade2"
	m2bot "github.com/masque-games/masque/engine/mascarade2/bot"
)

// All returns the games masque knows, the default (mascarade) first, in
// the order the command line lists them. Each call returns a new slice.
func All() []games.Game {
	return []games.Game{
		games.WithAbout(games.WithBot(mascarade.Game{}, mbot.NewBot), mascaradeAbout),
		games.WithAbout(games.WithBot(mascarade2.Game{}, m2bot.NewBot), mascarade2About),
		games.WithBot(grimm.Game{}, gbot.NewBot),
		games.WithBot(mafia.Game{}, mafiabot.NewBot),
	}
}

// Default is the game played when none is named.
const Default = mascarade.GameName

// Lookup returns the known game called name (a roster's game).
func Lookup(name string) (games.Game, error) { return games.Lookup(All(), name) }

// Names returns the names of the known games, in order.
func Names() []string { return games.Names(All()) }
