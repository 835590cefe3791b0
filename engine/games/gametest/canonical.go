package gametest

import (
	"bytes"
	"encoding"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCanonical fuzzes a decoder of a game's encoding (its options, for
// example), seeded with seeds: every encoding decode accepts must be
// canonical, re-encoding to exactly the same bytes, so that one value has
// one encoding on the wire and in rosters.
func FuzzCanonical[T encoding.BinaryMarshaler](f *testing.F, seeds [][]byte, decode func([]byte) (T, error)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil {
			return
		}
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatalf("an accepted encoding does not encode again: %v", err)
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("non-canonical encoding accepted: %x re-encodes as %x", data, b)
		}
	})
}

// AddFiles adds every file matching pattern (a [filepath.Glob] pattern,
// "testdata/*.txt") to f's seed corpus; a file it cannot read fails f.
func AddFiles(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, fn := range files {
		b, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}
