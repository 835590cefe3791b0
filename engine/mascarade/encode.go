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
//	coins: u8 count, u16 per seat; u16 court; u16 bank
//	u32 turn; u8 turn seat; u8 phase
//	revealed previous / this turn: u8 count, u8 (0/1) per seat
//	u8 claim; contenders: u8 count, (u8 seat, u8 slot) each
//	u8 responder; queue: like contenders; u8 pair bonus
//	impostors: u8 count, u8 each; user (u8 seat, u8 slot); u8 target; u8 guess
//	pending slots: u8 count, u8 each
//	last revealed: u8 count, (u8 slot, u8 card) each
//	winners: u8 count, u8 each
func (s *State) AppendBinary(dst []byte) ([]byte, error) {
	b := cryptobyte.NewBuilder(dst)
	b.AddUint8(stateVersion)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.opts.appendBinary(nil)) })
	masquerade.AddU8s(b, s.deal)
	b.AddUint8(uint8(len(s.coins)))
	for _, c := range s.coins {
		b.AddUint16(uint16(c))
	}
	b.AddUint16(uint16(s.court))
	b.AddUint16(uint16(s.bank))
	b.AddUint32(uint32(s.turn))
	b.AddUint8(uint8(s.seat))
	b.AddUint8(uint8(s.phase))
	masquerade.AddBools(b, s.revealedPrev)
	masquerade.AddBools(b, s.revealedNow)
	b.AddUint8(uint8(s.claim))
	masquerade.AddContenders(b, s.contenders)
	b.AddUint8(uint8(s.responder))
	masquerade.AddContenders(b, s.queue)
	masquerade.AddBools(b, []bool{s.pairBonus})
	masquerade.AddU8s(b, s.impostors)
	masquerade.AddContenders(b, []Contender{s.user})
	b.AddUint8(uint8(s.target))
	b.AddUint8(uint8(s.guess))
	masquerade.AddU8s(b, s.pendingSlot)
	masquerade.AddFacts(b, s.lastRevealed)
	masquerade.AddU8s(b, s.winners)
	return b.Bytes()
}

var _ engine.State = (*State)(nil)
