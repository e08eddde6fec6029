// Package proctree finds and kills the descendants of a process, including
// those that left its process group (setsid, double fork): the part of
// process containment a process group cannot do. The host uses it when it
// stops a plugin; sdk.Serve uses it when the host is gone.
//
//	_ = proctree.SetSubreaper()          // orphans of descendants stay ours (Linux)
//	...
//	proctree.KillDescendants(os.Getpid(), nil) // freeze the whole tree, then SIGKILL it
//
// It reads /proc and works on Linux only; elsewhere every function does
// nothing and Supported is false. A descendant that is already orphaned to
// init (its parent died before anyone looked, and no subreaper adopted it)
// is no longer a descendant and cannot be found: SetSubreaper in the
// ancestor is what prevents that.
package proctree

// maxRounds bounds how often KillDescendants re-reads the tree while new
// descendants keep appearing (a fork bomb racing it).
const maxRounds = 50

// KillDescendants stops every descendant of pid with SIGSTOP, re-reading
// the tree until no new descendant appears (a stopped process cannot fork,
// and the children of a process killed later cannot escape to init before
// it dies), then SIGKILLs them all. pid itself is not signalled. Descendants
// for which skip (may be nil) returns true are left alone, though their own
// descendants are not. It returns the pids it killed.
func KillDescendants(pid int, skip func(pid int) bool) []int {
	if !Supported {
		return nil
	}
	seen := map[int]bool{}
	var all []int
	for range maxRounds {
		fresh := 0
		for _, d := range Descendants(pid) {
			if !seen[d] {
				seen[d] = true
				if skip != nil && skip(d) {
					continue
				}
				all = append(all, d)
				freeze(d)
				fresh++
			}
		}
		if fresh == 0 {
			break
		}
	}
	for _, d := range all {
		kill(d)
	}
	return all
}

// KillMarked stops and then SIGKILLs every process (other than the caller)
// whose environment holds the exact entry kv ("NAME=value"), re-reading
// until no new one appears, like KillDescendants. A process inherits its
// parent's environment, so a marker given to a process at start finds its
// descendants even after they were orphaned and re-parented away from it;
// only processes that scrub their environment escape. It returns the pids
// it killed. Processes of other users cannot be read and are never found.
func KillMarked(kv string) []int {
	if !Supported || kv == "" {
		return nil
	}
	seen := map[int]bool{}
	var all []int
	// A process in the middle of an exec can have an unreadable
	// environment for a moment, so the tree counts as settled only after
	// two quiet rounds.
	quiet := 0
	for range maxRounds {
		fresh := 0
		for _, p := range Marked(kv) {
			if !seen[p] {
				seen[p] = true
				all = append(all, p)
				freeze(p)
				fresh++
			}
		}
		if fresh > 0 {
			quiet = 0
			continue
		}
		if quiet++; quiet == 2 {
			break
		}
	}
	for _, p := range all {
		kill(p)
	}
	return all
}
