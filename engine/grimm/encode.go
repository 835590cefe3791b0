package grimm

import (
	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// stateVersion tags the state encoding.
const stateVersion = 1

// AppendBinary implements [engine.State]: it appends the canonical
// encoding of the whole public state, used for the state hash after every
// entry. Every field that can influence a later move is encoded, in a
// fixed order; integers are big-endian (u8 unless noted; seats and
// "none" values as u8 after adding 1), lists carry a u8 count:
//
//	u8 version (1), u16-prefixed options ([Options.MarshalBinary])
//	round, then per seat: u16 roses, u16 rewards, jewel
//	spent action cards (list), the round's two action cards, first, turn,
//	last round's winner+1, winners (list)
//	results (list of: round, winner+1, by talismans, characters (list))
//	per character slot: known card, unmasked; per character 1..8: broken,
//	token bits
//	per item slot: place, owner+1, card; the deck (list of slots)
//	per bet slot: holder+1, known card; per seat: bet taken
//	phase, purpose, continuation, decision, pending reveal (list), drawn
//	(list), draw number, kept first, acted, actor, draft seat, draft left,
//	pending responses (list of: seat, kind, character, causer), action,
//	dir+1, gift, target, passes (list of: slot, from+1, to+1), eavesdropped
//	(list), per seat: committed, 32-byte commitment; round done, round
//	winner+1, talisman win, bet seat; per seat: ability card; seats still
//	to choose (list); hinted this turn, the Beast's draw taken
func (s *State) AppendBinary(dst []byte) ([]byte, error) {
	b := cryptobyte.NewBuilder(dst)
	u8 := func(v int) { b.AddUint8(uint8(v)) }
	flag := func(v bool) {
		if v {
			u8(1)
		} else {
			u8(0)
		}
	}
	seats := func(v []engine.Seat) {
		u8(len(v))
		for _, x := range v {
			u8(int(x))
		}
	}
	slots := func(v []engine.Slot) {
		u8(len(v))
		for _, x := range v {
			u8(int(x))
		}
	}
	u8(stateVersion)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(s.opts.appendBinary(nil)) })
	u8(s.round)
	for p := range s.n {
		b.AddUint16(uint16(s.roses[p]))
		b.AddUint16(uint16(s.rewards[p]))
		flag(s.jewels[p])
	}
	u8(len(s.spent))
	for _, a := range s.spent {
		u8(int(a))
	}
	u8(int(s.actions[0]))
	u8(int(s.actions[1]))
	u8(int(s.first))
	u8(int(s.turn))
	u8(int(s.lastWin) + 1)
	seats(s.winners)
	u8(len(s.results))
	for _, r := range s.results {
		u8(r.Round)
		u8(int(r.Winner) + 1)
		flag(r.ByTalismans)
		u8(len(r.Chars))
		for _, c := range r.Chars {
			u8(int(c))
		}
	}
	for i := range NumCharacters {
		u8(int(s.known[i]))
		flag(s.unmasked[i])
	}
	for c := 1; c <= NumCharacters; c++ {
		flag(s.broken[c])
		u8(int(s.tokens[c]))
	}
	for i := range NumItems {
		u8(int(s.where[i]))
		u8(int(s.owner[i]) + 1)
		u8(int(s.card[i]))
	}
	slots(s.deck)
	for i := range NumCharacters {
		u8(int(s.betHeld[i]) + 1)
		u8(int(s.betKnown[i]))
	}
	for p := range s.n {
		flag(s.betTaken[p])
	}
	u8(int(s.phase))
	u8(int(s.why))
	u8(int(s.cont))
	u8(int(s.dec))
	slots(s.waitSlots)
	slots(s.drawn)
	u8(s.drawNo)
	flag(s.keptFirst)
	flag(s.acted)
	u8(int(s.actor))
	u8(int(s.draftSeat))
	u8(s.draftLeft)
	u8(len(s.pending))
	for _, r := range s.pending {
		u8(int(r.Seat))
		u8(int(r.Kind))
		u8(int(r.Char))
		u8(int(r.Causer))
	}
	u8(int(s.act))
	u8(s.dir + 1)
	u8(int(s.gift))
	u8(int(s.target))
	u8(len(s.passes))
	for _, x := range s.passes {
		u8(int(x.Slot))
		u8(int(x.From) + 1)
		u8(int(x.To) + 1)
	}
	seats(s.eaves)
	for p := range s.n {
		flag(s.commit[p])
		b.AddBytes(s.commits[p][:])
	}
	flag(s.roundDone)
	u8(int(s.roundWin) + 1)
	flag(s.talismanWin)
	u8(int(s.betSeat))
	for p := range s.n {
		u8(int(s.ability[p]))
	}
	seats(s.choosing)
	flag(s.hinted)
	flag(s.beastDone)
	return b.Bytes()
}

var (
	_ engine.State   = (*State)(nil)
	_ engine.Opening = (*State)(nil)
)
