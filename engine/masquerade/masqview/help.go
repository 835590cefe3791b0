package masqview

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// firstPowers and secondPowers say each character's power in a few
// words, by name, in the 1st and the 2nd edition (the rule books' powers
// as docs/rules-mascarade*.md settles them).
var firstPowers = map[string]string{
	"Judge":      "takes every coin in the courthouse",
	"Bishop":     "takes 2 coins from the richest other player",
	"King":       "takes 3 coins from the bank",
	"Fool":       "takes 1 coin from the bank, then exchanges (or only pretends to) two other players' cards",
	"Queen":      "takes 2 coins from the bank",
	"Thief":      "takes 1 coin from each neighbour",
	"Witch":      "exchanges her whole purse with another player's (or keeps hers)",
	"Spy":        "looks at its own card and another card, then exchanges them or not",
	"Peasant":    "takes 1 coin from the bank (2 each if both Peasants are revealed)",
	"Cheat":      "wins the game at once with 10 coins or more",
	"Inquisitor": "makes another player name their card; a wrong name pays the Inquisitor 4 coins",
	"Widow":      "takes coins from the bank until she has 10",
}

var secondPowers = map[string]string{
	"Empress":   "takes 3 coins from the bank",
	"Widow":     "takes coins from the bank until she has 10",
	"Guru":      "makes another player name their mask; a wrong name pays the Guru 4 coins",
	"Beggar":    "every richer player, clockwise, gives the Beggar 1 coin",
	"King":      "takes 2 coins from the bank",
	"Thief":     "takes 1 coin from each neighbour",
	"Fool":      "takes 1 coin from the bank, then exchanges (or only pretends to) two other players' cards",
	"Judge":     "takes every coin in the courthouse",
	"Spy":       "looks at its own card and another player's, then exchanges them or not",
	"Puppeteer": "takes 1 coin from each of two other players, who then change chairs; the cards and purses stay on the table, in front of the chairs",
	"Princess":  "takes 2 coins, then shows another player's card to everyone but its owner",
	"Sorceress": "may exchange her whole purse with another player's",
	"Patron":    "takes 3 coins from the bank; each neighbour takes 1",
	"Cheater":   "wins the game at once with 10 coins or more",
	"Peasant":   "takes 1 coin from the bank (2 each if both Peasants are revealed)",
	"Swindler":  "takes 2 coins from the richest other player",
}

// InPlay lists the characters of the deal, once each, in card order.
func InPlay(s Rules) []engine.Card {
	out := slices.Clone(s.Deal())
	slices.Sort(out)
	return slices.Compact(out)
}

// HowToPlay is the rules in a few lines, for a first-time player.
func HowToPlay(s Rules) []string {
	lines := []string{
		"Everyone starts with the same purse; the first to 13 coins wins (or the richest when someone has none left).",
		"Cards are dealt face up, then hidden: after swaps nobody is sure what they hold.",
		"On your turn, do one of:",
		"  swap: exchange your card with another, or only pretend to (nobody else knows which);",
		"  look at your card, in secret;",
		"  claim a character: say \"I am the King\", whatever your card is.",
		"A claim goes round the table: each player passes, or challenges. To challenge is to say \"no, I am the King\": you claim it too. With no challenge the claimant uses the power. With challenges every contender's card is turned up: the real one uses the power, and each player who claimed wrongly pays 1 coin to the courthouse.",
	}
	if s.PreparatoryTurns() > 0 {
		lines = append(lines, "The first turns are preparatory: swapping only.")
	}
	return lines
}
