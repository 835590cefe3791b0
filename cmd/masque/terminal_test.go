package main

import (
	"os"
	"testing"
)

// /dev/null is a character device but not a terminal: a host reading it
// must not wait for a player who can never type.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	if isTerminal(f) {
		t.Fatalf("%s counts as a terminal", os.DevNull)
	}
	if isTerminal(nil) {
		t.Fatal("a nil stream counts as a terminal")
	}
}
