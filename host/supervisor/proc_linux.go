package supervisor

import (
	"errors"

	"golang.org/x/sys/unix"
)

// canWaitNoReap reports that waitExitNoReap really waits (Linux waitid with
// WNOWAIT), so the runner can kill a plugin's process group while the
// plugin's pid is still reserved by its zombie.
const canWaitNoReap = true

// waitExitNoReap blocks until the process exits, leaving it unreaped.
func waitExitNoReap(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// setMemoryLimit caps the data memory of process pid at limit bytes
// (RLIMIT_DATA, soft and hard, set with prlimit). Since Linux 4.7 it counts
// every private writable mapping (heap, anonymous mmap), but not address
// space merely reserved: a Go program reserves over 1 GiB of address space
// at start, so RLIMIT_AS would have to be set above that to let it start at
// all, and would then bound nothing useful. An allocation beyond the limit
// fails in the plugin; a Go plugin then dies with "out of memory", which the
// supervisor reports as a crash. Processes the plugin starts inherit the
// limit, each on its own.
func setMemoryLimit(pid int, limit int64) error {
	lim := unix.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	return unix.Prlimit(pid, unix.RLIMIT_DATA, &lim, nil)
}
