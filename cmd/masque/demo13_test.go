package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 4's loopback test: 13 peers on real sockets finish a bot game; the
// demo checks that every peer holds the byte-identical log, and the
// transcript then passes 'masque verify'.
func TestDemoThirteenPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("13 peers: skipped with -short")
	}
	tr := filepath.Join(t.TempDir(), "demo13.masque")
	var out, errOut bytes.Buffer
	if code := run([]string{"demo", "--players", "13", "--seed", "13", "--transcript", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "all 13 peers hold the same log") {
		t.Fatalf("no identical-log check in the output:\n%s", out.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"verify", tr}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "valid:") {
		t.Fatalf("verify exit %d\n%s%s", code, out.String(), errOut.String())
	}
}
