package mafia

import "encoding/binary"

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
	bools := func(v []bool) {
		i(len(v))
		for _, x := range v {
			bo(x)
		}
	}
	b = appendInts(b, s.deck)
	b = appendInts(b, s.role)
	bools(s.alive)
	bools(s.left)
	i(len(s.hands))
	for _, h := range s.hands {
		b = appendInts(b, h)
	}
	b = appendInts(b, s.pile)
	bo(s.stale)
	bo(s.joined)
	i(s.tagRound)
	i(s.day)
	i(int(s.phase))
	i(int(s.turn))
	b = appendInts(b, s.hold)
	b = appendInts(b, s.votes)
	b = appendInts(b, s.powers)
	b = appendInts(b, s.targets)
	b = appendInts(b, s.tied)
	i(int(s.madVictim))
	bools(s.attacked)
	b = appendInts(b, s.prot)
	b = appendInts(b, s.asked)
	b = appendInts(b, s.queue)
	b = appendInts(b, s.dying)
	bo(s.bflyHit)
	i(int(s.date))
	i(int(s.condemned))
	b = appendInts(b, s.elim)
	i(int(s.then))
	i(int(s.resume))
	i(s.drawsDue)
	bo(s.joinDue)
	i(int(s.side))
	if s.plural || len(s.answered) > 0 || s.oneVote {
		// A plurality kill tonight (a state without one encodes as
		// before it existed; the list after it was the mixed tally's
		// tied pairs, always empty now).
		bo(s.plural)
		i(0)
	}
	if len(s.answered) > 0 || s.oneVote {
		// Card answers while the date ballots were posted (likewise).
		b = appendInts(b, s.answered)
		bo(s.fwd)
	}
	if s.oneVote {
		// A one-vote kill tonight (likewise).
		bo(s.oneVote)
		i(s.voteTest)
	}
	return b, nil
}

// appendInts appends a list to a state's encoding: its length, then each
// value, as varints.
func appendInts[T ~int | ~int8 | ~uint8](b []byte, v []T) []byte {
	b = binary.AppendVarint(b, int64(len(v)))
	for _, x := range v {
		b = binary.AppendVarint(b, int64(x))
	}
	return b
}
