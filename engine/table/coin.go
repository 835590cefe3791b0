package table

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// dealLabel separates the deal's coins from every other joint coin.
const dealLabel = "masque/deal/v1"

// coinContext is the context of seat's deal-coin commitment: the commit
// entries are the first entries of the log, one per seat in seat order.
func coinContext(gameID ledger.Hash, seat int) mental.Context {
	return mental.Context{Table: gameID, Pos: uint64(seat), Seat: uint32(seat)}
}

// CoinCommitment is a seat's commitment to its deal coin (mental SPEC.md
// §3.10), bound to the game and the seat.
func CoinCommitment(gameID ledger.Hash, seat int, coin [32]byte) [32]byte {
	return mental.CoinReveal(coin).Commitment(coinContext(gameID, seat), dealLabel)
}

// CombineCoins hashes every seat's revealed coin, in seat order, into the
// deal seed. No seat can bias it without knowing the others' coins, which
// were committed before any was revealed.
func CombineCoins(gameID ledger.Hash, coins [][32]byte) [32]byte {
	reveals := make([]mental.CoinReveal, len(coins))
	for i, c := range coins {
		reveals[i] = c
	}
	seed, err := mental.CombineCoins(gameID, dealLabel, reveals)
	if err != nil {
		// Only an empty list fails, and a table has at least one seat.
		panic("table: combine coins: " + err.Error())
	}
	return seed
}

// DealFromSeed returns the permutation of deck drawn from seed (uniform:
// Fisher–Yates with rejection sampling, mental SPEC.md §3.10).
func DealFromSeed(seed [32]byte, deck []engine.Card) []engine.Card {
	perm, err := mental.CoinPermutation(seed, dealLabel, len(deck))
	if err != nil {
		panic("table: deal permutation: " + err.Error())
	}
	out := make([]engine.Card, len(deck))
	for i, j := range perm {
		out[i] = deck[j]
	}
	return out
}
