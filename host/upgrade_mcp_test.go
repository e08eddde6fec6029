package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

func buildVariant(t *testing.T, out, variant string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-ldflags", "-X main.variant="+variant, "-o", out, testplugins.Module+"/internal/testplugins/upgradable")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
}

// TestHotUpgradeOverMCP: a connected MCP client keeps its session through
// an upgrade whose tools changed, gets tools/list_changed, sees the new
// tool, and every call after the swap is answered by the new build.
func TestHotUpgradeOverMCP(t *testing.T) {
	plugins := t.TempDir()
	path := filepath.Join(plugins, catalog.BinaryPrefix+"upgradable")
	buildVariant(t, path, "1")
	next := filepath.Join(t.TempDir(), "next")
	buildVariant(t, next, "2")

	ctx := context.Background()
	h := upgradeHost(t, Options{PluginsDir: plugins}, "upgradable")
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.Server.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	which := func() string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "godot_upgradable_which", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("which: %v %+v", err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := which(); got != "1" {
		t.Fatalf("before: %q", got)
	}

	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("no tools/list_changed after the upgrade")
	}
	if got := which(); got != "2" {
		t.Errorf("after list_changed the old build answered: %q", got)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Contains(names, "godot_upgradable_added") {
		t.Errorf("the new tool is not listed: %v", names)
	}
	if r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "godot_upgradable_added", Arguments: map[string]any{}}); err != nil || r.IsError {
		t.Errorf("new tool: %v %+v", err, r)
	}
}

// TestHotUpgradeUpdatesTheGate: after an upgrade the toolset listing shows
// the new version, and the new Godot constraint gates at once: a build that
// needs a Godot the host does not have turns the enabled toolset off, with
// the event saying why, and enabling it again is refused.
func TestHotUpgradeUpdatesTheGate(t *testing.T) {
	plugins := t.TempDir()
	path := filepath.Join(plugins, catalog.BinaryPrefix+"upgradable")
	buildVariant(t, path, "1")
	dir := t.TempDir()
	next, newer := filepath.Join(dir, "next"), filepath.Join(dir, "newer")
	buildVariant(t, next, "2")
	buildVariant(t, newer, "3")

	ctx := context.Background()
	h := upgradeHost(t, Options{PluginsDir: plugins, GodotVersion: "4.5"}, "upgradable")
	listed := func() gate.Toolset {
		for _, ts := range h.Gate.Toolsets() {
			if ts.Name == "upgradable" {
				return ts
			}
		}
		t.Fatal("upgradable is not listed")
		return gate.Toolset{}
	}
	install := func(src string) {
		t.Helper()
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".new", b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; listed %+v", what, listed())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	install(next)
	waitFor("version 2.0.0 to be listed", func() bool { return listed().Version == "2.0.0" })
	if ts := listed(); !ts.Enabled || ts.Blocked != nil {
		t.Fatalf("after an upgrade within the constraint: %+v, want enabled", ts)
	}

	install(newer)
	waitFor("version 3.0.0 to be listed", func() bool { return listed().Version == "3.0.0" })
	waitFor("the toolset to be turned off", func() bool { return !h.Gate.Enabled("upgradable") })
	ts := listed()
	if ts.Godot != ">= 9.0" || ts.Blocked == nil {
		t.Fatalf("after an upgrade to a build for Godot >= 9.0: %+v, want it blocked", ts)
	}
	if st := h.Supervisor.Status("upgradable"); st.PID != 0 {
		t.Errorf("the plugin still runs (pid %d) after its toolset was turned off", st.PID)
	}
	// Sinks run on their own queues: the event arrives shortly.
	waitFor("a toolset_disabled event by the upgrade naming version 3.0.0", func() bool {
		for _, e := range h.Ring.Recent() {
			if e.Kind == events.ToolsetDisabled && e.Toolset == "upgradable" && e.Fields["by"] == "upgrade" && strings.Contains(e.Message, "3.0.0") {
				return true
			}
		}
		return false
	})
	if _, err := h.Gate.Enable(ctx, gate.Request{Toolsets: []string{"upgradable"}, By: "test"}); err == nil {
		t.Error("enabling a toolset whose installed build needs Godot >= 9.0 was allowed on 4.5")
	}
}
