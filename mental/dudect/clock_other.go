//go:build !linux

package dudect

import "time"

// Clock names the clock the measurements use: the wall clock where no
// thread CPU clock is read.
const Clock = "wall clock"

var epoch = time.Now()

func threadTime() time.Duration { return time.Since(epoch) }

func lockThread() (unlock func()) { return func() {} }
