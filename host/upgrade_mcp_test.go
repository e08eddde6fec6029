package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/catalog"
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
	h, err := New(ctx, Options{Version: "test", PluginsDir: plugins, NoSeed: true, CatalogCacheDir: t.TempDir(), WatchInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	if _, err := h.Gate.Enable(ctx, gate.Request{Toolsets: []string{"upgradable"}, By: "test"}); err != nil {
		t.Fatal(err)
	}
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
