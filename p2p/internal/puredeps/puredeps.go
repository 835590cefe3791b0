// Package puredeps checks, in a test, that a protocol package is pure:
// it builds for a browser (GOOS=js GOARCH=wasm) and depends on nothing
// outside the standard library but the import path prefixes it is
// allowed (the engine's packages, the other pure protocol packages): no
// network, no libp2p, so that a seat in a browser runs exactly its logic.
package puredeps

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Check runs the go command in the test's package directory: every
// non-standard dependency of the package for js/wasm must start with one
// of allowed, and the package must build for js/wasm. name names the
// package in errors. It is skipped with -short.
func Check(t *testing.T, name string, allowed []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	list := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list for js/wasm: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(dep, a)
		}
		if !ok {
			t.Errorf("%s depends on %s", name, dep)
		}
	}
	build := exec.Command("go", "build", "-o", os.DevNull, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
}
