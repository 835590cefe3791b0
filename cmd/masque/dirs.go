package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// stateHome is where masque keeps what it writes as it runs, as the XDG
// base directory specification asks: $XDG_STATE_HOME/masque, else
// ~/.local/state/masque. Under it:
//
//	tables/FINGERPRINT/TABLE-ID   a network game's state directory, per identity
//	games/                        transcripts of 'masque play' and 'masque demo'
//	logs/                         the play screen's logs
//
// Earlier versions kept tables under the config directory (CONFIG/tables)
// and logs and transcripts in the temporary directory; tables there are
// still found and resumed.
func stateHome() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "masque"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.Join(errors.New("no state directory: set XDG_STATE_HOME or HOME"), err)
	}
	return filepath.Join(home, ".local", "state", "masque"), nil
}

// stateSubdir returns stateHome/parts, created (mode 0700).
func stateSubdir(parts ...string) (string, error) {
	home, err := stateHome()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(append([]string{home}, parts...)...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return dir, nil
}

// createStateFile creates a new file in stateHome/sub named by pattern
// (os.CreateTemp's), falling back to the temporary directory when the
// state directory cannot be made.
func createStateFile(sub, pattern string) (*os.File, error) {
	if dir, err := stateSubdir(sub); err == nil {
		if f, err := os.CreateTemp(dir, pattern); err == nil {
			return f, nil
		}
	}
	return os.CreateTemp("", "masque-"+pattern)
}
