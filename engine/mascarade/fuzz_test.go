package mascarade_test

import (
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
)

// FuzzUnmarshalOptions checks that every accepted encoding is canonical:
// it re-encodes to exactly the same bytes.
func FuzzUnmarshalOptions(f *testing.F) {
	edition.FuzzOptions(f, playerNames, mascarade.MinPlayers, mascarade.MaxPlayers)
}

// FuzzScript parses and plays arbitrary scripts: no panic, and an accepted
// game conserves coins.
func FuzzScript(f *testing.F) {
	edition.FuzzScripts(f, "game mascarade players=A,B\nA swap A.left B.right yes\n")
}
