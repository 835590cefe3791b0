package mascarade2

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/masquerade"
)

// optionsVersion tags the options encoding.
const optionsVersion = 1

// optionsCodec reads and writes the layout of the options encoding.
var optionsCodec = masquerade.OptionsCodec{Game: GameName, Version: optionsVersion, MaxPlayers: MaxPlayers, MaxSet: maxSet}

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
	return optionsCodec.Append(dst, o.Players, o.Coins, 0, o.Set)
}

// UnmarshalOptions decodes options strictly: the input must be exactly the
// canonical encoding of valid, normalized options (no trailing bytes, no
// out-of-range values, the set in ascending order).
func UnmarshalOptions(data []byte) (Options, error) {
	players, coins, _, set, err := optionsCodec.Decode(data)
	if err != nil {
		return Options{}, err
	}
	o := Options{Players: players, Set: set, Coins: coins}
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
