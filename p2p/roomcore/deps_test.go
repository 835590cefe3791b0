package roomcore

import (
	"testing"

	"github.com/masque-games/masque/p2p/internal/puredeps"
)

// TestCoreDependencies: the core builds for a browser (GOOS=js
// GOARCH=wasm) and depends on nothing but the standard library, the
// engine's packages and what they use: no network, no libp2p, so that a
// seat in a phone's browser runs exactly this replication core.
func TestCoreDependencies(t *testing.T) {
	puredeps.Check(t, "the core", []string{
		"github.com/masque-games/masque/p2p/roomcore",
		"github.com/masque-games/masque/p2p/internal/wirefmt",
		"github.com/masque-games/masque/engine/",
		"github.com/masque-games/masque/mental/",
		// The engine's own dependencies (package ledger's).
		"golang.org/x/crypto/cryptobyte",
		"filippo.io/edwards25519",
	})
}
