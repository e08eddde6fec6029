//go:build unix && !linux

package supervisor

import "errors"

// canWaitNoReap is false where waitid(WNOWAIT) is not available; the runner
// then kills the plugin's process group right after reaping it.
const canWaitNoReap = false

func waitExitNoReap(int) {}

// setMemoryLimit is not available here: prlimit is Linux-only.
func setMemoryLimit(int, int64) error {
	return errors.New("per-plugin memory limits are only supported on Linux; remove plugins.memory_limit_mb")
}
