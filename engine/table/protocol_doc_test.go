package table_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/table"
)

// docs/protocol.md (the bytes) and mental/SPEC.md (the cryptography) are
// what an outside auditor checks a transcript with: every body kind and
// every domain-separation label the code uses must be in them, or a
// verifier written from them would miss it.
func TestProtocolDocumentsEveryKindAndLabel(t *testing.T) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	protocol := read("../../docs/protocol.md")
	docs := protocol + read("../../mental/SPEC.md")
	// Body kinds: numbered from 1 until String no longer names one.
	for k := table.BodyKind(1); k < 255; k++ {
		name := k.String()
		if name == fmt.Sprintf("body(%d)", uint8(k)) {
			if k < 6 {
				t.Fatalf("body kind %d has no name", k)
			}
			break
		}
		if !strings.Contains(protocol, fmt.Sprintf("| %d | %s |", k, name)) {
			t.Errorf("docs/protocol.md does not list body kind %d (%s)", k, name)
		}
	}
	// Labels: every "masque/..." string literal in the engine and mental
	// code (tests excluded).
	label := regexp.MustCompile(`"(masque/[a-z0-9./_-]+)"`)
	found := 0
	for _, root := range []string{"../../engine", "../../mental"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			for _, m := range label.FindAllStringSubmatch(read(path), -1) {
				found++
				if !strings.Contains(docs, m[1]) {
					t.Errorf("%s uses the label %s, which neither docs/protocol.md nor mental/SPEC.md names", path, m[1])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found < 20 {
		t.Fatalf("only %d labels found: the scan does not see the code", found)
	}
}

// Every Fault reason is documented for auditors, and the list is closed.
func TestReasonsDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range table.Reasons() {
		if !strings.Contains(string(data), "`"+r+"`") {
			t.Errorf("docs/protocol.md does not list the fault reason %q", r)
		}
	}
	for _, r := range []string{"rule:not-your-slot", "bad-share"} {
		if !table.KnownReason(r) {
			t.Errorf("%q is not a known reason", r)
		}
	}
	for _, r := range []string{"", "rule:", "bad share", "nonsense"} {
		if table.KnownReason(r) {
			t.Errorf("%q is a known reason", r)
		}
	}
}
