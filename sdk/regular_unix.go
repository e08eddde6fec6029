//go:build unix

package sdk

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenRegular opens abs for reading if it is a regular file, and answers
// its FileInfo; anything else is a *NotRegularError. It opens
// non-blocking, so that a named pipe (whose open waits for a writer), a
// device or anything else special cannot block the caller, checks the
// file's type on the descriptor it got (no window for a swap), and only
// then makes the descriptor blocking again for ordinary reads.
func OpenRegular(abs string) (*os.File, fs.FileInfo, error) {
	if fi, err := os.Stat(abs); err != nil {
		return nil, nil, err
	} else if !fi.Mode().IsRegular() {
		// Refused before the open: a socket cannot even be opened, and
		// opening some devices has side effects.
		return nil, nil, NotRegular(fi.Mode())
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	f := os.NewFile(uintptr(fd), abs)
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = NotRegular(fi.Mode())
	}
	if err == nil {
		err = syscall.SetNonblock(fd, false)
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
