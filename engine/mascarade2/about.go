package mascarade2

import "github.com/masque-games/masque/engine/games"

// about describes the edition for people ('masque help games').
var about = games.About{
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
