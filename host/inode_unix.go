//go:build unix

package host

import (
	"os"
	"syscall"
)

// inode is the file's inode number: a binary renamed into place has a new
// one even when its size and time match.
func inode(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
