//go:build unix

package workspace

import (
	"context"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive advisory lock on f, polling with backoff so
// that the wait ends with ctx: a process stuck while holding the lock must
// not hang every other process on the project for good. An error other
// than contention (a file system without locks) leaves the journal
// unlocked rather than unusable.
func lockFile(ctx context.Context, f *os.File) error {
	delay := 500 * time.Microsecond
	var timer *time.Timer
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return nil
		case syscall.EINTR:
			continue
		case syscall.EWOULDBLOCK:
		default:
			return nil
		}
		if timer == nil {
			timer = time.NewTimer(delay)
			defer timer.Stop()
		} else {
			timer.Reset(delay)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		delay = min(2*delay, 20*time.Millisecond)
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
