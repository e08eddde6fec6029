//go:build unix

package sdk_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/proctree"
)

// TestHostGoneWithABrokenStderr: once the host is dead, the plugin's
// stderr pipe has no reader. A line written there then must not end the
// plugin (Go exits on SIGPIPE for fd 2 by default) before it has killed
// the processes it started: the lifeline decides when it ends, and it ends
// with them.
func TestHostGoneWithABrokenStderr(t *testing.T) {
	if !proctree.Supported {
		t.Skip("process trees are read from /proc (Linux)")
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := fixtureAsHostStartsIt(t, lifeR, "FIXTURE_CHILD=1", "FIXTURE_STDERR_NOISE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // as the host starts it
	cmd.Stderr = errW
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lifeR.Close()
	errW.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatalf("reading handshake: %v", err)
	}
	if _, err := bufio.NewReader(errR).ReadString('\n'); err != nil {
		t.Fatalf("reading the plugin's stderr: %v", err)
	}
	children := proctree.Descendants(cmd.Process.Pid)
	if len(children) == 0 {
		t.Fatal("the fixture started no child")
	}
	errR.Close() // the host's end of stderr is gone; the lifeline is not yet
	select {
	case err := <-exited:
		t.Fatalf("the plugin ended when its stderr broke (%v), before its lifeline closed", err)
	case <-time.After(500 * time.Millisecond):
	}

	lifeW.Close() // now the host is gone
	select {
	case err := <-exited:
		// It kills its own process group, itself included.
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL) {
			t.Fatalf("plugin exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("plugin did not exit after its lifeline closed")
	}
	for _, pid := range children {
		if !waitGone(pid, 10*time.Second) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("child %d outlived the plugin", pid)
		}
	}
}

// waitGone polls until pid no longer runs (gone, or a zombie waiting to be
// reaped) or within passes.
func waitGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if gone(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// gone reports whether pid no longer runs: gone, or a zombie.
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X')
}

// TestHostGoneOrphansTheGroupWhileItFreezes: the host starts the plugin as
// the leader of its own process group, so the host's death orphans that
// group. If a member of the group is stopped at that moment (the plugin
// freezes its descendants as soon as the lifeline reads EOF, which can be
// before the kernel has finished the host's exit), the kernel sends the
// whole group SIGHUP and SIGCONT. The hang-up must not end the plugin
// halfway: the processes it had frozen but not killed, outside the group,
// would stay stopped forever (Chromium's crash handler was left so).
func TestHostGoneOrphansTheGroupWhileItFreezes(t *testing.T) {
	if !proctree.Supported {
		t.Skip("process trees are read from /proc (Linux)")
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer lifeW.Close()
	host := fixtureAsHostStartsIt(t, lifeR, "FIXTURE_AS_HOST=1", "FIXTURE_CHILD=1", "FIXTURE_DETACHED_CHILD=1")
	hostIn, err := host.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	lifeR.Close()
	var plugin int
	lines := bufio.NewReader(out)
	for handshake := false; plugin == 0 || !handshake; {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stand-in host: %v", err)
		}
		if _, err := fmt.Sscanf(line, "plugin %d", &plugin); err != nil {
			handshake = true
		}
	}
	var children []int
	deadline := time.Now().Add(10 * time.Second)
	for len(children) < 2 && time.Now().Before(deadline) {
		children = proctree.Descendants(plugin)
		time.Sleep(10 * time.Millisecond)
	}
	if len(children) != 2 {
		t.Fatalf("the plugin has children %v, want its sleep and its detached sleep", children)
	}
	t.Cleanup(func() {
		for _, p := range append(children, plugin) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	// The member of the plugin's group is stopped, as the plugin's freeze
	// leaves it; then the host dies.
	for _, c := range children {
		if pg, _ := syscall.Getpgid(c); pg == plugin {
			_ = syscall.Kill(c, syscall.SIGSTOP)
		}
	}
	hostIn.Close()
	if err := host.Wait(); err != nil {
		t.Fatalf("the stand-in host: %v", err)
	}
	time.Sleep(200 * time.Millisecond) // the hang-up arrives now, if at all
	if gone(plugin) {
		t.Fatal("the plugin died when its orphaned group was hung up, before its lifeline closed")
	}
	lifeW.Close()
	for _, pid := range append(children, plugin) {
		if !waitGone(pid, 10*time.Second) {
			stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			t.Errorf("process %d outlived the plugin's end: %s", pid, stat)
		}
	}
}
