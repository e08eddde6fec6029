package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// panicMessage is what the echo plugin's panic tool panics with.
const panicMessage = "echo-test: deliberate panic in tool panic"

func text(res sdk.Result) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured returns a result's structured content as JSON.
func structured(res sdk.Result) []byte {
	b, _ := json.Marshal(res.Structured)
	return b
}

func call(t *testing.T, s *harness, name, tool string, args any) sdk.Result {
	t.Helper()
	res, err := callErr(s, name, tool, args)
	if err != nil {
		t.Fatalf("call %s.%s: %v", name, tool, err)
	}
	return res
}

func callErr(s *harness, name, tool string, args any) (sdk.Result, error) {
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The echo plugin's editor tool is editor-only: call it in editor mode,
	// so it reaches the host's editor service (connected or not).
	return s.Call(ctx, name, CallRequest{Tool: tool, Args: raw, EditorAttached: tool == "editor"}, nil)
}

func pidOf(t *testing.T, res sdk.Result) int {
	t.Helper()
	var out struct{ PID, PGID int }
	if err := json.Unmarshal(structured(res), &out); err != nil {
		t.Fatalf("pid result %q: %v", structured(res), err)
	}
	return out.PID
}

func asError(t *testing.T, err error, code string) *sdk.Error {
	t.Helper()
	var se *sdk.Error
	if !errors.As(err, &se) {
		t.Fatalf("got error %v (%T), want *supervisor.Error with code %s", err, err, code)
	}
	if se.Code != code {
		t.Fatalf("got code %s (%v), want %s", se.Code, se, code)
	}
	return se
}

func start(t *testing.T, s *harness, e catalog.Entry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Start(ctx, e); err != nil {
		t.Fatalf("start %s: %v", e.Name, err)
	}
}

func TestStartCallStop(t *testing.T) {
	s := newSupervisor(t, Options{})
	e := entry(t, "echo", "echo")
	if got := s.Status("echo").State; got != Stopped {
		t.Fatalf("before start: state %s, want stopped", got)
	}
	start(t, s, e)
	start(t, s, e) // idempotent

	st := s.Status("echo")
	if st.State != Running || st.PID == 0 || st.StartedAt.IsZero() {
		t.Fatalf("after start: %+v", st)
	}
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "hello"})); got != "hello" {
		t.Fatalf("echo answered %q", got)
	}
	// The plugin leads its own process group, has a lifeline pipe, and
	// its socket lives in a directory only this user can enter.
	var ids struct {
		PID, PGID       int
		SocketDir       string `json:"socket_dir"`
		Lifeline        string
		LifelineEnvLeft string `json:"lifeline_env_left"`
	}
	_ = json.Unmarshal(structured(call(t, s, "echo", "pid", struct{}{})), &ids)
	if ids.PID != st.PID || ids.PGID != st.PID {
		t.Fatalf("plugin pid %d pgid %d, want both %d", ids.PID, ids.PGID, st.PID)
	}
	if !strings.HasPrefix(ids.Lifeline, "pipe:") {
		t.Fatalf("lifeline is %q, want a pipe", ids.Lifeline)
	}
	if ids.LifelineEnvLeft != "" {
		t.Fatalf("the plugin's environment still names the lifeline (%q); processes it starts would inherit it", ids.LifelineEnvLeft)
	}
	info, err := os.Stat(ids.SocketDir)
	if err != nil || ids.SocketDir == "" {
		t.Fatalf("socket dir %q: %v", ids.SocketDir, err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Fatalf("socket dir %s has mode %v, want 0700", ids.SocketDir, perm)
	}

	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	if alive(st.PID) {
		t.Fatalf("plugin %d still alive after Stop", st.PID)
	}
	if got := s.Status("echo"); got.State != Stopped || got.PID != 0 {
		t.Fatalf("after stop: %+v", got)
	}
	if _, err := os.Stat(ids.SocketDir); !os.IsNotExist(err) {
		t.Fatalf("socket dir %s left behind: %v", ids.SocketDir, err)
	}
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatalf("second stop: %v", err)
	}
	_, err = callErr(s, "echo", "echo", map[string]string{"text": "x"})
	asError(t, err, sdk.CodePluginNotRunning)
	if got, want := s.events.kinds(), []string{"echo:started", "echo:exited"}; !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

func TestStopKillsGrandchildren(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	pid := s.Status("echo").PID
	grandchild := pidOf(t, call(t, s, "echo", "spawn", struct{}{}))
	if !alive(grandchild) {
		t.Fatalf("grandchild %d is not running", grandchild)
	}
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("plugin %d alive after Stop", pid)
	}
	// Stop returns after the group got SIGKILL; the kernel may take a
	// moment to finish the grandchild off.
	if !waitDead(grandchild, 2*time.Second) {
		t.Errorf("grandchild %d alive after Stop", grandchild)
	}
}

func TestProgressAndHostServices(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))

	var progress []string
	raw, _ := json.Marshal(map[string]int{"steps": 3})
	res, err := s.Call(context.Background(), "echo", CallRequest{Tool: "slow", Args: raw}, func(p Progress) {
		progress = append(progress, p.Message)
	})
	if err != nil {
		t.Fatal(err)
	}
	if text(res) != "done" || !slices.Equal(progress, []string{"step 1", "step 2", "step 3"}) {
		t.Fatalf("slow: result %q, progress %v", text(res), progress)
	}

	// HostLog reaches the toolset's logger; so does raw stderr.
	call(t, s, "echo", "log", map[string]string{"text": "note-from-plugin"})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.log.String(), "host.echo") || !strings.Contains(s.log.String(), "stderr: note-from-plugin") {
		if time.Now().After(deadline) {
			t.Fatalf("plugin log lines not in the host log named after the toolset:\n%s", s.log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}

	// Without an editor, editor commands fail with BRIDGE_DISCONNECTED.
	_, err = callErr(s, "echo", "editor", map[string]string{"text": "get_scene_tree"})
	if e := asError(t, err, "BRIDGE_DISCONNECTED"); e.Source != sdk.SourcePlugin || e.Toolset != "echo" {
		t.Fatalf("editor without a peer: %+v", e)
	}

	_, err = callErr(s, "echo", "no_such_tool", struct{}{})
	asError(t, err, sdk.CodePluginError)
	if s.Status("echo").State != Running {
		t.Fatal("an unknown tool must not take the plugin down")
	}
}

type fakeEditor struct {
	pb.UnimplementedHostEditorServer
}

func (fakeEditor) Command(_ context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	return &pb.EditorResponse{Ok: true, ResultJson: []byte(`{"command":"` + req.GetCommand() + `"}`)}, nil
}

func TestEditorService(t *testing.T) {
	s := newSupervisor(t, Options{Editor: fakeEditor{}})
	start(t, s, entry(t, "echo", "echo"))
	res := call(t, s, "echo", "editor", map[string]string{"text": "get_scene_tree"})
	if res.IsError || !strings.Contains(string(structured(res)), "get_scene_tree") {
		t.Fatalf("editor: %v", res)
	}
}

func TestPanicIsReportedAndRestarted(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	start(t, s, entry(t, "other", "echo"))
	first := s.Status("echo").PID

	_, err := callErr(s, "echo", "panic", struct{}{})
	se := asError(t, err, sdk.CodePluginCrashed)
	t.Logf("the error a caller sees: %v", se)
	if !strings.Contains(se.Message, panicMessage) {
		t.Errorf("message lacks the panic text: %q", se.Message)
	}
	if !strings.Contains(se.Detail, "goroutine") {
		t.Errorf("detail lacks the goroutine trace: %q", se.Detail)
	}
	if se.Hint != hintCrashed || se.Toolset != "echo" {
		t.Errorf("hint %q toolset %q", se.Hint, se.Toolset)
	}
	st := s.Status("echo")
	if st.State != Crashed || !strings.Contains(st.LastError, panicMessage) {
		t.Fatalf("after the panic: %+v", st)
	}
	if alive(first) {
		t.Fatalf("crashed plugin %d still alive", first)
	}

	// The other toolset is unaffected.
	if got := text(call(t, s, "other", "echo", map[string]string{"text": "still here"})); got != "still here" {
		t.Fatalf("other toolset answered %q", got)
	}

	// The next call restarts the plugin.
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "back"})); got != "back" {
		t.Fatalf("after restart echo answered %q", got)
	}
	st = s.Status("echo")
	if st.State != Running || st.Restarts != 1 || st.PID == first {
		t.Fatalf("after restart: %+v (first pid %d)", st, first)
	}
	kinds := s.events.kinds()
	if !slices.Contains(kinds, "echo:crashed") || !slices.Contains(kinds, "echo:restarted") {
		t.Fatalf("events %v lack crashed and restarted", kinds)
	}
}

func TestCrashLoop(t *testing.T) {
	s := newSupervisor(t, Options{})
	e := entry(t, "echo", "echo")
	start(t, s, e)
	for i := 1; i <= crashLoopCount; i++ {
		_, err := callErr(s, "echo", "panic", struct{}{})
		asError(t, err, sdk.CodePluginCrashed)
	}
	if st := s.Status("echo"); st.State != Failed {
		t.Fatalf("after %d crashes: %+v", crashLoopCount, st)
	}
	_, err := callErr(s, "echo", "echo", map[string]string{"text": "x"})
	se := asError(t, err, sdk.CodeCrashLoop)
	if !strings.Contains(se.Hint, "disable and re-enable") || !strings.Contains(se.Message, panicMessage) {
		t.Fatalf("crash loop error: %v", se)
	}
	if !slices.Contains(s.events.kinds(), "echo:crash_loop") {
		t.Fatalf("no crash_loop event in %v", s.events.kinds())
	}
	// Start (re-enabling) clears the crash loop.
	start(t, s, e)
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "ok"})); got != "ok" {
		t.Fatalf("after re-enable: %q", got)
	}
}

func TestHungCallHonoursDeadlineAndStopKills(t *testing.T) {
	s := newSupervisor(t, Options{StopGrace: 500 * time.Millisecond})
	start(t, s, entry(t, "echo", "echo"))
	pid := s.Status("echo").PID

	// A tool that honours cancellation: the deadline ends the call and the
	// plugin lives on.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, err := s.Call(ctx, "echo", CallRequest{Tool: "hang", Args: json.RawMessage(`{}`)}, nil)
	cancel()
	se := asError(t, err, sdk.CodeCallCancelled)
	if !errors.Is(se, context.DeadlineExceeded) {
		t.Fatalf("error does not unwrap to DeadlineExceeded: %v", err)
	}
	if s.Status("echo").State != Running {
		t.Fatal("a cancelled call must not take the plugin down")
	}

	// A tool that ignores cancellation and SIGTERM: the deadline still ends
	// the call, and Stop still kills the plugin.
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, err = s.Call(ctx, "echo", CallRequest{Tool: "hang", Args: json.RawMessage(`{"ignore_term":true,"ignore_cancel":true}`)}, nil)
	cancel()
	asError(t, err, sdk.CodeCallCancelled)

	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop(context.Background(), "echo") }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return within 5s for a hung plugin")
	}
	if alive(pid) {
		t.Fatalf("hung plugin %d alive after Stop", pid)
	}
}

func TestStopDuringCall(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	errc := make(chan error, 1)
	go func() {
		_, err := s.Call(context.Background(), "echo", CallRequest{Tool: "hang", Args: json.RawMessage(`{}`)}, nil)
		errc <- err
	}()
	// Let the call reach the plugin; either way it must end as not running.
	time.Sleep(100 * time.Millisecond)
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	asError(t, <-errc, sdk.CodePluginNotRunning)
	if s.Status("echo").State != Stopped {
		t.Fatal("a stop must not be taken for a crash")
	}
}

func TestNoisyPluginIsRefused(t *testing.T) {
	s := newSupervisor(t, Options{})
	e := entry(t, "noisy", "noisy")
	err := s.Start(context.Background(), e)
	se := asError(t, err, sdk.CodePluginStartFailed)
	t.Logf("the error an operator sees: %v", se)
	for _, want := range []string{`"noisy"`, e.Path, "stdout"} {
		if !strings.Contains(se.Message, want) {
			t.Errorf("error %q does not mention %q", se.Message, want)
		}
	}
	if st := s.Status("noisy"); st.State != Stopped || st.LastError == "" {
		t.Fatalf("after a failed start: %+v", st)
	}
}

func TestTamperedBinaryIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, catalog.BinaryPrefix+"echo")
	data, err := os.ReadFile(bins["echo"])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(catalog.Options{Dir: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := cat.Lookup("echo")
	if !ok {
		t.Fatalf("echo not cataloged: %v", cat.Problems())
	}
	s := newSupervisor(t, Options{Verify: cat.Verify})
	start(t, s, e)
	if err := s.Stop(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}

	// Tamper: same size, one byte changed.
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	err = s.Start(context.Background(), e)
	se := asError(t, err, sdk.CodePluginUntrusted)
	// Without a lock file nothing needs to be run: the message says the
	// host picks the new binary up by itself (not "run plugins lock").
	if !strings.Contains(se.Message, path) || !strings.Contains(se.Message, "no lock file pins it") || strings.Contains(se.Message, "run \"godot-mcp plugins lock\"") {
		t.Fatalf("error %q should name the binary and say that no lock file pins it", se.Message)
	}
}

func TestStartTimeout(t *testing.T) {
	// A "plugin" that never completes the handshake.
	dir := t.TempDir()
	path := filepath.Join(dir, "godot-mcp-toolset-mute")
	script := "#!/bin/sh\necho $$ > " + filepath.Join(dir, "pid") + "\nexec sleep 300\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSupervisor(t, Options{StartTimeout: 500 * time.Millisecond, StopGrace: 200 * time.Millisecond})
	err := s.Start(context.Background(), catalog.Entry{Name: "mute", Path: path})
	se := asError(t, err, sdk.CodePluginStartFailed)
	if !strings.Contains(se.Message, "did not become ready") {
		t.Errorf("message %q should say the plugin did not become ready", se.Message)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	if !waitDead(pid, 2*time.Second) {
		t.Fatalf("plugin %d that failed to start is still alive", pid)
	}
}

func TestStdinIsNotTheHosts(t *testing.T) {
	// Make the test process's fd 0 a pipe, like the MCP stream a real host
	// reads, and check the plugin does not get it.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Dup3(int(r.Fd()), 0, 0); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = unix.Dup3(saved, 0, 0)
		_ = unix.Close(saved)
		r.Close()
		w.Close()
	}()
	hostStdin, _ := os.Readlink("/proc/self/fd/0")

	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	got := text(call(t, s, "echo", "stdin", struct{}{}))
	if got != "/dev/null" || got == hostStdin {
		t.Fatalf("plugin stdin is %q (host stdin %q), want /dev/null", got, hostStdin)
	}
}

func TestHostKilledLeavesNoPlugin(t *testing.T) {
	cmd := exec.Command(hostBin, "echo", bins["echo"])
	// A SIGKILLed host cannot remove its plugin's socket directory; keep it
	// in a directory the test cleans up.
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
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	buf := make([]byte, 64)
	n, err := out.Read(buf)
	if err != nil {
		t.Fatalf("reading the plugin pid from the test host: %v; stderr: %s", err, stderr.String())
	}
	var pid, child int
	if _, err := fmt.Sscanf(string(buf[:n]), "pid %d %d", &pid, &child); err != nil || pid == 0 || child == 0 {
		t.Fatalf("test host printed %q; stderr: %s", buf[:n], stderr.String())
	}
	if !alive(pid) || !alive(child) {
		t.Fatalf("plugin %d or its child %d not running", pid, child)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// Both deadlines run from the same moment: 2 s after the host died.
	deadline := time.Now().Add(2 * time.Second)
	for _, p := range []struct {
		what string
		pid  int
	}{{"plugin", pid}, {"plugin's child", child}} {
		if !waitDead(p.pid, time.Until(deadline)) {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("%s %d still alive 2s after the host was SIGKILLed", p.what, p.pid)
		}
	}
}

func TestShutdownStopsAll(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "a", "echo"))
	start(t, s, entry(t, "b", "echo"))
	pids := []int{s.Status("a").PID, s.Status("b").PID}
	s.Shutdown(context.Background())
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("plugin %d alive after Shutdown", pid)
		}
	}
	err := s.Start(context.Background(), entry(t, "a", "echo"))
	asError(t, err, sdk.CodeHostShuttingDown)
}

func TestConcurrentCallsAndRestarts(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	// Crash once so that the calls below race to restart the plugin: only
	// one restart may happen.
	_, err := callErr(s, "echo", "panic", struct{}{})
	asError(t, err, sdk.CodePluginCrashed)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := strconv.Itoa(i)
			res, err := callErr(s, "echo", "echo", map[string]string{"text": want})
			if err == nil && text(res) != want {
				err = errors.New("wrong answer " + text(res))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if st := s.Status("echo"); st.Restarts != 1 {
		t.Fatalf("restarts %d, want 1", st.Restarts)
	}
}

func TestKilledWhileIdleIsACrash(t *testing.T) {
	s := newSupervisor(t, Options{})
	start(t, s, entry(t, "echo", "echo"))
	pid := s.Status("echo").PID
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Status("echo").State != Crashed {
		if time.Now().After(deadline) {
			t.Fatalf("state %+v after the plugin was killed", s.Status("echo"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if last := s.Status("echo").LastError; !strings.Contains(last, "signal: killed") || !strings.Contains(last, "printed no panic") {
		t.Fatalf("last error %q", last)
	}
	if got := text(call(t, s, "echo", "echo", map[string]string{"text": "again"})); got != "again" {
		t.Fatalf("after restart: %q", got)
	}
}

func TestStartSupersedesRestartBackoff(t *testing.T) {
	s := newSupervisor(t, Options{})
	e := entry(t, "echo", "echo")
	start(t, s, e)
	// Two crashes: the next restart waits 250ms after the second one.
	for range 2 {
		_, err := callErr(s, "echo", "panic", struct{}{})
		asError(t, err, sdk.CodePluginCrashed)
	}
	done := make(chan error, 1)
	go func() {
		_, err := callErr(s, "echo", "echo", map[string]string{"text": "x"})
		done <- err
	}()
	// Whether the call's restart is waiting out its backoff or already
	// done, Start must leave the toolset running and the call answered.
	start(t, s, e)
	if err := <-done; err != nil {
		t.Fatalf("call during Start: %v", err)
	}
	if st := s.Status("echo"); st.State != Running {
		t.Fatalf("after Start: %+v", st)
	}
}
