//go:build unix

package catalog

import (
	"os"
	"syscall"
)

func statKeyOf(info os.FileInfo) (statKey, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return statKey{}, false
	}
	return statKey{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size,
		MTime: st.Mtim.Nano(), CTime: st.Ctim.Nano()}, true
}
