package registry

import "github.com/masque-games/masque/engine/games"

// The words for the two Mascarade editions, until their packages describe
// themselves (games.Describer on their Game, as engine/grimm and
// engine/mafia do); then these go and All lists the games bare.

var mascaradeAbout = games.About{
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
		"  game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\n" +
		"  Anna swap Boris yes\n" +
		"  Boris swap centre1 no\n" +
		"  Sasha swap Dima no\n" +
		"  Dima swap Anna no\n" +
		"  Anna claim King\n" +
		"  Boris challenge",
}

var mascarade2About = games.About{
	Summary: "The 2nd edition of Mascarade, for 4 to 12: the same bluff with its " +
		"own masks (Princess, Puppeteer, Swindler, Patron, ...) chosen by a " +
		"scenario, masks in the middle with 4 or 5 players, and 13 coins to win.",
	Hides: "As the 1st edition: every mask once the game starts and whether each " +
		"swap was real; also which card a Princess showed, and to whom.",
	Setup: "A scenario FILE is 'key: value' lines with '#' comments, " +
		"checked against the book's constraints (docs/rules-mascarade2.md):\n" +
		"\n" +
		"  # my box's sheet 6A\n" +
		"  name: sheet-6a\n" +
		"  players: 6\n" +
		"  masks: Judge, Empress, King, Princess, Puppeteer, Swindler",
	Script: "as Mascarade, with the header 'game mascarade2 players=NAMES " +
		"[scenario=NAME|FILE | set=MASKS] [deal=MASKS] [coins=N]' " +
		"(docs/rules-mascarade2.md).",
}
