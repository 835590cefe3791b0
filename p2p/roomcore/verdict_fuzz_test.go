package roomcore

import (
	"bytes"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// FuzzStoredVerdict: a state directory's verdict record (a verdict, then
// a late timeout's declarations, docs/p2p.md) is read from a file anyone
// with write access may have altered. No input panics the decoder;
// whatever decodes re-encodes to the same bytes, with at most
// maxDeclarations declarations; a single verdict decodes the same way
// through UnmarshalVerdict.
func FuzzStoredVerdict(f *testing.F) {
	game := ledger.Hash{7}
	e := &ledger.Entry{Pos: 3, Seat: 1, Prev: ledger.Hash{1}, Body: []byte{4, 5}}
	for _, vs := range [][]*Verdict{
		{{Kind: VerdictTimeout, Game: game, Pos: 2, Seat: 2, Reason: "silent", Declarer: 3}},
		{{Kind: VerdictTimeout, Game: game, Pos: 2, Seat: 2, Declarer: 3}, {Kind: VerdictTimeout, Game: game, Pos: 2, Seat: 2, Declarer: 1}},
		{{Kind: VerdictInvalidEntry, Game: game, Pos: 3, Seat: 1, Reason: "bad", Evidence: []*ledger.Entry{e}, Declarer: 0}},
		{{Kind: VerdictEquivocation, Game: game, Pos: 3, Seat: 1, Evidence: []*ledger.Entry{e, e}}},
	} {
		raw, err := MarshalStoredVerdict(vs[0], vs[1:])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, decl, err := UnmarshalStoredVerdict(raw)
		if err != nil {
			return
		}
		if len(decl) > maxDeclarations {
			t.Fatalf("%d declarations decoded, limit %d", len(decl), maxDeclarations)
		}
		re, err := MarshalStoredVerdict(v, decl)
		if err != nil {
			t.Fatalf("decoded, not re-encoded: %v", err)
		}
		if !bytes.Equal(re, raw) {
			t.Fatalf("re-encoded as %x, was %x", re, raw)
		}
		one, err := UnmarshalVerdict(raw)
		if (err == nil) != (len(decl) == 0) {
			t.Fatalf("UnmarshalVerdict: %v with %d declarations", err, len(decl))
		}
		if err == nil && one.String() != v.String() {
			t.Fatalf("UnmarshalVerdict decoded %v, UnmarshalStoredVerdict %v", one, v)
		}
	})
}
