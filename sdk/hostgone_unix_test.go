//go:build unix

package sdk_test

import (
	"bufio"
	"bytes"
	"errors"
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
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
