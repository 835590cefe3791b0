package dudect

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// Clock names the clock the measurements use: the calling thread's CPU
// time, which unlike the wall clock does not count the time the thread
// waits for a core (on a loaded machine, most of the wall-clock
// variation).
const Clock = "thread CPU time"

func threadTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// lockThread keeps the goroutine on its thread while it measures.
func lockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
