package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestWorkspaceRefusesGitMetadata: a real tool call cannot write or delete
// anything under .git, like .godot/.
func TestWorkspaceRefusesGitMetadata(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	mkdirAll(t, dir+"/.git/hooks")
	writeFile(t, dir+"/.git/HEAD", "ref: refs/heads/main\n")
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", wsDir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)

	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"godot_wsedit_write", map[string]any{"name": "Hook", "files": []map[string]any{{"path": "res://.git/hooks/pre-commit", "content": "#!/bin/sh\n"}}}},
		{"godot_wsedit_write", map[string]any{"name": "Head", "files": []map[string]any{{"path": "res://.git/HEAD", "content": "x"}}}},
		{"godot_wsedit_delete", map[string]any{"path": "res://.git/HEAD", "confirm": true}},
	} {
		te := toolError(t, s.call(t, call.tool, call.args))
		if te.Code != sdk.CodeInvalidArgument || !strings.Contains(te.Message, ".git") {
			t.Fatalf("%s %v = %+v, want INVALID_ARGUMENT naming .git", call.tool, call.args, te)
		}
	}
	if got, _ := readFile(t, dir+"/.git/HEAD"); got != "ref: refs/heads/main\n" {
		t.Fatalf(".git/HEAD = %q", got)
	}
	if _, ok := readFile(t, dir+"/.git/hooks/pre-commit"); ok {
		t.Fatal("a git hook was created through a tool")
	}
}

func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestWorkspaceRefusesAFIFO: a named pipe in the project is refused at once
// by every tool that touches it (it used to block the call forever, with
// the workspace and journal locks held, stalling every godot-mcp process
// on the project), and the other files stay editable from this host and
// from a second process.
func TestWorkspaceRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	writeFile(t, dir+"/main.tscn", "v1\n")
	if err := syscall.Mkfifo(dir+"/pipe.tscn", 0o644); err != nil {
		t.Fatal(err)
	}
	journal := "GODOT_MCP_WORKSPACE_JOURNAL=" + t.TempDir()
	s := stdioHostEnv(t, legacy, []string{journal}, "--project", dir, "--plugins-dir", wsDir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"godot_wsedit_read", map[string]any{"path": "res://pipe.tscn"}},
		{"godot_wsedit_write", map[string]any{"name": "Over the pipe", "files": []map[string]any{{"path": "res://pipe.tscn", "content": "x"}}}},
		{"godot_wsedit_delete", map[string]any{"path": "res://pipe.tscn", "confirm": true}},
	} {
		te := toolError(t, s.call(t, call.tool, call.args))
		if te.Code != sdk.CodeInvalidArgument || !strings.Contains(te.Message, "res://pipe.tscn") || !strings.Contains(te.Message, "named pipe") {
			t.Fatalf("%s = %+v, want INVALID_ARGUMENT naming the pipe", call.tool, te)
		}
	}
	s.ok(t, "godot_wsedit_write", map[string]any{"name": "Edit", "files": []map[string]any{{"path": "res://main.tscn", "content": "v2\n"}}}, nil)
	cmd := exec.Command(bin, "call", "godot_wsedit_write", "--args", `{"name":"From the CLI","files":[{"path":"res://main.tscn","content":"v3\n"}]}`,
		"--project", dir, "--plugins-dir", wsDir)
	cmd.Env = hostEnv(t.TempDir()+"/calls", journal)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a second process on the project: %v\n%s", err, out)
	}
	if got, _ := readFile(t, dir+"/main.tscn"); got != "v3\n" {
		t.Fatalf("main.tscn = %q", got)
	}
	if fi, err := os.Lstat(dir + "/pipe.tscn"); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was touched: %v %v", fi, err)
	}
}

// TestHostExitsOnSIGTERMWithACallStuck: a host whose tool call waits on
// the journal lock another (stuck) process holds still exits when told to.
func TestHostExitsOnSIGTERMWithACallStuck(t *testing.T) {
	dir, jdir := t.TempDir(), t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	writeFile(t, dir+"/main.tscn", "v1\n")
	// The stuck process: it holds the journal lock and never lets go.
	lock, err := os.OpenFile(filepath.Join(jdir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "serve", "--plugins-dir", wsDir, "--project", dir)
	cmd.Env = hostEnv(t.TempDir()+"/calls", "GODOT_MCP_WORKSPACE_JOURNAL="+jdir)
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := newClient(newNotes()).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Minute}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr)
	}
	defer cs.Close()
	s := &session{ClientSession: cs}
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)
	started := make(chan struct{})
	go func() {
		close(started)
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "godot_wsedit_write", Arguments: map[string]any{
			"name": "Stuck", "files": []map[string]any{{"path": "res://main.tscn", "content": "v2\n"}}}})
	}()
	<-started
	// Give the call time to reach the lock; the test holds either way.
	time.Sleep(time.Second)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { _, err := cmd.Process.Wait(); exited <- err }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the host ignored SIGTERM with a call stuck\n%s", stderr)
	}
	if got, _ := readFile(t, dir+"/main.tscn"); got != "v1\n" {
		t.Fatalf("main.tscn = %q: the stuck write went through", got)
	}
}

// TestWorkspaceSweepsStrayTempFiles: the temporary files a killed host
// left in the project are removed by the next host on the project; fresh
// ones (a commit in flight elsewhere) stay.
func TestWorkspaceSweepsStrayTempFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n")
	mkdirAll(t, dir+"/scenes")
	stale, fresh := dir+"/scenes/.main.tscn.godot-mcp-123456", dir+"/scenes/.level.tscn.godot-mcp-0123456789abcdef-1.tmp"
	writeFile(t, stale, "half a scene")
	writeFile(t, fresh, "half a scene")
	old := time.Now().Add(-10 * time.Minute)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_WORKSPACE_JOURNAL=" + t.TempDir()}, "--project", dir, "--plugins-dir", wsDir)
	s.ok(t, "godot_list_history", nil, nil)
	if _, ok := readFile(t, stale); ok {
		t.Fatal("the stale temporary file is still in the project")
	}
	if _, ok := readFile(t, fresh); !ok {
		t.Fatal("a fresh temporary file was removed")
	}
}
