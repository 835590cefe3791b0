//go:build !unix

package store

import "os"

// lock is a no-op where flock is not available: two processes on one
// state directory are not detected there.
func lock(f *os.File) error { return nil }
