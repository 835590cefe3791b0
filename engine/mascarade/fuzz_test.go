package mascarade_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
)

// FuzzUnmarshalOptions checks that every accepted encoding is canonical:
// it re-encodes to exactly the same bytes.
func FuzzUnmarshalOptions(f *testing.F) {
	for p := 2; p <= 13; p++ {
		b, err := mascarade.Options{Players: playerNames[:p]}.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := mascarade.UnmarshalOptions(data)
		if err != nil {
			return
		}
		b, err := o.MarshalBinary()
		if err != nil {
			t.Fatalf("accepted options do not encode: %v", err)
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("non-canonical encoding accepted: %x re-encodes as %x", data, b)
		}
	})
}

// FuzzScript parses and plays arbitrary scripts: no panic, and an accepted
// game conserves coins.
func FuzzScript(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, fn := range files {
		b, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("game mascarade players=A,B\nA swap A.left B.right yes\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, err := mascarade.ParseScript(src)
		if err != nil {
			return
		}
		if len(sc.Lines) > 2000 {
			return
		}
		tab, _ := mascaradetest.Run(sc)
		if tab != nil && tab.State.Total() != mascarade.BoxCoins {
			t.Fatalf("coins not conserved: %v", tab.State)
		}
	})
}
