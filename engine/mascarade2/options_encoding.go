package mascarade2

import (
	"bytes"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// optionsVersion tags the options encoding.
const optionsVersion = 1

// maxSet bounds the number of masks (12 players + 2 in the middle).
const maxSet = MaxPlayers + MaxCenter

// MarshalBinary returns the canonical encoding of the normalized options:
//
//	u8  version (1)
//	u8  number of players, then each name as u8-length-prefixed UTF-8
//	u8  starting coins
//	u8  number of masks in the set, then each mask as u8, ascending
//
// It fails if the normalized options do not validate.
func (o Options) MarshalBinary() ([]byte, error) {
	n := o.Normalize()
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("mascarade2: encoding options: %w", err)
	}
	return n.appendBinary(nil), nil
}

// appendBinary appends the encoding of already normalized, valid options.
func (o Options) appendBinary(dst []byte) []byte {
	b := cryptobyte.NewBuilder(dst)
	b.AddUint8(optionsVersion)
	b.AddUint8(uint8(len(o.Players)))
	for _, p := range o.Players {
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(p)) })
	}
	b.AddUint8(uint8(o.Coins))
	b.AddUint8(uint8(len(o.Set)))
	for _, c := range o.Set {
		b.AddUint8(uint8(c))
	}
	return b.BytesOrPanic()
}

// UnmarshalOptions decodes options strictly: the input must be exactly the
// canonical encoding of valid, normalized options (no trailing bytes, no
// out-of-range values, the set in ascending order).
func UnmarshalOptions(data []byte) (Options, error) {
	s := cryptobyte.String(data)
	var version, np uint8
	if !s.ReadUint8(&version) || version != optionsVersion {
		return Options{}, errors.New("mascarade2: options: bad version")
	}
	if !s.ReadUint8(&np) || np > MaxPlayers {
		return Options{}, errors.New("mascarade2: options: bad player count")
	}
	var o Options
	for range np {
		var name cryptobyte.String
		if !s.ReadUint8LengthPrefixed(&name) {
			return Options{}, errors.New("mascarade2: options: truncated name")
		}
		o.Players = append(o.Players, string(name))
	}
	var coins, nc uint8
	if !s.ReadUint8(&coins) || !s.ReadUint8(&nc) || nc > maxSet {
		return Options{}, errors.New("mascarade2: options: truncated or bad numbers")
	}
	o.Coins = int(coins)
	for range nc {
		var c uint8
		if !s.ReadUint8(&c) {
			return Options{}, errors.New("mascarade2: options: truncated set")
		}
		o.Set = append(o.Set, engine.Card(c))
	}
	if !s.Empty() {
		return Options{}, errors.New("mascarade2: options: trailing bytes")
	}
	if len(o.Set) == 0 {
		return Options{}, errors.New("mascarade2: options: empty set (the encoding names the masks)")
	}
	if err := o.Validate(); err != nil {
		return Options{}, fmt.Errorf("mascarade2: options: %w", err)
	}
	if !bytes.Equal(o.Normalize().appendBinary(nil), data) {
		return Options{}, errors.New("mascarade2: options: not in canonical form")
	}
	return o, nil
}
