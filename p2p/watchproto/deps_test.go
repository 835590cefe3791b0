package watchproto

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPureDependencies: the package builds for a browser (GOOS=js
// GOARCH=wasm) and depends on nothing but the standard library, the
// engine's packages (and what they use) and the other pure protocol
// packages: no network, no libp2p, so that a seat or a spectator in a
// browser runs exactly this protocol logic.
func TestPureDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list for js/wasm: %v\n%s", err, out)
	}
	allowed := []string{
		"github.com/masque-games/masque/p2p/watchproto",
		"github.com/masque-games/masque/p2p/roomcore",
		"github.com/masque-games/masque/p2p/internal/wirefmt",
		"github.com/masque-games/masque/engine/",
		"github.com/masque-games/masque/mental/",
		"golang.org/x/crypto/cryptobyte",
		"filippo.io/edwards25519",
	}
	for _, dep := range strings.Fields(string(out)) {
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(dep, a)
		}
		if !ok {
			t.Errorf("watchproto depends on %s", dep)
		}
	}
	build := exec.Command("go", "build", "-o", os.DevNull, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
}
