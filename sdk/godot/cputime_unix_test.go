//go:build unix

package godot

import (
	"syscall"
	"time"
)

// processCPUTime returns the CPU time (user + system) the process has used.
// Benchmarks report throughput per CPU second as well as per wall second,
// because on a shared machine the wall clock also measures other jobs.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
