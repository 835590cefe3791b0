package mascarade

import "github.com/masque-games/masque/engine/games"

// about describes the edition for people ('masque help games').
var about = games.About{
	Summary: "Each player has a character card, face down after the first look. " +
		"On your turn you swap your card with another's (or pretend to: only " +
		"you know which), look at your own, or claim a character to use its " +
		"power, which others may challenge by claiming it too. 13 coins win; " +
		"a player at 0 coins ends the game and the richest win.",
	Hides: "Every card once the game starts, and whether each swap was real or " +
		"pretended (a swap is proven either way); a peek shows a card to its " +
		"owner alone; a claim that is challenged reveals the cards of everyone " +
		"who claimed.",
	Script: "a header 'game mascarade players=NAMES [deal=CARDS] [set=CARDS] [coins=N]' " +
		"(deal= face up, in seat order, then centre1, centre2; set= a custom set), " +
		"then NAME VERB lines: swap TARGET yes|no, peek, claim CHARACTER, challenge, " +
		"pass (responders not listed pass), use target=NAME | between=NAME,NAME | " +
		"with=SLOT | swap=yes|no, guess CHARACTER. For example:\n" +
		"\n" +
		"  # comments start with '#'\n" +
		"  game mascarade players=Ann,Bob,Sam,Di deal=Queen,Thief,King,Judge,Bishop,Cheat\n" +
		"  Ann swap Bob yes\n" +
		"  Bob swap centre1 no\n" +
		"  Sam swap Di no\n" +
		"  Di swap Ann no\n" +
		"  Ann claim King\n" +
		"  Bob challenge",
}
