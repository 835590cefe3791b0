package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"
)

// childArgsEnv, when set (a JSON list of arguments), makes the test
// binary run masque with them and exit with its status: a masque process
// a test can kill with SIGKILL.
const childArgsEnv = "MASQUE_TEST_CHILD_ARGS"

// TestMain keeps the tests' games, transcripts and logs out of the user's
// state directory: XDG_STATE_HOME points into a directory of the run's
// own, removed at the end.
func TestMain(m *testing.M) {
	if js := os.Getenv(childArgsEnv); js != "" {
		var args []string
		if err := json.Unmarshal([]byte(js), &args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "masque-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	// The whole package tested (no -run, -skip or -list): the conformance
	// vectors' generator, a process of its own and the longest test,
	// starts now and runs beside the others; TestGenerateConformanceVectors
	// waits for it and checks its result (or starts its own if this
	// failed).
	flag.Parse()
	var gen *vectorGenerator
	if os.Getenv(vectorChildEnv) == "" && !*updateVectors && flagValue("test.run") == "" &&
		flagValue("test.skip") == "" && flagValue("test.list") == "" {
		gen, _ = startVectorGenerator()
		earlyVectorGenerator = gen
	}
	code := m.Run()
	if gen != nil {
		gen.cmd.Process.Kill() // if no test took it
		<-gen.done
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// flagValue is the value of the test binary's flag name ("" if there is
// no such flag).
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
