package ledger

import "testing"

// TestEntryHashIsHashOfEncoding: Hash, which streams the fields into the
// hash, equals the hash of MarshalBinary's encoding (the rule of
// docs/protocol.md), for bodies of every length class.
func TestEntryHashIsHashOfEncoding(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 70000} {
		e := &Entry{Pos: uint64(n) * 7, Seat: uint8(n % 13), Prev: Hash{byte(n), 1}, Body: make([]byte, n)}
		for i := range e.Body {
			e.Body[i] = byte(i * 31)
		}
		e.Sig[0], e.Sig[63] = 5, 9
		enc, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := e.Hash(), hashOf(labelEntry, enc); got != want {
			t.Errorf("body of %d bytes: Hash %x, hash of the encoding %x", n, got, want)
		}
	}
}
