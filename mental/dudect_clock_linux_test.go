package mental

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadTime returns the CPU time the calling thread has used: unlike
// the wall clock it does not count the time the thread waits for a core
// (on a loaded machine, most of the wall-clock variation). The caller
// locks its goroutine to its thread.
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

// dudectClock names the clock the measurements use.
const dudectClock = "thread CPU time"
