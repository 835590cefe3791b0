package grimm

import "github.com/masque-games/masque/engine/games"

var _ games.Describer = Game{}

// About describes The Grimm Masquerade for people ('masque help games').
func (Game) About() games.About {
	return games.About{
		Summary: "Each player is secretly a fairy-tale character. Over three rounds " +
			"players draft items and play action cards, answer with hints about " +
			"who they are, and unmask each other; roses are scored, and the most " +
			"roses after round 3 (or once someone has 10) win.",
		Hides: "Each player's character (only its owner saw it) and the items in " +
			"their hand. A hint is proven against the hint-giver's own character, " +
			"so nobody can lie; an unmasking reveals the character.",
		Script: "a header 'game grimm players=NAMES [variants=bets,jewels,abilities]', " +
			"'round N chars=... items=... actions=A,B first=NAME' lines that fix a " +
			"round's deal in the table's options (verify and replay then warn: fixed " +
			"deal), then NAME VERB lines (pick ITEM, keep, give NAME, act ACTION ITEM " +
			"ARGS, end, hint CHARACTER, unmask, win, commit CHARACTER, bet, draw, " +
			"choose CHARACTER; docs/rules-grimm.md) and 'expect KEY=VALUE' checks.",
	}
}
