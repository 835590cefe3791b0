//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f without waiting; the kernel
// releases it when the process ends, however it ends (kill -9 included).
func lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrInUse
	}
	return err
}
