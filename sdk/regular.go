package sdk

import (
	"fmt"
	"io"
	"io/fs"
)

// NotRegularError is a path that exists but is not a regular file: a
// directory, a named pipe, a socket, a device. Tools read regular files
// only: opening a named pipe waits until some process writes to it, so a
// FIFO planted in a project (or named as a source) would hang the call.
type NotRegularError struct {
	// Kind names what the path is: "directory", "named pipe (FIFO)",
	// "socket", "character device", "block device" or "special file".
	Kind string
}

func (e *NotRegularError) Error() string {
	if e.Kind == "directory" {
		return "is a directory"
	}
	return "is a " + e.Kind + ", not a regular file"
}

// NotRegular is the *NotRegularError for a file of mode m.
func NotRegular(m fs.FileMode) error {
	kind := "special file"
	switch {
	case m.IsDir():
		kind = "directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	}
	return &NotRegularError{Kind: kind}
}

// ReadRegular reads the file at abs if it is a regular file of at most
// limit bytes, through [OpenRegular]: a named pipe, socket or device is
// refused with a *NotRegularError instead of blocking the call. For the
// small files a tool reads beside the workspace (sidecars, headers,
// caches); project files a tool edits go through [Call.Workspace].
func ReadRegular(abs string, limit int64) ([]byte, error) {
	f, fi, err := OpenRegular(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d read", abs, fi.Size(), limit)
	}
	// The file can grow between the stat and the read: never read more.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past %d bytes while it was read", abs, limit)
	}
	return data, nil
}
