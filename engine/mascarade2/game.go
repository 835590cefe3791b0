package mascarade2

import (
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
)

// GameName is the game's name in rosters.
const GameName = "mascarade2"

// Game binds Mascarade (2nd edition) to the table layer (engine/table's
// Game interface): options travel as their canonical encoding
// ([Options.MarshalBinary]). It also implements the game contract
// ([games.Rules]), its setup a scenario; the bot package adds the bot.
// Its methods are the family's ([masquerade.Game]).
type Game = masquerade.Game[Options, ed]

// Setup is a table's setup: the masks in play (nil: the default scenario
// for the player count) and the purse (0: the book's).
type Setup = masquerade.Setup[Options, ed]

var (
	_ table.Game  = Game{}
	_ games.Rules = Game{}
)
