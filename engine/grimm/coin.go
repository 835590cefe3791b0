package grimm

import (
	"crypto/sha512"
	"encoding/binary"
)

// Stream turns a joint coin ([engine.Fact].Coin) into uniform choices,
// deterministically, so that every peer derives the same ones.
//
// Block i (i = 0, 1, ...) of the stream is
//
//	SHA-512("masque/grimm/coin/v1" || u8 len(purpose) || purpose || coin || u64be i)
//
// and the stream is the concatenation of the blocks, read 8 bytes at a time
// as big-endian uint64 values. [Stream.Intn] draws a uniform integer in
// [0, n) by rejection sampling: a value v is accepted when
// v >= 2^64 mod n, and the choice is v mod n (so every residue is hit by
// exactly (2^64 - (2^64 mod n)) / n accepted values).
//
// Purposes used by the rules: "round" (the round's action cards, then the
// first player when it is random), "dance" and "exchange" (the random
// items, opponents in seat order from the actor's left).
type Stream struct {
	prefix []byte
	block  uint64
	buf    []byte
}

// coinLabel is the domain-separation label of [Stream].
const coinLabel = "masque/grimm/coin/v1"

// NewStream returns the stream of coin for purpose.
func NewStream(coin [32]byte, purpose string) *Stream {
	p := make([]byte, 0, len(coinLabel)+1+len(purpose)+32)
	p = append(p, coinLabel...)
	p = append(p, byte(len(purpose)))
	p = append(p, purpose...)
	p = append(p, coin[:]...)
	return &Stream{prefix: p}
}

// Uint64 returns the next 8 bytes of the stream.
func (s *Stream) Uint64() uint64 {
	if len(s.buf) < 8 {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], s.block)
		s.block++
		h := sha512.New()
		h.Write(s.prefix)
		h.Write(ctr[:])
		s.buf = h.Sum(nil)
	}
	v := binary.BigEndian.Uint64(s.buf)
	s.buf = s.buf[8:]
	return v
}

// Intn returns a uniform integer in [0, n); n <= 0 gives 0.
func (s *Stream) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	u := uint64(n)
	thresh := -u % u // 2^64 mod n
	for {
		if v := s.Uint64(); v >= thresh {
			return int(v % u)
		}
	}
}

// Pick removes and returns k uniformly chosen elements of from (fewer if
// from is shorter), in the order drawn; from is not modified.
func Pick[T any](s *Stream, from []T, k int) []T {
	rest := append([]T(nil), from...)
	var out []T
	for range k {
		if len(rest) == 0 {
			break
		}
		i := s.Intn(len(rest))
		out = append(out, rest[i])
		rest = append(rest[:i], rest[i+1:]...)
	}
	return out
}
