//go:build unix

package importer

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time (user + system) the process has used:
// on a shared machine the wall clock also measures other jobs.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
