//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it; the
// journal's changes are short, so no timeout is needed. An error (a file
// system without locks) leaves the journal unlocked rather than unusable.
func lockFile(f *os.File) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return
		}
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
