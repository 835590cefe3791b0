package mental

import (
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"hash"

	"github.com/masque-games/masque/mental/internal/transcript"
)

// This file implements joint random coins (SPEC.md §3.10): every seat
// commits to 32 random bytes, then reveals them; the seed is a hash of all
// reveals in seat order, so it is uniform as long as one seat's bytes are,
// and no seat can choose its bytes after seeing another's. Integers and
// permutations are drawn from the seed by rejection sampling over a
// counter-mode SHA-512 stream.
//
// The one leak is the usual one of commit-then-reveal: the last seat to
// reveal sees the outcome first and can refuse to reveal. Refusal is
// attributable (the commitment is signed in the log), and the engine must
// treat it as a fault, never re-draw.

// Coin labels (SPEC.md §3.10).
const (
	labelCoinCommit = "masque/coin-commit/v1"
	labelCoinSeed   = "masque/coin-seed/v1"
	labelCoinStream = "masque/coin-stream/v1"
)

// CoinSize is the size of a commitment, a reveal and a seed.
const CoinSize = 32

// MaxCoinPermutation is the largest permutation CoinStream.Perm draws.
const MaxCoinPermutation = 1 << 16

// CoinCommitment is a seat's commitment to its coin contribution (SPEC.md
// §3.10): the first 32 bytes of the transcript challenge over the context
// (table, log position and seat of the commit entry), the coin's label and
// the reveal.
type CoinCommitment [CoinSize]byte

// CoinReveal is a seat's coin contribution: 32 bytes from crypto/rand,
// kept secret until every seat has committed.
type CoinReveal [CoinSize]byte

// CoinCommit draws a fresh contribution and returns its commitment, to
// publish at ctx (the commit entry's table, position and seat), and the
// reveal, to publish once every seat's commitment is in the log.
func CoinCommit(ctx Context, label string) (CoinCommitment, CoinReveal) {
	var r CoinReveal
	if _, err := rand.Read(r[:]); err != nil {
		panic("mental: crypto/rand failed: " + err.Error())
	}
	return r.Commitment(ctx, label), r
}

// Commitment returns the commitment to r made at ctx under label. It is a
// pure function.
func (r CoinReveal) Commitment(ctx Context, label string) CoinCommitment {
	t := ctx.transcript(labelCoinCommit)
	t.Append("label", []byte(label))
	t.Append("reveal", r[:])
	var c CoinCommitment
	copy(c[:], t.ChallengeBytes("commitment"))
	return c
}

// VerifyCoinReveal checks that r opens c, a commitment made at ctx (the
// commit entry's context, not the reveal's) under label.
func VerifyCoinReveal(ctx Context, label string, c CoinCommitment, r CoinReveal) error {
	want := r.Commitment(ctx, label)
	if subtle.ConstantTimeCompare(want[:], c[:]) != 1 {
		return fmt.Errorf("coin %q of seat %d: %w: reveal does not open the commitment", label, ctx.Seat, ErrProof)
	}
	return nil
}

// CombineCoins returns the joint seed of one coin: the first 32 bytes of
// the transcript challenge over the table, the label, the number of seats
// and every seat's verified reveal, in seat order (SPEC.md §3.10).
func CombineCoins(table [32]byte, label string, reveals []CoinReveal) ([CoinSize]byte, error) {
	var seed [CoinSize]byte
	if len(reveals) == 0 {
		return seed, fmt.Errorf("mental: coin %q: no reveals", label)
	}
	t := transcript.New(labelCoinSeed)
	t.Append("table", table[:])
	t.Append("label", []byte(label))
	t.AppendUint64("seats", uint64(len(reveals)))
	for _, r := range reveals {
		t.Append("reveal", r[:])
	}
	copy(seed[:], t.ChallengeBytes("seed"))
	return seed, nil
}

// MarshalBinary returns the 32 bytes of c.
func (c CoinCommitment) MarshalBinary() ([]byte, error) { return append([]byte(nil), c[:]...), nil }

// MarshalBinary returns the 32 bytes of r.
func (r CoinReveal) MarshalBinary() ([]byte, error) { return append([]byte(nil), r[:]...), nil }

// UnmarshalCoinCommitment decodes a commitment: exactly 32 bytes.
func UnmarshalCoinCommitment(b []byte) (CoinCommitment, error) {
	var c CoinCommitment
	if len(b) != CoinSize {
		return c, fmt.Errorf("%w: coin commitment is %d bytes, want %d", ErrEncoding, len(b), CoinSize)
	}
	copy(c[:], b)
	return c, nil
}

// UnmarshalCoinReveal decodes a reveal: exactly 32 bytes.
func UnmarshalCoinReveal(b []byte) (CoinReveal, error) {
	var r CoinReveal
	if len(b) != CoinSize {
		return r, fmt.Errorf("%w: coin reveal is %d bytes, want %d", ErrEncoding, len(b), CoinSize)
	}
	copy(r[:], b)
	return r, nil
}

// CoinStream is a deterministic stream of unbiased draws from a coin seed
// (SPEC.md §3.10). Block i of the stream is
//
//	SHA-512(frame("masque/coin-stream/v1") || seed || frame(purpose) || i as u64 BE)
//
// where frame(s) is len(s) as u32 BE || s. Each draw takes the next 8
// bytes as a big-endian uint64 and rejects values below 2^64 mod n, so
// draws are exactly uniform. Every peer replaying the same seed and
// purpose gets the same draws in the same order.
type CoinStream struct {
	h      hash.Hash
	prefix []byte
	ctr    uint64
	buf    [64]byte
	off    int
}

// NewCoinStream returns the stream of seed for one purpose (for example
// "tie-break/day-3"); different purposes give independent streams.
func NewCoinStream(seed [CoinSize]byte, purpose string) *CoinStream {
	frame := func(b []byte, s string) []byte {
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
		return append(b, s...)
	}
	p := frame(nil, labelCoinStream)
	p = append(p, seed[:]...)
	p = frame(p, purpose)
	return &CoinStream{h: sha512.New(), prefix: p, off: 64}
}

// uint64 returns the next 8 bytes of the stream.
func (s *CoinStream) uint64() uint64 {
	if s.off+8 > len(s.buf) {
		s.h.Reset()
		s.h.Write(s.prefix)
		var c [8]byte
		binary.BigEndian.PutUint64(c[:], s.ctr)
		s.ctr++
		s.h.Write(c[:])
		s.h.Sum(s.buf[:0])
		s.off = 0
	}
	v := binary.BigEndian.Uint64(s.buf[s.off:])
	s.off += 8
	return v
}

// Intn returns a uniform integer in [0, n), n ≥ 1.
func (s *CoinStream) Intn(n int) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("mental: coin draw in [0,%d)", n)
	}
	un := uint64(n)
	thresh := -un % un // 2^64 mod n: values below it would bias the draw
	for {
		if v := s.uint64(); v >= thresh {
			return int(v % un), nil
		}
	}
}

// Perm returns a uniform permutation of 0..n-1 (Fisher–Yates with Intn),
// 0 ≤ n ≤ MaxCoinPermutation.
func (s *CoinStream) Perm(n int) ([]int, error) {
	if n < 0 || n > MaxCoinPermutation {
		return nil, fmt.Errorf("mental: coin permutation of %d items, want 0..%d", n, MaxCoinPermutation)
	}
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j, err := s.Intn(i + 1)
		if err != nil {
			return nil, err
		}
		p[i], p[j] = p[j], p[i]
	}
	return p, nil
}

// CoinIntn returns the first draw in [0, n) of the stream of seed for
// purpose (SPEC.md §3.10).
func CoinIntn(seed [CoinSize]byte, purpose string, n int) (int, error) {
	return NewCoinStream(seed, purpose).Intn(n)
}

// CoinPermutation returns a uniform permutation of 0..n-1 drawn from the
// stream of seed for purpose (SPEC.md §3.10).
func CoinPermutation(seed [CoinSize]byte, purpose string, n int) ([]int, error) {
	return NewCoinStream(seed, purpose).Perm(n)
}
