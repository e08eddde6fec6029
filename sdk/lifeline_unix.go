//go:build unix

package sdk

import (
	"os"
	"syscall"
)

// exitHostGone ends the plugin after its host died. The host starts every
// plugin as the leader of its own process group; when that is so, the whole
// group is killed, so processes the plugin spawned (a Godot instance, a
// language server) do not outlive a host that was killed too abruptly to
// stop them itself. A plugin that is not a group leader (started by hand or by
// another host) must not signal a group it does not own, so it only exits.
func exitHostGone() {
	if pid := os.Getpid(); syscall.Getpgrp() == pid {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	os.Exit(0)
}
