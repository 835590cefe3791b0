package mascarade2

import (
	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
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
//	seating: u8 count, u8 seat per chair
//	coins: u8 count, u16 per seat; u16 court; u16 bank
//	u32 turn; u8 turn chair; u8 phase
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
	b.AddUint8(uint8(len(s.deal)))
	for _, c := range s.deal {
		b.AddUint8(uint8(c))
	}
	b.AddUint8(uint8(len(s.seatAt)))
	for _, p := range s.seatAt {
		b.AddUint8(uint8(p))
	}
	b.AddUint8(uint8(len(s.coins)))
	for _, c := range s.coins {
		b.AddUint16(uint16(c))
	}
	b.AddUint16(uint16(s.court))
	b.AddUint16(uint16(s.bank))
	b.AddUint32(uint32(s.turn))
	b.AddUint8(uint8(s.chair))
	b.AddUint8(uint8(s.phase))
	addBools(b, s.revealedPrev)
	addBools(b, s.revealedNow)
	b.AddUint8(uint8(s.claim))
	addContenders(b, s.contenders)
	b.AddUint8(uint8(s.responder))
	addContenders(b, s.queue)
	addBools(b, []bool{s.pairBonus})
	b.AddUint8(uint8(len(s.impostors)))
	for _, p := range s.impostors {
		b.AddUint8(uint8(p))
	}
	addContenders(b, []Contender{s.user})
	b.AddUint8(uint8(s.target))
	b.AddUint8(uint8(s.guess))
	b.AddUint8(uint8(len(s.pendingSlot)))
	for _, p := range s.pendingSlot {
		b.AddUint8(uint8(p))
	}
	b.AddUint8(uint8(len(s.lastRevealed)))
	for _, f := range s.lastRevealed {
		b.AddUint8(uint8(f.Slot))
		b.AddUint8(uint8(f.Card))
	}
	b.AddUint8(uint8(len(s.winners)))
	for _, p := range s.winners {
		b.AddUint8(uint8(p))
	}
	return b.Bytes()
}

func addBools(b *cryptobyte.Builder, v []bool) {
	b.AddUint8(uint8(len(v)))
	for _, x := range v {
		if x {
			b.AddUint8(1)
		} else {
			b.AddUint8(0)
		}
	}
}

func addContenders(b *cryptobyte.Builder, cs []Contender) {
	b.AddUint8(uint8(len(cs)))
	for _, c := range cs {
		b.AddUint8(uint8(c.Seat))
		b.AddUint8(uint8(c.Slot))
	}
}

var _ engine.State = (*State)(nil)
