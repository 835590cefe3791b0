package joinproto

import (
	"testing"

	"github.com/masque-games/masque/p2p/internal/puredeps"
)

// TestPureDependencies: the package builds for a browser (GOOS=js
// GOARCH=wasm) and depends on nothing but the standard library, the
// engine's packages (and what they use) and the other pure protocol
// packages: no network, no libp2p, so that a seat or a spectator in a
// browser runs exactly this protocol logic.
func TestPureDependencies(t *testing.T) {
	puredeps.Check(t, "joinproto", []string{
		"github.com/masque-games/masque/p2p/joinproto",
		"github.com/masque-games/masque/p2p/roomcore",
		"github.com/masque-games/masque/p2p/internal/wirefmt",
		"github.com/masque-games/masque/engine/",
		"github.com/masque-games/masque/mental/",
		"golang.org/x/crypto/cryptobyte",
		"filippo.io/edwards25519",
	})
}
