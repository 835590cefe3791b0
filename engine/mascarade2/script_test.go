package mascarade2_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// loadTestdata reads scenario files relative to testdata/.
func loadTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
}

// edition is the 2nd edition, for the family's tests; its scripts read
// scenario files from testdata/.
var edition = scripttest.NewEdition(func(src []byte) (*mascarade2.Script, error) { return mascarade2.ParseScript(src, loadTestdata) },
	mascarade2.ParseCard, mascarade2.BoxCoins,
	func(players []string) mascarade2.Options { return mascarade2.Options{Players: players} },
	mascarade2.UnmarshalOptions)

// TestScripts plays every testdata/*.txt script with the oracle and checks
// the outcome stated in its "# expect:" lines (see [scripttest.Edition.Scripts]).
func TestScripts(t *testing.T) { edition.Scripts(t, "testdata/*.txt") }
