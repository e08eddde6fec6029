package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// pluginEnv asks the echo plugin for its environment.
func pluginEnv(t *testing.T, s *harness, name string) map[string]string {
	t.Helper()
	var out struct{ Env []string }
	if err := json.Unmarshal(structured(call(t, s, name, "env", struct{}{})), &out); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range out.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env
}

// A plugin must not see the host's secrets: only the allow list, what the
// host defines for it, and what the operator passes by name.
func TestPluginEnvironmentIsAllowListed(t *testing.T) {
	t.Setenv("GODOT_MCP_AUTH_TOKEN", "operator-secret")
	t.Setenv("GODOT_MCP_TOKEN_CI", "ci-secret")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "cloud-secret")
	t.Setenv("GODOT_MCP_TEST_PASSED", "passed-value")
	t.Setenv("LC_TIME", "C")
	s := newSupervisor(t, Options{
		// The operator tries to pass a secret too: it is still withheld.
		PassEnv:   func(string) []string { return []string{"GODOT_MCP_TEST_PASSED", "GODOT_MCP_TOKEN_CI"} },
		SecretEnv: []string{"GODOT_MCP_TOKEN_CI"},
	})
	start(t, s, entry(t, "echo", "echo"))
	env := pluginEnv(t, s, "echo")
	for _, k := range []string{"GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_TOKEN_CI", "AWS_SECRET_ACCESS_KEY"} {
		if v, ok := env[k]; ok {
			t.Errorf("plugin sees %s=%q", k, v)
		}
	}
	for k, want := range map[string]string{"GODOT_MCP_TEST_PASSED": "passed-value", "LC_TIME": "C", "PATH": os.Getenv("PATH")} {
		if env[k] != want {
			t.Errorf("plugin has %s=%q, want %q", k, env[k], want)
		}
	}
	if env["GODOT_MCP_TOOLSET_PLUGIN"] == "" || env["PLUGIN_UNIX_SOCKET_DIR"] == "" {
		t.Errorf("plugin lacks the variables the host defines for it: %v", env)
	}
	for k := range env {
		known := slices.Contains([]string{"PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "TZ", "GODOT_MCP_TEST_PASSED"}, k) ||
			strings.HasPrefix(k, "LC_") || strings.HasPrefix(k, "PLUGIN_") || k == "GODOT_MCP_TOOLSET_PLUGIN" || k == "GODOT_MCP_INSTANCE"
		if !known {
			t.Errorf("plugin got %s, which is neither allow-listed nor passed", k)
		}
	}
}

// A result above the cap is refused unread with RESULT_TOO_LARGE, costs the
// host far less than its size, and leaves the plugin serving.
func TestResultTooLarge(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	const size = 60 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := callErr(s, "echo", "big", map[string]int{"bytes": size})
	runtime.ReadMemStats(&after)
	se := asError(t, err, sdk.CodeResultTooLarge)
	if !strings.Contains(se.Hint, "max_result_mb") {
		t.Errorf("hint %q does not say how to raise the limit", se.Hint)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/2 {
		t.Errorf("refusing a %d MiB result allocated %d MiB in the host", size>>20, got>>20)
	}
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "still here"})); got != "still here" {
		t.Fatalf("after the refused result the plugin answered %q", got)
	}
}

func TestResultCapIsConfigurable(t *testing.T) {
	small := newSupervisor(t, Options{MaxResultBytes: 1 << 20})
	start(t, small, entry(t, "echo", "echo"))
	if res := call(t, small, "echo", "big", map[string]int{"bytes": 512 << 10}); len(text(res)) != 512<<10 {
		t.Fatalf("a 512 KiB result under a 1 MiB cap came back with %d bytes", len(text(res)))
	}
	_, err := callErr(small, "echo", "big", map[string]int{"bytes": 2 << 20})
	asError(t, err, sdk.CodeResultTooLarge)
}

// Calls beyond MaxConcurrentCalls wait for a slot.
func TestConcurrentCallsAreBounded(t *testing.T) {
	s := newSupervisor(t, Options{MaxConcurrentCalls: 2})
	start(t, s, entry(t, "echo", "echo"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.Call(ctx, "echo", CallRequest{Tool: "hang", Args: []byte("{}")}, nil)
			done <- err
		}()
	}
	// Wait until both hang calls hold their slots.
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		inst := s.toolsets["echo"].inst
		s.mu.Unlock()
		if len(inst.calls) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the two hanging calls never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	short, cancelShort := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, err := s.Call(short, "echo", CallRequest{Tool: "echo", Args: []byte(`{"text":"x"}`)}, nil)
	cancelShort()
	asError(t, err, sdk.CodeCallCancelled)
	cancel()
	for range 2 {
		<-done
	}
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "free"})); got != "free" {
		t.Fatalf("after the slots freed the plugin answered %q", got)
	}
}

// A stderr flood reaches the host log only up to the rate limit, plus a
// summary of what was dropped.
func TestStderrIsRateLimited(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	before := len(s.log.String())
	const flood = 8 << 20
	began := time.Now()
	call(t, s, "echo", "flood", map[string]int{"bytes": flood})
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	// What the bucket lets through in the time taken, with room for the
	// log's own line prefixes (timestamp, level, logger name: under 60% of
	// a 100-byte line) and the summary lines.
	allowed := int(1.6*(stderrBurst+stderrRate*time.Since(began).Seconds())) + 64<<10
	logged := s.log.String()[before:]
	if len(logged) > allowed || len(logged) > flood/2 {
		t.Errorf("an %d MiB stderr flood put %d KiB into the host log (allowed %d KiB)", flood>>20, len(logged)>>10, allowed>>10)
	}
	if !strings.Contains(logged, "rate-limited") || !strings.Contains(logged, "dropped_bytes") {
		t.Errorf("no summary of dropped output in the log")
	}
	for _, l := range strings.Split(logged, "\n") {
		if strings.Contains(l, "ffffffffff") && !strings.Contains(l, "[DEBUG]") {
			t.Fatalf("plain stderr line logged above debug: %.120s", l)
		}
	}
}

// A grandchild that left the plugin's process group (setsid) still dies
// when the toolset is stopped.
func TestStopKillsDetachedGrandchild(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	gc := pidOf(t, call(t, s, "echo", "spawn_setsid", struct{}{}))
	defer syscall.Kill(gc, syscall.SIGKILL)
	if pg, _ := syscall.Getpgid(gc); pg == s.Status("echo").PID {
		t.Fatalf("grandchild %d is still in the plugin's group", gc)
	}
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	if !waitDead(gc, 2*time.Second) {
		t.Fatalf("detached grandchild %d alive after Stop", gc)
	}
}

// A detached grandchild of a plugin that crashes dies too: found by the
// run's marker in its environment, since its ancestry is gone.
func TestCrashKillsDetachedGrandchild(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	gc := pidOf(t, call(t, s, "echo", "spawn_setsid", struct{}{}))
	defer syscall.Kill(gc, syscall.SIGKILL)
	_, err := callErr(s, "echo", "panic", struct{}{})
	asError(t, err, sdk.CodePluginCrashed)
	if !waitDead(gc, 2*time.Second) {
		t.Fatalf("detached grandchild %d alive after its plugin crashed", gc)
	}
}

// The same grandchild dies when the host is SIGKILLed: the SDK kills its
// descendants when the lifeline breaks.
func TestHostKilledLeavesNoDetachedGrandchild(t *testing.T) {
	cmd := exec.Command(hostBin, "echo", bins["echo"], "spawn_setsid")
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, 64)
	n, err := out.Read(buf)
	if err != nil {
		t.Fatalf("reading pids: %v; stderr: %s", err, stderr.String())
	}
	var pid, child int
	if _, err := fmt.Sscanf(string(buf[:n]), "pid %d %d", &pid, &child); err != nil {
		t.Fatalf("test host printed %q", buf[:n])
	}
	defer syscall.Kill(child, syscall.SIGKILL)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if !waitDead(child, 2*time.Second) {
		t.Fatalf("detached grandchild %d alive 2s after the host was SIGKILLed", child)
	}
}

// bareEntry is the bare plugin with the manifest it prints with --describe.
func bareEntry(t *testing.T) catalog.Entry {
	t.Helper()
	e := entry(t, "bare", "bare")
	m, err := catalog.Describe(context.Background(), e.Path, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Manifest = m
	return e
}

// A plugin that serves another manifest than it described is refused,
// naming the tool and field.
func TestManifestMismatchIsRefused(t *testing.T) {
	s := newSupervisor(t, Options{PassEnv: func(string) []string { return []string{"BARE_MANIFEST_LIE"} }})
	e := bareEntry(t)
	start(t, s, e) // honest: starts
	if err := s.Stop(context.Background(), "bare"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BARE_MANIFEST_LIE", "1")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	se := asError(t, s.Start(ctx, e), sdk.CodePluginError)
	if !strings.Contains(se.Message, `tool "pid": safety_class "read_only", served "destructive"`) {
		t.Fatalf("message does not name the difference: %s", se.Message)
	}
	if st := s.Status("bare"); st.State != Stopped || st.PID != 0 {
		t.Fatalf("refused plugin left as %+v", st)
	}
}

// vsz returns a process's virtual memory size in bytes.
func vsz(t *testing.T, pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64)
	return pages * int64(os.Getpagesize())
}

// With a memory limit, a plugin that allocates past it dies (a crash the
// supervisor reports) instead of growing; under the limit it works.
func TestMemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("memory limits are Linux-only")
	}
	const limit = 256 << 20
	s := newSupervisor(t, Options{MemoryLimit: func(string) int64 { return limit }})
	start(t, s, entry(t, "echo", "echo"))
	pid := s.Status("echo").PID
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if !strings.Contains(string(data), "Max data size             "+strconv.Itoa(limit)) {
		t.Fatalf("plugin %d limits do not show a data limit of %d:\n%s", pid, limit, data)
	}
	t.Logf("plugin VSZ at rest: %d MiB (reserved address space, not limited)", vsz(t, pid)>>20)
	if got := text(call(t, s, "echo", "alloc", map[string]int{"bytes": 64 << 20})); !strings.HasPrefix(got, "allocated") {
		t.Fatalf("64 MiB under a 256 MiB limit: %q", got)
	}
	_, err := callErr(s, "echo", "alloc", map[string]int{"bytes": 512 << 20})
	asError(t, err, sdk.CodePluginCrashed)
}
