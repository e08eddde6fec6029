//go:build unix

package sdk

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
)

// callPipeConn turns the descriptor number the host passed in
// callpipe.FDEnv into a connection. The descriptor must be an open stream
// socket: anything else is refused rather than read. It is marked
// close-on-exec, so a process the toolset starts (a Godot run) never holds
// the host's call pipe.
func callPipeConn(fdText string) (net.Conn, error) {
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%q is not a file descriptor number above 2", fdText)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("file descriptor %d is not open: %v", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return nil, fmt.Errorf("file descriptor %d is not a socket", fd)
	}
	syscall.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "call pipe")
	conn, err := net.FileConn(f) // a duplicate; f itself is closed below
	_ = f.Close()
	if err != nil {
		return nil, fmt.Errorf("file descriptor %d: %v", fd, err)
	}
	return conn, nil
}
