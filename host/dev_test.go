package host

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// TestDevPlugin runs toolsets from outside the plugins directory: a Go
// package directory (built by the host) and a binary, enabled at start and
// trusted without the lock file even when the plugins directory has one.
// A rebuilt binary is swapped in.
func TestDevPlugin(t *testing.T) {
	build := t.TempDir()
	bins, err := testplugins.Build(build, "echo")
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	pkg := filepath.Join(filepath.Dir(file), "..", "internal", "testplugins", "bare")
	bin := filepath.Join(t.TempDir(), "my-echo")
	orig, _ := os.ReadFile(bins["echo"])
	if err := os.WriteFile(bin, orig, 0o755); err != nil {
		t.Fatal(err)
	}
	plugins := t.TempDir()
	// A lock file pinning nothing: dev plugins are not subject to it.
	if err := os.WriteFile(filepath.Join(plugins, "godot-mcp.lock.json"), []byte(`{"version":1,"plugins":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := New(ctx, Options{Version: "test", PluginsDir: plugins, GodotVersion: "4.5", NoSeed: true,
		CatalogCacheDir: t.TempDir(), WatchInterval: 20 * time.Millisecond, DevPlugins: []string{pkg, bin}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	for _, n := range []string{"bare", "echo"} {
		if e, ok := h.Catalog.Lookup(n); !ok || !e.Dev {
			t.Fatalf("dev toolset %s not cataloged: %+v (problems %v)", n, e, h.Catalog.Problems())
		}
		if !h.Gate.Enabled(n) || h.Supervisor.Status(n).PID == 0 {
			t.Errorf("dev toolset %s is not enabled and running: %+v", n, h.Supervisor.Status(n))
		}
	}
	pid := h.Supervisor.Status("echo").PID
	next := append(append([]byte(nil), orig...), []byte("\x00rebuilt")...)
	if err := os.WriteFile(bin+".new", next, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(bin+".new", bin); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for p := h.Supervisor.Status("echo").PID; p == pid || p == 0; p = h.Supervisor.Status("echo").PID {
		if time.Now().After(deadline) {
			t.Fatalf("the rebuilt dev binary was not swapped in (problems %v)", h.Catalog.Problems())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
