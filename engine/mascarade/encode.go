package mascarade

import (
	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// stateVersion tags the state encoding.
const stateVersion = 1

// AppendBinary implements [engine.State]: it appends the canonical
// encoding of the whole public state, used for the state hash after every
// entry. Every field that can influence a later move is encoded, in a
// fixed order; integers are big-endian, lists carry a u8 count. The
// encoding is deterministic and depends only on the state's value.
//
//	u8 version (1), u16-prefixed options (see [Options.MarshalBinary])
//	deal: u8 count, u8 per card
//	the core (see [masquerade.AppendCore]), whose turn place is
//	the turn seat
func (s *State) AppendBinary(dst []byte) ([]byte, error) {
	b := cryptobyte.NewBuilder(dst)
	b.AddUint8(stateVersion)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.opts.appendBinary(nil)) })
	masquerade.AddU8s(b, s.deal)
	masquerade.AppendCore(&s.core, b)
	return b.Bytes()
}

var _ engine.State = (*State)(nil)
