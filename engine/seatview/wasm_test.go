package seatview_test

import (
	"os/exec"
	"strings"
	"testing"
)

// seatPackages are what a seat in a browser runs: the seat's view, every
// game's viewer and rules, through the registry.
var seatPackages = []string{
	"github.com/masque-games/masque/engine/seatview",
	"github.com/masque-games/masque/engine/games/registry",
}

// The seat's view and every game's viewer build for a browser (GOOS=js
// GOARCH=wasm) and pull in no command line, terminal or network library:
// the next step runs them in a phone's browser.
func TestSeatBuildsForTheBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds for js/wasm")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	env := []string{"GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0"}
	build := exec.Command(goTool, append([]string{"build"}, seatPackages...)...)
	build.Env = append(build.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, out)
	}
	list := exec.Command(goTool, append([]string{"list", "-deps"}, seatPackages...)...)
	list.Env = append(list.Environ(), env...)
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/spf13/cobra", "github.com/charmbracelet/", "github.com/libp2p/", "/cmd/masque", "/p2p"} {
			if strings.Contains(dep, banned) {
				t.Errorf("the seat depends on %s", dep)
			}
		}
	}
}
