//go:build linux

package proctree

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func alive(pid int) bool {
	_, state, ok := stat(pid)
	return ok && state != 'Z' && state != 'X'
}

// TestKillDescendantsReachesSetsid starts a shell that starts a process in a
// new session and exits: the grandchild is orphaned, leaves the group, and
// only the subreaper keeps it in our tree.
func TestKillDescendantsReachesSetsid(t *testing.T) {
	if !Supported {
		t.Skip("no process tree on this system")
	}
	// A helper process that becomes a subreaper, so that the test binary
	// itself does not change.
	if os.Getenv("PROCTREE_HELPER") == "1" {
		if err := SetSubreaper(); err != nil {
			os.Exit(3)
		}
		cmd := exec.Command("sh", "-c", "setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $!")
		out, err := cmd.Output()
		if err != nil {
			os.Exit(4)
		}
		os.Stdout.Write(out)
		os.Stdout.Close()
		time.Sleep(time.Minute)
		return
	}
	helper := exec.Command(os.Args[0], "-test.run=^TestKillDescendantsReachesSetsid$")
	helper.Env = append(os.Environ(), "PROCTREE_HELPER=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = helper.Process.Kill(); _ = helper.Wait() }()
	buf := make([]byte, 32)
	n, _ := out.Read(buf)
	gc, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatalf("helper printed %q", buf[:n])
	}
	defer syscall.Kill(gc, syscall.SIGKILL)
	// The shell has exited; the grandchild was adopted by the helper.
	deadline := time.Now().Add(5 * time.Second)
	for !slices.Contains(Descendants(helper.Process.Pid), gc) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d is not among the helper's descendants %v", gc, Descendants(helper.Process.Pid))
		}
		time.Sleep(10 * time.Millisecond)
	}
	killed := KillDescendants(helper.Process.Pid, nil)
	if !slices.Contains(killed, gc) {
		t.Fatalf("KillDescendants killed %v, not %d", killed, gc)
	}
	for alive(gc) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d alive after KillDescendants", gc)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !alive(helper.Process.Pid) {
		t.Fatal("KillDescendants killed the ancestor itself")
	}
}

// A marker in the environment finds a process however it was re-parented.
func TestKillMarked(t *testing.T) {
	if !Supported {
		t.Skip("no process tree on this system")
	}
	marker := "PROCTREE_TEST_MARK=" + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sh", "-c", "setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $!")
	cmd.Env = append(os.Environ(), marker)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	gc, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("shell printed %q", out)
	}
	defer syscall.Kill(gc, syscall.SIGKILL)
	// The shell is gone; the sleep was orphaned to init (or a subreaper).
	// It may still be between fork and exec, when its environment cannot
	// be read for a moment: poll.
	deadline := time.Now().Add(5 * time.Second)
	for got := Marked(marker); !slices.Contains(got, gc); got = Marked(marker) {
		if time.Now().After(deadline) {
			t.Fatalf("Marked(%q) = %v, want %d among them", marker, got, gc)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := Marked(marker + "0"); slices.Contains(got, gc) {
		t.Fatal("a longer marker matched")
	}
	if killed := KillMarked(marker); !slices.Contains(killed, gc) {
		t.Fatalf("KillMarked killed %v", killed)
	}
	deadline = time.Now().Add(5 * time.Second)
	for alive(gc) {
		if time.Now().After(deadline) {
			t.Fatalf("%d alive after KillMarked", gc)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
