//go:build unix

package sdk

import (
	"github.com/godot-mcp/godot-mcp/sdk/proctree"

	"fmt"
	"os"
	"syscall"
)

// exitHostGone ends the plugin after its host died. The host starts every
// plugin as the leader of its own process group; when that is so, the whole
// group is killed, so processes the plugin spawned (a Godot instance, a
// language server) do not outlive a host that was killed too abruptly to
// stop them itself. A plugin that is not a group leader (started by hand or by
// another host) must not signal a group it does not own, so it only exits.
//
// Processes that left the group (setsid, a daemonizing double fork) are
// found through the process tree instead (Linux): Serve made the plugin a
// child subreaper, so they stay its descendants even when their own parent
// is gone.
func exitHostGone() {
	if pid := os.Getpid(); syscall.Getpgrp() == pid {
		proctree.KillDescendants(pid, nil)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	os.Exit(0)
}

// checkLifeline makes sure fd is an open pipe before the plugin trusts it:
// reading a closed descriptor would end the plugin at once, and reading some
// other open file would read a file the plugin does not own.
func checkLifeline(fd int) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fmt.Errorf("file descriptor %d is not open: %v", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return fmt.Errorf("file descriptor %d is not a pipe", fd)
	}
	return nil
}
