package mafia

import "github.com/masque-games/masque/engine/games"

var _ games.Describer = Game{}

// About describes Mafia for people ('masque help games').
func (Game) About() games.About {
	return games.About{
		Summary: "The mafia, who know each other, against the civilians, with no " +
			"moderator. By night the mafia and the special roles (Commissar, Nurse, " +
			"Butterfly, Don, Madman) act in secret; by day everyone votes a player " +
			"out, and incident cards can turn the vote. The civilians win when every " +
			"mafia member is out, the mafia when at most one civilian is left.",
		Hides: "Every role (the mafia recognise each other, nobody else learns a " +
			"role until its player is out), every night's choices (proven ballots, " +
			"of which only the tally the rules need is opened), the Commissar's " +
			"answers and the incident cards in hand.",
		Script: "a header 'game mafia players=NAMES [specials=ROLES] [incidents=off] " +
			"[tie=draw] [roles=ROLES] [deck=CARDS]' (roles= and deck= fix the deal), " +
			"then NAME hold yes|no, NAME vote NAME|abstain, NAME play CARD, NAME pass, " +
			"NAME leave, the night's secret choices NAME kill|save|date|check NAME " +
			"(posted as each seat's proven actions entry when the next line that is " +
			"not a night choice comes; a seat without one posts an empty choice) and " +
			"'expect KEY=VALUE' checks (docs/rules-mafia.md). 'coin NAME' lines fix a " +
			"joint coin: only the rules' fake table can, so 'masque script' refuses them.",
	}
}
