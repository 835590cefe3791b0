// Package scripttest is the test harness the Mascarade family's editions
// share: it runs their script files (testdata/*.txt) on the family's
// oracle ([RunScripts]), their seeded random playouts with the family's
// invariants ([Playout], [Replay]) and their bot games ([PlayBots]), each
// edition bringing only its parsing, options and checks. It reads the
// expected outcomes written into the script files, so both editions
// check their scripts the same way:
//
//	# expect: KEY=VALUE ...             checked against the state before the next line
//	# expect-error: line=N rule=ID      the script stops at line N breaking rule ID
//
// The keys of "# expect:" are the edition's own; this package only reads them.
package scripttest

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Expectation is one KEY=VALUE of an "# expect:" line, with its line number.
type Expectation struct {
	Line     int
	Key, Val string
}

// WantError is an "# expect-error:" line: where the script must stop and
// the rule it breaks.
type WantError struct {
	Line int
	Rule string
}

// ReadExpect returns the expectations of a script, in order, and its
// expected error, if any.
func ReadExpect(tb testing.TB, src []byte) ([]Expectation, *WantError) {
	tb.Helper()
	var out []Expectation
	var we *WantError
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "# expect-error:"); ok {
			we = &WantError{}
			for _, f := range strings.Fields(rest) {
				k, v, _ := strings.Cut(f, "=")
				switch k {
				case "line":
					we.Line, _ = strconv.Atoi(v)
				case "rule":
					we.Rule = v
				default:
					tb.Fatalf("bad expect-error field %q", f)
				}
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# expect:"); ok {
			for _, f := range strings.Fields(rest) {
				k, v, ok := strings.Cut(f, "=")
				if !ok {
					tb.Fatalf("bad expect field %q", f)
				}
				out = append(out, Expectation{i + 1, k, v})
			}
		}
	}
	return out, we
}

// CheckErr checks how a script ended: without error when want is nil,
// else with a *masquerade.ScriptError at want.Line wrapping an
// *engine.RuleError for want.Rule.
func CheckErr(tb testing.TB, err error, want *WantError) {
	tb.Helper()
	if want == nil {
		if err != nil {
			tb.Fatalf("script failed: %v", err)
		}
		return
	}
	if err == nil {
		tb.Fatalf("script succeeded; want an error at line %d (%s)", want.Line, want.Rule)
	}
	var se *masquerade.ScriptError
	if !errors.As(err, &se) || se.Line != want.Line {
		tb.Fatalf("error %v; want it at line %d", err, want.Line)
	}
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Rule != want.Rule {
		tb.Fatalf("error %v; want rule %s", err, want.Rule)
	}
}
