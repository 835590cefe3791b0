// Package wirefmt holds what the frames of masque's stream protocols
// (packages roomcore, joinproto and watchproto) share: a frame is a type
// byte then cryptobyte-encoded fields, decoded strictly, and the error
// of a malformed one names the message and the field. It also holds the
// fields two protocols carry alike: an encoded roster and a list of
// roster signatures.
package wirefmt

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine/ledger"
)

// MaxRosterBytes bounds an encoded roster in a frame (a roster offer, a
// watch table).
const MaxRosterBytes = 1 << 20

// Encode builds a frame: the type byte, then what f adds. It panics only
// when a length prefix overflows, which the limits the callers check
// before encoding rule out.
func Encode(typ byte, f func(b *cryptobyte.Builder)) []byte {
	var b cryptobyte.Builder
	b.AddUint8(typ)
	f(&b)
	out, err := b.Bytes()
	if err != nil {
		panic("p2p: encode: " + err.Error())
	}
	return out
}

// Finish ends the strict decoding of a frame of type typ, named name, whose
// fields were read from s: err (a field's error) or !ok (a read that failed
// without one) or bytes left in s make the error, naming the message.
func Finish(typ byte, name string, s cryptobyte.String, ok bool, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("message type %d (%s): %w", typ, name, err)
	case !ok:
		return fmt.Errorf("message type %d (%s): truncated or over a limit", typ, name)
	case !s.Empty():
		return fmt.Errorf("message type %d (%s): %d trailing bytes after the last field", typ, name, len(s))
	}
	return nil
}

// AddRoster adds an encoded roster: u32 length, then its bytes.
func AddRoster(b *cryptobyte.Builder, roster []byte) {
	b.AddUint32(uint32(len(roster)))
	b.AddBytes(roster)
}

// ReadRoster reads what AddRoster adds (at most MaxRosterBytes), a copy.
func ReadRoster(s *cryptobyte.String) ([]byte, error) {
	var n uint32
	var raw []byte
	switch {
	case !s.ReadUint32(&n):
		return nil, errors.New("roster length: truncated")
	case n > MaxRosterBytes:
		return nil, fmt.Errorf("roster: %d bytes, limit %d", n, MaxRosterBytes)
	case !s.ReadBytes(&raw, int(n)):
		return nil, errors.New("roster: truncated")
	}
	return append([]byte(nil), raw...), nil
}

// AddSigs adds roster signatures: u8 count, then 64 bytes each.
func AddSigs(b *cryptobyte.Builder, sigs [][ed25519.SignatureSize]byte) {
	b.AddUint8(uint8(len(sigs)))
	for _, s := range sigs {
		b.AddBytes(s[:])
	}
}

// ReadSigs reads what AddSigs adds: at most ledger.MaxSeats signatures.
func ReadSigs(s *cryptobyte.String) ([][ed25519.SignatureSize]byte, error) {
	var n uint8
	if !s.ReadUint8(&n) {
		return nil, errors.New("signature count: truncated")
	}
	if n > ledger.MaxSeats {
		return nil, fmt.Errorf("signature count: %d, limit %d", n, ledger.MaxSeats)
	}
	var out [][ed25519.SignatureSize]byte
	for i := range int(n) {
		var sig [ed25519.SignatureSize]byte
		if !s.CopyBytes(sig[:]) {
			return nil, fmt.Errorf("signature %d: truncated", i)
		}
		out = append(out, sig)
	}
	return out, nil
}

// Truncate cuts s to at most n bytes on a UTF-8 boundary.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
