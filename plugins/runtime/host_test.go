package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// These tests drive the real godot-mcp binary with this toolset built as a
// plugin, over stdio with the go-sdk client, as an agent would.

var (
	buildOnce                   sync.Once
	hostBinPath, pluginsDirPath string
	buildErr                    error
)

// binaries builds godot-mcp and godot-mcp-toolset-runtime once per test
// binary; it returns the host's path and the plugins directory.
func binaries(t *testing.T) (hostBin, pluginsDir string) {
	t.Helper()
	buildOnce.Do(func() { hostBinPath, pluginsDirPath, buildErr = testplugins.HostWithToolset("runtime") })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return hostBinPath, pluginsDirPath
}

type hostSession struct {
	*mcp.ClientSession
	cmd      *exec.Cmd
	progress chan *mcp.ProgressNotificationParams
}

// startHost runs `godot-mcp serve --project dir` with the runtime toolset
// enabled by default, and extra ("NAME=value") in its environment.
func startHost(t *testing.T, dir string, extra ...string) *hostSession {
	t.Helper()
	bin, plugins := binaries(t)
	cmd := exec.Command(bin, "serve", "--plugins-dir", plugins, "--project", dir)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODOT_MCP_") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, "XDG_CACHE_HOME="+t.TempDir(), "GODOT_MCP_DEFAULT_TOOLSETS=runtime"), extra...)
	var stderr strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	s := &hostSession{cmd: cmd, progress: make(chan *mcp.ProgressNotificationParams, 64)}
	client := mcp.NewClient(&mcp.Implementation{Name: "runtime-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case s.progress <- r.Params:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.String())
	}
	s.ClientSession = cs
	t.Cleanup(func() {
		_ = cs.Close()
		if t.Failed() {
			mu.Lock()
			t.Logf("host stderr:\n%s", stderr.String())
			mu.Unlock()
		}
	})
	return s
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestOverTheRealHost(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t,
		"extends Node\n\nfunc hit(enemy):\n\tenemy.take_damage(3)\n\nfunc _ready():\n\tOS.delay_msec(1500)\n\thit(null)\n\tget_tree().quit(2)\n", nil)
	s := startHost(t, dir)
	params := &mcp.CallToolParams{Name: "godot_runtime_run_and_capture", Arguments: map[string]any{"timeout_seconds": 30}}
	params.SetProgressToken("run-1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out runResult
	if err := json.Unmarshal(b, &out); err != nil || res.IsError {
		t.Fatalf("%v %s", err, b)
	}
	if out.ExitCode == nil || *out.ExitCode != 2 || len(scriptErrors(out)) != 1 || !strings.Contains(scriptErrors(out)[0], "res://main.gd:4 hit") {
		t.Fatalf("%s", b)
	}
	select {
	case p := <-s.progress:
		if p.ProgressToken != "run-1" || p.Total != 30 {
			t.Errorf("progress %+v", p)
		}
	case <-time.After(5 * time.Second):
		t.Error("no progress notification during a 1.5 s run")
	}
	// A Godot 3 project gates in: the toolset is on, not refused.
	res, err = s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_runtime_is_playing", Arguments: map[string]any{}})
	if err != nil || res.IsError || !strings.Contains(textOf(res), `"playing":false`) {
		t.Fatalf("%v %s", err, textOf(res))
	}
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	b2, _ := json.Marshal(res.StructuredContent)
	return b.String() + string(b2)
}

// TestHostKilledKillsGodot SIGKILLs the host while Godot runs: the plugin
// loses its lifeline and kills its group, its guard sees the plugin gone
// and kills Godot's group. Nothing may be left.
func TestHostKilledKillsGodot(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, loopingGame, nil)
	s := startHost(t, dir)
	go func() {
		_, _ = s.CallTool(context.Background(), &mcp.CallToolParams{Name: "godot_runtime_run_and_capture",
			Arguments: map[string]any{"timeout_seconds": 300}})
	}()
	pid := waitPID(t, dir)
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	if !testplugins.WaitDead(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("Godot %d outlived the killed host", pid)
	}
}

// TestDaemonDiesWithTheRunOverTheRealHost runs, through the host and the
// real plugin, a fake Godot that double-forks a daemon and exits, then one
// that also hangs until the deadline: after each run_and_capture answers,
// the daemon is gone although it left Godot's group, session and tree.
func TestDaemonDiesWithTheRunOverTheRealHost(t *testing.T) {
	fake := godottest.DaemonizingGodot(t)
	for _, hang := range []bool{false, true} {
		dir := godottest.Godot3Project(t, "extends Node\n", nil)
		if hang {
			if err := os.WriteFile(filepath.Join(dir, "hang"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s := startHost(t, dir, godotrun.EnvBin+"="+fake)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_runtime_run_and_capture",
			Arguments: map[string]any{"timeout_seconds": 1, "expected_timeout": hang}})
		cancel()
		if err != nil || res.IsError {
			t.Fatalf("hang %v: %v %s", hang, err, textOf(res))
		}
		pid := godottest.DaemonPID(t, dir, time.Second)
		if !testplugins.WaitDead(pid, 2*time.Second) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("hang %v: the daemon %d outlived the run", hang, pid)
		}
	}
}
