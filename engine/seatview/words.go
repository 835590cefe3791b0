package seatview

import "github.com/masque-games/masque/engine/table"

// Plural returns one when n is 1, else many: "1 coin", "3 coins".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// WorkWaiting is what a table waits for from the seat called name when
// the entry due is the table's own work rather than a player's choice (a
// shuffle, a share that opens a card, a share of a coin toss, a card
// key, a step of Mafia's secret vote count): "bob's shuffle". It is ""
// for a move or a night's actions, which the game's view words. The
// terminal, the --web page and the phone page say it alike.
func WorkWaiting(name string, kind table.BodyKind) string {
	switch kind {
	case table.BodyShuffle, table.BodyMix:
		return name + "'s shuffle"
	case table.BodyShares:
		return name + "'s share to open a card"
	case table.BodyCommit, table.BodyReveal, table.BodyCoinShare:
		return name + "'s share of a coin toss"
	case table.BodyKey:
		return name + "'s card key"
	case table.BodyBlind:
		// Mafia's night: every seat tests the night's votes in secret
		// (mental SPEC §9.8, §9.9), its masque on its own.
		return name + "'s step of the secret test of the night's votes (their masque sends it by itself)"
	case table.BodyLookup:
		// A kill holder's count lookup of its own ballot (§9.9): posted
		// by its masque, nobody chooses anything.
		return name + "'s count of the night's votes (their masque sends it by itself)"
	}
	return ""
}
