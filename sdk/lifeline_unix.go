//go:build unix

package sdk

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/godot-mcp/godot-mcp/sdk/proctree"
)

// leaveTheEndToTheLifeline keeps two signals that come with the host's
// death from ending the plugin: the lifeline decides when the plugin ends,
// and it ends with its descendants (exitHostGone). Killed by either in the
// middle of exitHostGone, after it froze its descendants and before it
// killed them, the plugin would leave them stopped and orphaned:
//
//   - SIGPIPE: the plugin's stderr is a pipe to the host. Once the host is
//     dead, Go's default for a broken pipe on fd 1 or 2 is to exit at once,
//     so any log line written in that moment (the call pipe reporting the
//     host's end reset, say) would end the plugin. Caught, such a write
//     only fails with EPIPE.
//   - SIGHUP: the host starts the plugin as the leader of its own process
//     group, which the host's death orphans (the plugin's new parent is
//     outside its session). If a member of the group is stopped at that
//     moment, the kernel sends the whole group SIGHUP and SIGCONT, as
//     POSIX says for a newly orphaned group. exitHostGone can be freezing
//     the group already: the lifeline reads EOF when the host's files are
//     closed, before the kernel has finished the host's exit.
//
// A caught signal (unlike an ignored one) is reset to its default in the
// programs the plugin executes.
func leaveTheEndToTheLifeline() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE, syscall.SIGHUP)
}

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
