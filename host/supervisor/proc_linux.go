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
