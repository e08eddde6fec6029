//go:build unix && !linux

package supervisor

// canWaitNoReap is false where waitid(WNOWAIT) is not available; the runner
// then kills the plugin's process group right after reaping it.
const canWaitNoReap = false

func waitExitNoReap(int) {}
