package grimm_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/fake"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

// run parses and plays a script.
func run(t *testing.T, src string) (*grimmtest.Table, error) {
	t.Helper()
	sc, err := grimm.ParseScript([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return grimmtest.Run(sc, 1)
}

func mustRun(t *testing.T, src string) *grimmtest.Table {
	t.Helper()
	tab, err := run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestBookScripts plays every script of testdata: each must play through,
// and its expect lines must hold.
func TestBookScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, fn := range files {
		t.Run(filepath.Base(fn), func(t *testing.T) {
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := run(t, string(src))
			if err != nil {
				t.Fatalf("%v\nmoves: %v", err, tab.Moves)
			}
		})
	}
}

// ruleOf returns the rule id of a script error (or "proof:SEAT" for a
// false proof).
func ruleOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	var pe *fake.ProofError
	if errors.As(err, &pe) {
		return "false-proof"
	}
	if err == nil {
		return ""
	}
	return "other: " + err.Error()
}

func runSeed(sc *grimm.Script, seed uint64) (*grimmtest.Table, error) { return grimmtest.Run(sc, seed) }
