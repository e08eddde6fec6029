package godotrun

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// descendants returns the pids of every live descendant of root, found
// through /proc (Linux); nil where there is no /proc. Godot 3's
// OS.execute(…, false) puts its child in a new session (setsid), out of the
// run's process group, so killing the group alone would miss it.
func descendants(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid …"; comm may hold spaces and parentheses.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		children[ppid] = append(children[ppid], pid)
	}
	var out []int
	queue := []int{root}
	seen := map[int]bool{root: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// killTree stops the group (so nothing in it forks while it is walked),
// finds root's descendants that left the group, and kills the group and
// them.
func (g *group) killTree(root int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reaped {
		return
	}
	_ = syscall.Kill(-g.pgid, syscall.SIGSTOP)
	escaped := descendants(root)
	_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	for _, p := range escaped {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}
