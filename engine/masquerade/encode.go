package masquerade

import (
	"errors"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// AddBools appends a u8 count and one u8 (0 or 1) per value.
func AddBools(b *cryptobyte.Builder, v []bool) {
	b.AddUint8(uint8(len(v)))
	for _, x := range v {
		if x {
			b.AddUint8(1)
		} else {
			b.AddUint8(0)
		}
	}
}

// AddContenders appends a u8 count and (u8 seat, u8 slot) per contender.
func AddContenders(b *cryptobyte.Builder, cs []Contender) {
	b.AddUint8(uint8(len(cs)))
	for _, c := range cs {
		b.AddUint8(uint8(c.Seat))
		b.AddUint8(uint8(c.Slot))
	}
}

// AddU8s appends a u8 count and one u8 per value (seats, slots, cards).
func AddU8s[T ~int | ~int8 | ~int16 | ~int32 | ~uint8](b *cryptobyte.Builder, v []T) {
	b.AddUint8(uint8(len(v)))
	for _, x := range v {
		b.AddUint8(uint8(x))
	}
}

// AddFacts appends a u8 count and (u8 slot, u8 card) per fact.
func AddFacts(b *cryptobyte.Builder, fs []engine.Fact) {
	b.AddUint8(uint8(len(fs)))
	for _, f := range fs {
		b.AddUint8(uint8(f.Slot))
		b.AddUint8(uint8(f.Card))
	}
}

// OptionsCodec is the canonical encoding of a game's options, the same in
// every edition but for the centre-card byte:
//
//	u8  version
//	u8  number of players, then each name as u8-length-prefixed UTF-8
//	u8  starting coins
//	u8  centre cards (only with Center)
//	u8  number of cards in the set, then each card as u8
//
// Decoding is strict about the layout; each game then checks the values
// and that the input is in canonical form.
type OptionsCodec struct {
	Game       string // the error prefix, e.g. "mascarade"
	Version    uint8
	MaxPlayers int
	MaxSet     int  // the most cards a set may have
	Center     bool // the encoding carries a centre-card byte
}

// Append appends the encoding of options already normalized and valid.
func (c OptionsCodec) Append(dst []byte, players []string, coins, center int, set []engine.Card) []byte {
	b := cryptobyte.NewBuilder(dst)
	games.AppendPlayers(b, c.Version, players)
	b.AddUint8(uint8(coins))
	if c.Center {
		b.AddUint8(uint8(center))
	}
	AddU8s(b, set)
	return b.BytesOrPanic()
}

// Decode reads the fields of an encoding, rejecting a bad version, too
// many players or cards, truncation and trailing bytes. center is 0
// without [OptionsCodec.Center].
func (c OptionsCodec) Decode(data []byte) (players []string, coins, center int, set []engine.Card, err error) {
	fail := func(what string) ([]string, int, int, []engine.Card, error) {
		return nil, 0, 0, nil, errors.New(c.Game + ": options: " + what)
	}
	s := cryptobyte.String(data)
	var version, np uint8
	if !s.ReadUint8(&version) || version != c.Version {
		return fail("bad version")
	}
	if !s.ReadUint8(&np) || int(np) > c.MaxPlayers {
		return fail("bad player count")
	}
	for range np {
		var name cryptobyte.String
		if !s.ReadUint8LengthPrefixed(&name) {
			return fail("truncated name")
		}
		players = append(players, string(name))
	}
	var co, ce, nc uint8
	ok := s.ReadUint8(&co)
	if c.Center {
		ok = ok && s.ReadUint8(&ce)
	}
	if !ok || !s.ReadUint8(&nc) || int(nc) > c.MaxSet {
		return fail("truncated or bad numbers")
	}
	for range nc {
		var k uint8
		if !s.ReadUint8(&k) {
			return fail("truncated set")
		}
		set = append(set, engine.Card(k))
	}
	if !s.Empty() {
		return fail("trailing bytes")
	}
	return players, int(co), int(ce), set, nil
}
