package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// This test drives the real godot-mcp binary with this toolset built as a
// plugin, over stdio, as an agent would, with a fake exporting Godot.

var (
	buildOnce                   sync.Once
	hostBinPath, pluginsDirPath string
	buildErr                    error
)

// binaries builds godot-mcp and godot-mcp-toolset-export once per test
// binary; it returns the host's path and the plugins directory.
func binaries(t *testing.T) (hostBin, pluginsDir string) {
	t.Helper()
	buildOnce.Do(func() { hostBinPath, pluginsDirPath, buildErr = testplugins.HostWithToolset("export") })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return hostBinPath, pluginsDirPath
}

// TestExportOverTheRealHost: through the host, an export onto
// project.godot or through a link to a file outside the project is
// refused and changes nothing; a pack export lands in res://build/ beside
// a .gdignore.
func TestExportOverTheRealHost(t *testing.T) {
	bin, plugins := binaries(t)
	dir := godottest.Godot3Project(t, "extends Node\n", map[string]string{"export_presets.cfg": presets})
	outside := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "build", "linked.pck")); err != nil {
		t.Fatal(err)
	}
	projectGodot, err := os.ReadFile(filepath.Join(dir, "project.godot"))
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "serve", "--plugins-dir", plugins, "--project", dir)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODOT_MCP_") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "XDG_CACHE_HOME="+t.TempDir(), "GODOT_MCP_DEFAULT_TOOLSETS=export",
		godotrun.EnvBin+"="+godottest.ExportingGodot(t))
	var stderr strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "export-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.String())
	}
	defer func() {
		_ = cs.Close()
		if t.Failed() {
			mu.Lock()
			t.Logf("host stderr:\n%s", stderr.String())
			mu.Unlock()
		}
	}()
	export := func(args map[string]any) (*mcp.CallToolResult, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "godot_export_project", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		s, _ := json.Marshal(res.StructuredContent)
		return res, b.String() + string(s)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"preset": "Linux/X11", "mode": "pack", "output": "res://project.godot"}, "INVALID_ARGUMENT: output res://project.godot is outside the export folder res://build/"},
		{map[string]any{"preset": "Linux/X11", "mode": "pack", "output": "res://build/linked.pck", "overwrite": true}, "INVALID_ARGUMENT: res://build/linked.pck is a symbolic link"},
	} {
		res, text := export(tc.args)
		if !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("%v: %s", tc.args, text)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "precious" {
		t.Fatalf("the outside file now holds %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "project.godot")); string(data) != string(projectGodot) {
		t.Fatalf("project.godot changed:\n%s", data)
	}
	res, text := export(map[string]any{"preset": "Linux/X11", "mode": "pack"})
	if res.IsError || !strings.Contains(text, `"exported":true`) {
		t.Fatalf("pack export: %s", text)
	}
	for _, f := range []string{"game.pck", ".gdignore", manifestName} {
		if _, err := os.Lstat(filepath.Join(dir, "build", f)); err != nil {
			t.Errorf("build/%s: %v", f, err)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
