package dudect

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// Clock names the clock the measurements use: the calling thread's CPU
// time, which unlike the wall clock does not count the time the thread
// waits for a core (on a loaded machine, most of the wall-clock
// variation).
const Clock = "thread CPU time"

func threadTime() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}

// lockThread keeps the goroutine on its thread while it measures.
func lockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
