package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A game played on the screen or the page names its transcript file at
// the start (the page says "check it: masque verify FILE") and writes it
// when its player leaves: until then the file is empty. verify and replay
// of that empty file said "the file may be damaged: not a masque
// transcript (bad magic)", which sends a first-time player looking for a
// fault; they now say it is empty and when a game writes it.
func TestEmptyTranscriptSaysWhy(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "game.masque")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"verify", "replay"} {
		code, _, errOut := runOut(cmd, empty)
		if code != exitDamaged || !strings.Contains(errOut, "the file is empty") || !strings.Contains(errOut, "when its player leaves") || strings.Contains(errOut, "bad magic") {
			t.Errorf("masque %s of an empty file: exit %d\n%s", cmd, code, errOut)
		}
	}
}
