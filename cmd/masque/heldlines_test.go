package main

import (
	"bytes"
	"testing"
)

// While the play screen is up, progress lines (the phones' server's, a
// joiner's) are held and printed once it is gone: written over the
// screen, they garbled it ("phones: phone connection: failed to get
// reader…" across the play screen at the end of a game).
func TestLinesHeldWhileTheScreenIsUp(t *testing.T) {
	var out bytes.Buffer
	r := &netRun{out: &out}
	r.printf("before %d", 1)
	r.screenUp(true)
	r.printf("phones: %s left", "mila\x1b[2J")
	if got := out.String(); got != "before 1\n" {
		t.Fatalf("while the screen is up, the terminal got %q", got)
	}
	r.screenUp(false)
	r.printf("after")
	if got, want := out.String(), "before 1\nphones: mila\\x1b[2J left\nafter\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
