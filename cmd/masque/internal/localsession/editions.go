package localsession

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/cmd/masque/internal/narrate"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade/track"
	"github.com/masque-games/masque/engine/table"
)

// Bot is a bot of either edition behind one interface: it chooses the
// seat's moves from the rules state ([narrate.Rules]) and learns from every
// completed step what its seat saw. Networked seats (netsession) use it too.
type Bot interface {
	Choose(s narrate.Rules) (m engine.Move, swap bool, ok bool)
	Observe(o track.Observation)
}

// Edition is what a table of one game needs: the game's table binding,
// the encoding of its options and its bot.
type Edition struct {
	Name string
	Game table.Game
	// Options encodes the game's options for the seated names (set nil:
	// the default cards; coins 0: the book's purse), checked.
	Options func(names []string, set []engine.Card, coins int) ([]byte, error)
	// Bot returns the bot of seat, created at the deal (s is the edition's
	// rules state).
	Bot func(s engine.State, seat engine.Seat, seed uint64) Bot
}

// EditionOf returns the edition called game (a roster's game name).
func EditionOf(game string) (Edition, error) {
	ed, ok := editions[game]
	if !ok {
		return Edition{}, fmt.Errorf("unknown game %q (%s)", game, strings.Join(Games(), ", "))
	}
	return Edition{Name: game, Game: ed.game, Options: ed.options,
		Bot: func(s engine.State, seat engine.Seat, seed uint64) Bot {
			if r, ok := narrate.RulesOf(s); ok {
				s = r.Raw()
			}
			return ed.bot(s, seat, seed)
		}}, nil
}
