package proctree

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Supported reports whether this system lets the package see process trees.
const Supported = true

// SetSubreaper makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER): a descendant whose parent dies is re-parented to
// it instead of to init, so it stays a descendant that KillDescendants
// finds. Adopted orphans that exit stay zombies until this process exits or
// reaps them.
func SetSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// Descendants returns the live descendants of pid (children, grandchildren
// and so on; zombies excluded), read from /proc. The result is a snapshot:
// processes may fork or exit meanwhile.
func Descendants(pid int) []int {
	children := map[int][]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, state, ok := stat(p)
		if !ok || state == 'Z' || state == 'X' {
			continue
		}
		children[ppid] = append(children[ppid], p)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if c != pid {
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// Marked returns the live processes, other than the caller, whose
// environment (/proc/<pid>/environ, as it was at exec) holds the exact
// entry kv.
func Marked(kv string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	want := []byte(kv)
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == self {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !hasEntry(data, want) {
			continue
		}
		if _, state, ok := stat(p); ok && state != 'Z' && state != 'X' {
			out = append(out, p)
		}
	}
	return out
}

// hasEntry reports whether the NUL-separated environment block env holds
// the entry kv exactly.
func hasEntry(env, kv []byte) bool {
	for len(env) > 0 {
		i := bytes.IndexByte(env, 0)
		if i < 0 {
			i = len(env)
		}
		if bytes.Equal(env[:i], kv) {
			return true
		}
		if i == len(env) {
			break
		}
		env = env[i+1:]
	}
	return false
}

// stat reads the parent pid and state of p from /proc/p/stat. The command
// name in parentheses may itself hold spaces and parentheses, so the fields
// are counted from the last ')'.
func stat(p int) (ppid int, state byte, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0, 0, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, false
	}
	return ppid, f[0][0], true
}

// freeze stops pid (SIGSTOP): a stopped process cannot fork.
func freeze(pid int) { _ = syscall.Kill(pid, syscall.SIGSTOP) }

// kill ends pid (SIGKILL).
func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
