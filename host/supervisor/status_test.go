package supervisor

import (
	"context"
	"encoding/json"
	"github.com/godot-mcp/godot-mcp/sdk"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// A plugin that answers a call with gRPC status Unavailable or Canceled is
// alive: the call fails at once with PLUGIN_ERROR carrying its message, and
// the process is neither killed nor counted as crashed.
func TestPluginStatusIsNotACrash(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "bare", "bare"))
	pid := pidOf(t, call(t, s, "bare", "pid", struct{}{}))
	if pid != s.Status("bare").PID {
		t.Fatalf("pid tool says %d, status says %d", pid, s.Status("bare").PID)
	}
	for _, code := range []string{"Unavailable", "Canceled"} {
		t0 := time.Now()
		_, err := callErr(s, "bare", "status", map[string]string{"code": code, "message": "editor unavailable"})
		took := time.Since(t0)
		se := asError(t, err, sdk.CodePluginError)
		if !strings.Contains(se.Message, "editor unavailable") || !strings.Contains(se.Hint, "toolset's author") {
			t.Fatalf("%s: error %v", code, se)
		}
		// A crash would wait StopGrace + kill + drain (4 s) before killing.
		if took > time.Second {
			t.Fatalf("%s: call took %s, want a prompt answer", code, took)
		}
		st := s.Status("bare")
		if st.State != Running || st.PID != pid || !alive(pid) {
			t.Fatalf("%s: after the status error: %+v (pid was %d)", code, st, pid)
		}
	}
	if got := pidOf(t, call(t, s, "bare", "pid", struct{}{})); got != pid {
		t.Fatalf("plugin restarted: pid %d, was %d", got, pid)
	}
	if got := s.events.kinds(); slices.Contains(got, "bare:crashed") || slices.Contains(got, "bare:crash_loop") {
		t.Fatalf("a status error was counted as a crash: %v", got)
	}
}

// Stop with an already cancelled context still waits for the plugin to be
// torn down and does not log it as stuck: the context bounds only the grace
// period.
func TestStopWithCancelledContext(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	pid := s.Status("echo").PID
	var ids struct {
		SocketDir string `json:"socket_dir"`
	}
	_ = json.Unmarshal(structured(call(t, s, "echo", "pid", struct{}{})), &ids)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = s.Stop(ctx, "echo")
	if alive(pid) {
		t.Fatalf("plugin %d alive after Stop", pid)
	}
	if log := s.log.String(); strings.Contains(log, "did not exit after SIGKILL") {
		t.Fatalf("a normal exit was logged as stuck:\n%s", log)
	}
	if got := s.Status("echo"); got.State != Stopped {
		t.Fatalf("after stop: %+v", got)
	}
	if _, err := os.Stat(ids.SocketDir); ids.SocketDir == "" || !os.IsNotExist(err) {
		t.Fatalf("socket dir %q not yet removed when Stop returned: %v", ids.SocketDir, err)
	}
}
