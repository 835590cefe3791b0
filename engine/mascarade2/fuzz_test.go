package mascarade2_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
)

// FuzzUnmarshalOptions checks that every accepted encoding is canonical:
// it re-encodes to exactly the same bytes.
func FuzzUnmarshalOptions(f *testing.F) {
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		b, err := mascarade2.Options{Players: playerNames[:p]}.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := mascarade2.UnmarshalOptions(data)
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

// FuzzScenario parses arbitrary scenario files: no panic, and an accepted
// scenario's masks satisfy the constraints.
func FuzzScenario(f *testing.F) {
	files, _ := filepath.Glob("scenarios/*.txt")
	for _, fn := range files {
		b, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(8))
	}
	f.Fuzz(func(t *testing.T, data []byte, players uint8) {
		sc, err := mascarade2.LoadScenario("fuzz.txt", data, int(players))
		if err != nil {
			return
		}
		if err := mascarade2.CheckSet(sc.Masks, int(players)); err != nil {
			t.Fatalf("accepted scenario breaks a constraint: %v", err)
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
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, err := mascarade2.ParseScript(src, nil)
		if err != nil || len(sc.Lines) > 2000 {
			return
		}
		tab, _ := mascarade2test.Run(sc)
		if tab != nil && tab.State.Total() != mascarade2.BoxCoins {
			t.Fatalf("coins not conserved: %v", tab.State)
		}
	})
}
