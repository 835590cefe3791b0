package main

import (
	"encoding/json"
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
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
