package main

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAskKeyReleaseHoldsLines: a progress line printed while the host's
// key question waits for its answer (the phones' page being built, from
// another goroutine) is held until the answer, then written (after the
// terminal's echo of the answer); it was written at once, after
// "[Y/n] ", where the player types.
func TestAskKeyReleaseHoldsLines(t *testing.T) {
	in, feed := io.Pipe()
	out := &syncBuffer{}
	r := &netRun{a: &app{stdin: in}, out: out}
	done := make(chan bool, 1)
	go func() { done <- r.askKeyRelease() }()
	if pollFor(regexp.MustCompile(`(\[Y/n\] )$`), 5*time.Second, out.String) == "" {
		t.Fatalf("no question asked: %q", out.String())
	}
	r.printf("building the phone page once (Go to WebAssembly, up to a minute)")
	if got := out.String(); strings.Contains(got, "building") {
		t.Errorf("a progress line is written while the question waits, after \"[Y/n] \" where the player types:\n%q", got)
	}
	if _, err := feed.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	if !<-done {
		t.Errorf("answered y, the keys are not published")
	}
	// The terminal echoes the answer and its newline; the held line
	// follows it.
	if got := out.String(); !strings.HasSuffix(got, "[Y/n] building the phone page once (Go to WebAssembly, up to a minute)\n") {
		t.Errorf("the held progress line is not written once the question is answered:\n%q", got)
	}
}
