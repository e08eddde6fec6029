package workspace

import (
	"errors"
	"io/fs"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// errNotRegular is a path that exists but is not a regular file: a
// directory, a named pipe, a socket, a device. The workspace reads and
// writes regular files only (opening a named pipe would block until some
// process writes to it).
type errNotRegular struct {
	kind string // "named pipe (FIFO)", "socket", …
}

func (e *errNotRegular) Error() string {
	if e.kind == "directory" {
		return "is a directory"
	}
	return "is a " + e.kind + ", not a regular file"
}

func notRegular(m fs.FileMode) error {
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
	return &errNotRegular{kind: kind}
}

// fileError turns a failure to load res into an error for the caller:
// INVALID_ARGUMENT for a special file (naming what it is and the fix),
// else code with hint.
func fileError(res string, err error, code, hint string) *sdk.Error {
	var nr *errNotRegular
	if errors.As(err, &nr) && nr.kind != "directory" {
		return sdk.Errorf(sdk.CodeInvalidArgument,
			"the workspace reads and writes regular files only: use another path, or remove the "+nr.kind+" "+res+" from the project outside the tools",
			"%s %v", res, err)
	}
	return sdk.Errorf(code, hint, "%s %v", res, err)
}
