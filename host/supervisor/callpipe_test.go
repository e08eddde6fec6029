package supervisor

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// pipeOf reports whether the running toolset's calls go over the call pipe.
func pipeOf(t *testing.T, s *harness, name string) bool {
	t.Helper()
	s.mu.Lock()
	ts := s.toolsets[name]
	s.mu.Unlock()
	if ts == nil {
		t.Fatalf("toolset %s unknown", name)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.inst == nil {
		t.Fatalf("toolset %s not running", name)
	}
	return ts.inst.pipe != nil
}

// An SDK plugin serves the call pipe and gets its calls there; the
// operator's switch sends them over gRPC; a plugin that does not serve the
// pipe (the bare one: gRPC only, no SDK) is called over gRPC. Every way
// gives the same answer.
func TestCallsTakeThePipeWhenThePluginServesIt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		grpcOnly bool
		want     bool
	}{{"pipe", false, true}, {"grpc-only", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSupervisor(t, Options{GRPCCallsOnly: tc.grpcOnly})
			start(t, s, entry(t, "echo", "echo"))
			if got := pipeOf(t, s, "echo"); got != tc.want {
				t.Fatalf("call pipe in use = %v, want %v", got, tc.want)
			}
			if got := text(call(t, s, "echo", "echo", map[string]string{"text": "hello"})); got != "hello" {
				t.Fatalf("echo answered %q", got)
			}
		})
	}
	t.Run("plugin without the pipe", func(t *testing.T) {
		s := newSupervisor(t, Options{})
		start(t, s, bareEntry(t))
		if pipeOf(t, s, "bare") {
			t.Fatal("the bare plugin does not serve the call pipe, but the host uses one")
		}
		if got := text(call(t, s, "bare", "pid", struct{}{})); got != strconv.Itoa(s.Status("bare").PID) {
			t.Fatalf("the bare plugin answered %q over gRPC, want its pid", got)
		}
	})
}

// Processes a toolset starts inherit none of the host's connections: the
// call pipe's variable is gone and no socket is among the descriptors a
// child of the plugin holds.
func TestChildrenOfThePluginHoldNoSocket(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	var ids struct {
		CallPipeEnvLeft string `json:"call_pipe_env_left"`
	}
	_ = json.Unmarshal(structured(call(t, s, "echo", "pid", struct{}{})), &ids)
	if ids.CallPipeEnvLeft != "" {
		t.Fatalf("the plugin's environment still names the call pipe (%q)", ids.CallPipeEnvLeft)
	}
	fds := text(call(t, s, "echo", "child_fds", struct{}{}))
	if !strings.Contains(fds, "0 -> ") {
		t.Fatalf("child_fds listed nothing useful:\n%s", fds)
	}
	if strings.Contains(fds, "socket:") {
		t.Fatalf("a child of the plugin inherited a socket:\n%s", fds)
	}
}
