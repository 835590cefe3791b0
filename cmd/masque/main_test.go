package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the tests' games, transcripts and logs out of the user's
// state directory: XDG_STATE_HOME points into a directory of the run's
// own, removed at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "masque-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
