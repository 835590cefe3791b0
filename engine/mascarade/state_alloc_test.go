package mascarade_test

import (
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
)

// BenchmarkStateAppendBinary encodes a 13-seat state, as the table's state
// hash does after every entry; -benchmem shows its allocations (issue 28:
// the options were encoded again at every call, 5.6 % of the bytes a
// live game allocated).
//
//	go test ./engine/mascarade -run '^$' -bench StateAppendBinary -benchmem
func BenchmarkStateAppendBinary(b *testing.B) {
	opts := mascarade.Options{Players: playerNames[:13], Coins: mascarade.DefaultCoins}
	s, err := mascarade.NewGame(opts, opts.Normalize().Set)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		if _, err := s.AppendBinary(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
