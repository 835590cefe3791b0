package mental

import (
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/binary"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// This file is Mafia's group secret and its tags (SPEC.md §9.1), and what
// the table needs to act for a seat that has retired (SPEC.md §9.4).

const (
	labelGroupSecret = "masque/mafia-group-secret/v1"
	labelTag         = "masque/mafia-tag/v1"
)

// TagSize is the length of a recognition tag.
const TagSize = 32

// GroupSecretPoint returns the point Q of game's group secret (SPEC.md
// §9.1): ristretto255's one-way map over SHA-512 of its label and the
// 32-byte game id. Nobody knows its discrete log. The group secret is S =
// x·Q for the joint card key x = Σ x_j: nobody can compute it short of
// every seat's key share together (computational Diffie–Hellman).
func GroupSecretPoint(game [32]byte) *Element {
	h := sha512.New()
	h.Write([]byte(labelGroupSecret))
	h.Write(game[:])
	return ristretto.UniformElement(h.Sum(nil))
}

// GroupSecretComponent returns the face-up ciphertext of game's group
// secret (SPEC.md §9.1): (A, B) = (−Q, identity), which decrypts under the
// joint key to B − x·A = x·Q = S. Anyone computes it, so a deal needs no
// extra round; after the seats' shuffles re-mask it, nobody can tell
// which tuple carries it.
//
// A component holding S must never be opened publicly (a public reveal
// would publish S and with it every mafia tag), nor viewed by anyone but
// the holder of its tuple: the table never reveals it, never lets
// another seat view it and never re-masks it into a check (SPEC.md §9.1).
func GroupSecretComponent(game [32]byte) Ciphertext {
	return Ciphertext{
		A: ristretto.NewIdentityElement().Negate(GroupSecretPoint(game)),
		B: ristretto.NewIdentityElement(),
	}
}

// Tag returns the recognition tag of a holder of the group secret S at
// game, round and seat (SPEC.md §9.1): the first 32 bytes of
//
//	SHA-512("masque/mafia-tag/v1" ‖ enc(S) ‖ game ‖ u64(round) ‖ u32(seat))
//
// Holders of S compute each other's tags; without S a tag is
// indistinguishable from random bytes and cannot be forged. Constant time
// in S.
func Tag(S *Element, game [32]byte, round uint64, seat uint32) [TagSize]byte {
	h := sha512.New()
	h.Write([]byte(labelTag))
	var buf [32 + 32 + 8 + 4]byte
	b := S.AppendBytes(buf[:0])
	b = append(b, game[:]...)
	b = binary.BigEndian.AppendUint64(b, round)
	b = binary.BigEndian.AppendUint32(b, seat)
	h.Write(b)
	var sum [sha512.Size]byte
	var out [TagSize]byte
	copy(out[:], h.Sum(sum[:0]))
	return out
}

// RandomTag returns 32 bytes from crypto/rand: the tag of a seat that
// does not hold the group secret (or that chooses not to show it).
func RandomTag() [TagSize]byte {
	var out [TagSize]byte
	if _, err := rand.Read(out[:]); err != nil {
		panic("mental: crypto/rand failed: " + err.Error())
	}
	return out
}

// TagFor returns the tag a seat posts at game, round and seat from m, the
// point its privately viewed secret component holds (SPEC.md §9.1): the
// tag of S if m is not the neutral kind's point, else random bytes. Both
// are computed and one is selected in constant time, so the time does
// not say which.
func TagFor(m *Element, neutral int, game [32]byte, round uint64, seat uint32) [TagSize]byte {
	isNeutral := m.Equal(CardPoint(neutral))
	out := Tag(m, game, round, seat)
	noise := RandomTag()
	subtle.ConstantTimeCopy(isNeutral, out[:], noise[:])
	return out
}

// TagMatches reports, in constant time, whether tag is the tag of a
// holder of S at game, round and seat.
func TagMatches(S *Element, game [32]byte, round uint64, seat uint32, tag [TagSize]byte) bool {
	want := Tag(S, game, round, seat)
	return subtle.ConstantTimeCompare(want[:], tag[:]) == 1
}

// RecognizeTags returns, for each seat's tag (tags[i] posted by seats[i]),
// whether it is the tag of a holder of S at game and round. Every tag is
// checked in full, in constant time: the time does not depend on which
// tags match.
func RecognizeTags(S *Element, game [32]byte, round uint64, seats []uint32, tags [][TagSize]byte) ([]bool, error) {
	if len(seats) != len(tags) {
		return nil, fmt.Errorf("mental: recognize tags: %d seats, %d tags", len(seats), len(tags))
	}
	out := make([]bool, len(tags))
	for i := range tags {
		out[i] = TagMatches(S, game, round, seats[i], tags[i])
	}
	return out, nil
}

// ViewedPoints opens a card its viewer viewed privately (SPEC.md §3.6,
// §3.7): the shares sent to view's key, decrypted, and the viewer's own
// share. The group secret's holder reads S here; a Commissar reads the
// answer to its check (a width-1 card). Constant time in the keys.
func (k *SecretKey) ViewedPoints(view *SecretKey, c Card, sent []*EncryptedShare) ([]*Element, error) {
	others := make([][]*Element, 0, len(sent))
	for j, es := range sent {
		if es == nil || len(es.E1) != len(c) || len(es.E2) != len(c) {
			return nil, fmt.Errorf("mental: view: encrypted share %d does not match the card's width %d", j, len(c))
		}
		others = append(others, view.Decrypt(es))
	}
	return k.Peek(c, others)
}

// RetiredKey decodes the card key a seat published when it retired (it
// was eliminated or left; SPEC.md §9.4) and checks it against X, the
// seat's card key in the roster. From then on every peer holds the key
// and computes the seat's shares itself ([SecretKey.RetiredShare],
// [SecretKey.RetiredEncryptedShare], [SecretKey.RetiredCoinShare]).
func RetiredKey(b []byte, X *Element) (*SecretKey, error) {
	k, err := SecretKeyFromBytes(b)
	if err != nil {
		return nil, fmt.Errorf("mental: retired key: %w", err)
	}
	if X == nil || k.pub.Equal(X) != 1 {
		return nil, fmt.Errorf("mental: retired key: %w: x·G is not the seat's card key", ErrProof)
	}
	return k, nil
}

// RetiredShare returns the decryption share x·A_i of every component of c
// for a retired seat's published key (SPEC.md §9.4): what the seat would
// have posted in a public reveal (a tally). It carries no proof: every
// peer computes it from the public key and uses it without verifying.
func (k *SecretKey) RetiredShare(c Card) []*Element {
	D := make([]*Element, len(c))
	for i, ct := range c {
		D[i] = ristretto.NewIdentityElement().ScalarMult(k.x, ct.A)
	}
	return D
}

// RetiredEncryptedShare returns a retired seat's share of c in the form of
// an encrypted share to any viewer (SPEC.md §9.4): E1 = identity, E2 =
// x·A, which every viewer "decrypts" to x·A and which every statement
// over encrypted shares (viewed holding §3.9, not held §3.11, powered
// ballots and checks §9) accepts as is. It carries no proof and must not
// be passed to [VerifyEncryptedShare] (which rejects it): every peer
// computes it from the public key.
func (k *SecretKey) RetiredEncryptedShare(c Card) *EncryptedShare {
	es := &EncryptedShare{E2: k.RetiredShare(c)}
	for range c {
		es.E1 = append(es.E1, ristretto.NewIdentityElement())
	}
	return es
}

// RetiredCoinShare returns a retired seat's share x·Q of the joint coin
// whose point is Q (SPEC.md §3.12, §9.4), for [CoinValue]. It carries no
// proof: every peer computes it from the public key.
func (k *SecretKey) RetiredCoinShare(Q *Element) *CoinShare {
	return &CoinShare{D: ristretto.NewIdentityElement().ScalarMult(k.x, Q)}
}
