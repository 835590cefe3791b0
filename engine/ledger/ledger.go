// Package ledger holds the signed, hash-chained log of a game: the roster
// every seat signs before play, the entries each seat authors, and the
// canonical binary encodings of both.
//
// The ledger knows nothing of any game's rules: an entry's body is opaque
// here and is interpreted by the table layer. What the ledger guarantees is
// that every entry is bound to one game, one position, one author and the
// whole history before it.
//
// # Encodings
//
// All integers are big-endian. Variable-length fields carry a length prefix
// (golang.org/x/crypto/cryptobyte). Decoders are strict: wrong lengths,
// trailing bytes and out-of-range values are rejected, so every accepted
// encoding is the only encoding of its value.
//
// # Hashes
//
// SHA-512/256 with a distinct label per use:
//
//	GameID     = H("masque/v1/roster" || roster)
//	EntryHash  = H("masque/v1/entry"  || entry, signature included)
//	signed     = "masque/v1/entry-sig" || GameID || Pos || Seat || Prev || Body
//	roster sig = "masque/v1/roster-sig" || GameID
//
// Entry 0's Prev is the GameID; entry n's Prev is EntryHash(entry n-1).
//
// # Signing keys
//
// A seat's Ed25519 signing key must be the canonical encoding of a curve
// point whose order is not small ([CheckSigningKey]): under a small-order
// key Go's ed25519.Verify accepts one signature for every message. Rosters
// holding such a key are neither encoded nor decoded, and no entry
// verifies under one.
package ledger

import (
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// Hash is a SHA-512/256 digest.
type Hash [32]byte

// Domain-separation labels; see the package documentation.
const (
	labelRoster    = "masque/v1/roster"
	labelEntry     = "masque/v1/entry"
	labelEntrySig  = "masque/v1/entry-sig"
	labelRosterSig = "masque/v1/roster-sig"
)

// Limits that keep a decoder's memory bounded whatever a peer sends.
const (
	MaxSeats     = 18 // Mafia seats 4..18
	MaxBodyBytes = 1 << 20
	MaxNameBytes = 64
	MaxOptBytes  = 4096
	MaxKeyBytes  = 1024
)

func hashOf(label string, parts ...[]byte) Hash {
	h := sha512.New512_256()
	h.Write([]byte(label))
	for _, p := range parts {
		h.Write(p)
	}
	var out Hash
	copy(out[:], h.Sum(nil))
	return out
}

// SeatInfo is one seat of a roster.
type SeatInfo struct {
	Name    string            // display name, 1..64 bytes of UTF-8
	PeerID  []byte            // the seat's network identity (libp2p peer id bytes)
	SignKey ed25519.PublicKey // key that signs this seat's entries
	Keys    []byte            // the seat's public mental keys with their proofs (opaque here; see engine/table)
}

// Roster fixes everything a game is played under. Its hash is the game id.
type Roster struct {
	TableID [16]byte
	Game    string // game name, e.g. "mascarade"
	Options []byte // the game's canonical options encoding
	Seats   []SeatInfo
}

// MarshalBinary returns the canonical encoding of r.
func (r *Roster) MarshalBinary() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	var b cryptobyte.Builder
	b.AddBytes(r.TableID[:])
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(r.Game)) })
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(r.Options) })
	b.AddUint8(uint8(len(r.Seats)))
	for _, s := range r.Seats {
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(s.Name)) })
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.PeerID) })
		b.AddBytes(s.SignKey)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.Keys) })
	}
	return b.Bytes()
}

func (r *Roster) check() error {
	if len(r.Game) == 0 || len(r.Game) > MaxNameBytes || !printableName(r.Game) {
		return fmt.Errorf("roster: game name must be 1..%d bytes of UTF-8 text without control or bidi characters", MaxNameBytes)
	}
	if len(r.Options) > MaxOptBytes {
		return fmt.Errorf("roster: options are %d bytes, limit %d", len(r.Options), MaxOptBytes)
	}
	if len(r.Seats) == 0 || len(r.Seats) > MaxSeats {
		return fmt.Errorf("roster: %d seats, want 1..%d", len(r.Seats), MaxSeats)
	}
	for i, s := range r.Seats {
		if len(s.Name) == 0 || len(s.Name) > MaxNameBytes {
			return fmt.Errorf("roster: seat %d: name must be 1..%d bytes", i, MaxNameBytes)
		}
		if !printableName(s.Name) {
			return fmt.Errorf("roster: seat %d: name %q is not UTF-8 text without control or bidi characters", i, s.Name)
		}
		if len(s.PeerID) > 255 {
			return fmt.Errorf("roster: seat %d: peer id is %d bytes, limit 255", i, len(s.PeerID))
		}
		if err := CheckSigningKey(s.SignKey); err != nil {
			return fmt.Errorf("roster: seat %d: signing key: %w", i, err)
		}
		if len(s.Keys) > MaxKeyBytes {
			return fmt.Errorf("roster: seat %d: keys are %d bytes, limit %d", i, len(s.Keys), MaxKeyBytes)
		}
		for j := range i {
			if r.Seats[j].Name == s.Name {
				return fmt.Errorf("roster: seats %d and %d share the name %q", j, i, s.Name)
			}
			if string(r.Seats[j].SignKey) == string(s.SignKey) {
				return fmt.Errorf("roster: seats %d and %d share a signing key", j, i)
			}
		}
	}
	return nil
}

// UnmarshalRoster decodes a roster strictly.
func UnmarshalRoster(data []byte) (*Roster, error) {
	s := cryptobyte.String(data)
	r := new(Roster)
	var game, opts cryptobyte.String
	var n uint8
	if !s.CopyBytes(r.TableID[:]) || !s.ReadUint8LengthPrefixed(&game) ||
		!s.ReadUint16LengthPrefixed(&opts) || !s.ReadUint8(&n) {
		return nil, errors.New("roster: truncated header")
	}
	r.Game = string(game)
	r.Options = append([]byte{}, opts...)
	if n == 0 || n > MaxSeats {
		return nil, fmt.Errorf("roster: %d seats, want 1..%d", n, MaxSeats)
	}
	for i := range int(n) {
		var name, peer, key cryptobyte.String
		sign := make([]byte, ed25519.PublicKeySize)
		if !s.ReadUint8LengthPrefixed(&name) || !s.ReadUint8LengthPrefixed(&peer) ||
			!s.CopyBytes(sign) || !s.ReadUint16LengthPrefixed(&key) {
			return nil, fmt.Errorf("roster: seat %d truncated", i)
		}
		r.Seats = append(r.Seats, SeatInfo{Name: string(name), PeerID: append([]byte{}, peer...),
			SignKey: sign, Keys: append([]byte{}, key...)})
	}
	if !s.Empty() {
		return nil, fmt.Errorf("roster: %d trailing bytes", len(s))
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return r, nil
}

// GameID is the hash of the roster's canonical encoding.
func (r *Roster) GameID() (Hash, error) {
	enc, err := r.MarshalBinary()
	if err != nil {
		return Hash{}, err
	}
	return hashOf(labelRoster, enc), nil
}

// RosterSigningBytes is what every seat signs to agree on a roster.
func RosterSigningBytes(gameID Hash) []byte {
	return append([]byte(labelRosterSig), gameID[:]...)
}

// Entry is one signed log entry.
type Entry struct {
	Pos  uint64
	Seat uint8
	Prev Hash   // GameID for entry 0, else the hash of entry Pos-1
	Body []byte // interpreted by the table layer
	Sig  [ed25519.SignatureSize]byte
}

// SigningBytes is the message the author signs: the game id, the position,
// the seat, the previous hash and the body, under a label.
func (e *Entry) SigningBytes(gameID Hash) []byte {
	b := cryptobyte.NewBuilder(make([]byte, 0, len(labelEntrySig)+len(gameID)+8+1+len(e.Prev)+4+len(e.Body)))
	b.AddBytes([]byte(labelEntrySig))
	b.AddBytes(gameID[:])
	b.AddUint64(e.Pos)
	b.AddUint8(e.Seat)
	b.AddBytes(e.Prev[:])
	b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(e.Body) })
	return b.BytesOrPanic()
}

// Sign sets e.Sig with key.
func (e *Entry) Sign(gameID Hash, key ed25519.PrivateKey) {
	copy(e.Sig[:], ed25519.Sign(key, e.SigningBytes(gameID)))
}

// VerifySignature checks e.Sig against the author's key.
func (e *Entry) VerifySignature(gameID Hash, key ed25519.PublicKey) error {
	if CheckSigningKey(key) != nil || !ed25519.Verify(key, e.SigningBytes(gameID), e.Sig[:]) {
		return fmt.Errorf("entry %d: bad signature for seat %d", e.Pos, e.Seat)
	}
	return nil
}

// VerifySignatureCheckedKey is VerifySignature for a key that has passed
// CheckSigningKey already: a caller that checks many entries against the
// keys of one roster checks each key once.
func (e *Entry) VerifySignatureCheckedKey(gameID Hash, key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize || !ed25519.Verify(key, e.SigningBytes(gameID), e.Sig[:]) {
		return fmt.Errorf("entry %d: bad signature for seat %d", e.Pos, e.Seat)
	}
	return nil
}

// MarshalBinary returns the canonical encoding of e.
func (e *Entry) MarshalBinary() ([]byte, error) {
	if len(e.Body) > MaxBodyBytes {
		return nil, fmt.Errorf("entry %d: body is %d bytes, limit %d", e.Pos, len(e.Body), MaxBodyBytes)
	}
	// One allocation of the exact size (issue 28: the builder's growth
	// was most of an entry's garbage).
	b := cryptobyte.NewBuilder(make([]byte, 0, entryHeader+len(e.Body)+len(e.Sig)))
	b.AddUint64(e.Pos)
	b.AddUint8(e.Seat)
	b.AddBytes(e.Prev[:])
	b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(e.Body) })
	b.AddBytes(e.Sig[:])
	return b.Bytes()
}

// entryHeader is the size of an encoded entry's fields before its body:
// position, seat, previous hash, body length.
const entryHeader = 8 + 1 + len(Hash{}) + 4

// UnmarshalEntry decodes an entry strictly.
func UnmarshalEntry(data []byte) (*Entry, error) {
	s := cryptobyte.String(data)
	e := new(Entry)
	var body []byte
	var n uint32
	if !s.ReadUint64(&e.Pos) || !s.ReadUint8(&e.Seat) || !s.CopyBytes(e.Prev[:]) || !s.ReadUint32(&n) {
		return nil, errors.New("entry: truncated header")
	}
	if n > MaxBodyBytes {
		return nil, fmt.Errorf("entry %d: body is %d bytes, limit %d", e.Pos, n, MaxBodyBytes)
	}
	if !s.ReadBytes(&body, int(n)) || !s.CopyBytes(e.Sig[:]) {
		return nil, fmt.Errorf("entry %d: truncated body or signature", e.Pos)
	}
	if !s.Empty() {
		return nil, fmt.Errorf("entry %d: %d trailing bytes", e.Pos, len(s))
	}
	if int(e.Seat) >= MaxSeats {
		return nil, fmt.Errorf("entry %d: seat %d out of range", e.Pos, e.Seat)
	}
	e.Body = append([]byte{}, body...)
	return e, nil
}

// Hash returns the entry's hash, which the next entry names as Prev.
func (e *Entry) Hash() Hash {
	if len(e.Body) > MaxBodyBytes {
		// An entry too large to encode can never be accepted; hash its
		// fields so the result is still well defined.
		return hashOf(labelEntry, e.SigningBytes(Hash{}))
	}
	// The hash of the encoding (MarshalBinary), written to the hash as it
	// goes instead of built first: an entry is hashed several times.
	var head [entryHeader]byte
	binary.BigEndian.PutUint64(head[:8], e.Pos)
	head[8] = e.Seat
	copy(head[9:], e.Prev[:])
	binary.BigEndian.PutUint32(head[9+len(e.Prev):], uint32(len(e.Body)))
	h := sha512.New512_256()
	h.Write([]byte(labelEntry))
	h.Write(head[:])
	h.Write(e.Body)
	h.Write(e.Sig[:])
	var out Hash
	h.Sum(out[:0])
	return out
}
