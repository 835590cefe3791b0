package games

import (
	"errors"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// AppendPlayers appends the start that the games' canonical options
// share: the version byte, the number of players (u8) and each name as
// u8-length-prefixed UTF-8.
func AppendPlayers(b *cryptobyte.Builder, version uint8, players []string) {
	b.AddUint8(version)
	b.AddUint8(uint8(len(players)))
	for _, p := range players {
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(p)) })
	}
}

// ReadPlayers reads what [AppendPlayers] wrote, wanting version; game
// names the game in errors ("mafia: options: ...").
func ReadPlayers(s *cryptobyte.String, version uint8, game string) ([]string, error) {
	var v, n uint8
	if !s.ReadUint8(&v) || v != version || !s.ReadUint8(&n) {
		return nil, errors.New(game + ": options: bad version or length")
	}
	var players []string
	for range n {
		var name cryptobyte.String
		if !s.ReadUint8LengthPrefixed(&name) {
			return nil, errors.New(game + ": options: truncated player name")
		}
		players = append(players, string(name))
	}
	return players, nil
}

// ReadCards reads k cards of one byte each; truncated is the error when
// fewer remain.
func ReadCards(s *cryptobyte.String, k int, truncated error) ([]engine.Card, error) {
	out := make([]engine.Card, k)
	for i := range out {
		var c uint8
		if !s.ReadUint8(&c) {
			return nil, truncated
		}
		out[i] = engine.Card(c)
	}
	return out, nil
}
