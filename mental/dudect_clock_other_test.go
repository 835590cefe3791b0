//go:build !linux

package mental

import "time"

var epoch = time.Now()

// threadTime is the wall clock where no thread CPU clock is read.
func threadTime() time.Duration { return time.Since(epoch) }

func lockThread() (unlock func()) { return func() {} }

// dudectClock names the clock the measurements use.
const dudectClock = "wall clock"
