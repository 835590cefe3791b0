package mascarade2_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/mascarade2"
)

// FuzzUnmarshalOptions checks that every accepted encoding is canonical:
// it re-encodes to exactly the same bytes.
func FuzzUnmarshalOptions(f *testing.F) {
	edition.FuzzOptions(f, playerNames, mascarade2.MinPlayers, mascarade2.MaxPlayers)
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
// game conserves coins (scenario files read from testdata/).
func FuzzScript(f *testing.F) { edition.FuzzScripts(f) }
