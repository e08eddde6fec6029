package testplugins

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Alive reports whether pid is a live process: zombies count as dead,
// because a zombie runs no code and only waits for its parent (often init,
// which may be slow to reap) to collect it.
func Alive(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	state := s[i+2]
	return state != 'Z' && state != 'X'
}

// WaitDead polls until pid is gone or within passes, and reports whether it
// died. within is a liveness bound from the requirements, not a speed
// measurement.
func WaitDead(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		if !Alive(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
