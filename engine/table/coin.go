package table

import (
	"crypto/sha512"
	"encoding/binary"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
)

// CoinCommitment is a seat's commitment to its deal coin:
// SHA-512/256("masque/v1/deal-commit" || game id || seat || coin).
func CoinCommitment(gameID ledger.Hash, seat int, coin [32]byte) [32]byte {
	h := sha512.New512_256()
	h.Write([]byte("masque/v1/deal-commit"))
	h.Write(gameID[:])
	h.Write([]byte{byte(seat)})
	h.Write(coin[:])
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// CombineCoins hashes every seat's revealed coin, in seat order, into the
// deal seed. No seat can bias it without knowing the others' coins, which
// were committed before any was revealed.
func CombineCoins(gameID ledger.Hash, coins [][32]byte) [32]byte {
	h := sha512.New512_256()
	h.Write([]byte("masque/v1/deal-seed"))
	h.Write(gameID[:])
	for _, c := range coins {
		h.Write(c[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// DealFromSeed returns a uniformly random permutation of deck drawn from
// seed (Fisher–Yates with rejection sampling over a SHA-512 counter
// stream, so no index is favoured).
func DealFromSeed(seed [32]byte, deck []engine.Card) []engine.Card {
	out := slices.Clone(deck)
	var ctr uint64
	draw := func(n uint64) uint64 {
		limit := ^uint64(0) - (^uint64(0) % n) // multiples of n below 2^64
		for {
			h := sha512.New()
			h.Write([]byte("masque/v1/deal-draw"))
			h.Write(seed[:])
			var b [8]byte
			binary.BigEndian.PutUint64(b[:], ctr)
			ctr++
			h.Write(b[:])
			v := binary.BigEndian.Uint64(h.Sum(nil)[:8])
			if v < limit {
				return v % n
			}
		}
	}
	for i := len(out) - 1; i > 0; i-- {
		j := draw(uint64(i + 1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}
