//go:build !unix

package sdk

import "os"

// exitHostGone ends the plugin after its host died.
func exitHostGone() { os.Exit(0) }

// checkLifeline accepts fd; the lifeline is a Unix pipe and only checked there.
func checkLifeline(int) error { return nil }

// leaveTheEndToTheLifeline does nothing here: only Unix has SIGPIPE and SIGHUP.
func leaveTheEndToTheLifeline() {}
