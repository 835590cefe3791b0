package mafia

import (
	"encoding/binary"

	"github.com/masque-games/masque/engine"
)

const stateVersion = 1

// AppendBinary appends the canonical encoding of the state (for the state
// hash after every entry): a version byte, the options' encoding, then
// every field in declaration order as varints (lists length-prefixed,
// booleans 0/1). It holds no hidden card: two tables with different deals
// and the same public history encode the same bytes.
func (s *State) AppendBinary(b []byte) ([]byte, error) {
	opts, err := s.opts.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = append(b, stateVersion)
	b = binary.AppendUvarint(b, uint64(len(opts)))
	b = append(b, opts...)
	i := func(v int) { b = binary.AppendVarint(b, int64(v)) }
	bo := func(v bool) {
		if v {
			i(1)
		} else {
			i(0)
		}
	}
	cards := func(v []engine.Card) {
		i(len(v))
		for _, c := range v {
			i(int(c))
		}
	}
	seats := func(v []engine.Seat) {
		i(len(v))
		for _, p := range v {
			i(int(p))
		}
	}
	slots := func(v []engine.Slot) {
		i(len(v))
		for _, p := range v {
			i(int(p))
		}
	}
	bools := func(v []bool) {
		i(len(v))
		for _, x := range v {
			bo(x)
		}
	}
	cards(s.deck)
	cards(s.role)
	bools(s.alive)
	bools(s.left)
	i(len(s.hands))
	for _, h := range s.hands {
		slots(h)
	}
	slots(s.pile)
	bo(s.stale)
	bo(s.joined)
	i(s.tagRound)
	i(s.day)
	i(int(s.phase))
	i(int(s.turn))
	i(len(s.hold))
	for _, v := range s.hold {
		i(int(v))
	}
	i(len(s.votes))
	for _, v := range s.votes {
		i(v)
	}
	i(len(s.powers))
	for _, v := range s.powers {
		i(int(v))
	}
	seats(s.targets)
	seats(s.tied)
	i(int(s.madVictim))
	bools(s.attacked)
	i(len(s.prot))
	for _, v := range s.prot {
		i(int(v))
	}
	seats(s.asked)
	seats(s.queue)
	seats(s.dying)
	bo(s.bflyHit)
	i(int(s.date))
	i(int(s.condemned))
	seats(s.elim)
	i(int(s.then))
	i(int(s.resume))
	i(s.drawsDue)
	bo(s.joinDue)
	i(int(s.side))
	return b, nil
}
