package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/catalog"
)

// A refused binary is reported once in the host log; a backup copy beside
// a real toolset is not a refusal at all; of two toolsets whose exposed
// names clash, one is kept.
func TestRefusalsAreReportedOnceAndOnlyOneClashingToolsetGoes(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	put := func(file, name, tool string) {
		m := `{"name":"` + name + `","version":"1.0.0","description":"d","tools":[{"name":"` + tool + `","description":"d","input_schema":{"type":"object"},"safety_class":"read_only"}]}`
		if err := os.WriteFile(filepath.Join(dir, file), []byte("#!/bin/sh\necho '"+m+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put(catalog.BinaryPrefix+"project", "project", "get_filesystem_tree")
	put(catalog.BinaryPrefix+"project.bak", "project", "get_filesystem_tree")
	put(catalog.BinaryPrefix+"project_get", "project_get", "filesystem_tree")
	if err := os.WriteFile(filepath.Join(dir, catalog.BinaryPrefix+"broken"), []byte("#!/bin/sh\necho nope\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	h, err := New(context.Background(), Options{PluginsDir: dir, GodotVersion: "4.5", NoSeed: true,
		Logger: hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	if _, ok := h.Catalog.Lookup("project"); !ok {
		t.Fatalf("project was knocked out; problems %v", h.Catalog.Problems())
	}
	if _, ok := h.Catalog.Lookup("project_get"); ok {
		t.Fatal("both clashing toolsets were kept")
	}
	out := logs.String()
	if n := strings.Count(out, catalog.BinaryPrefix+"broken"); n != 1 {
		t.Errorf("the broken binary is mentioned %d times in the log, want once:\n%s", n, out)
	}
	if n := strings.Count(out, `toolset \"project_get\" is refused`); n != 1 {
		t.Errorf("the clash is reported %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "project.bak"); n != 1 {
		t.Errorf("the backup is mentioned %d times, want once:\n%s", n, out)
	}
}

// A stale copy named godot-mcp-toolset-project_old and a plugin whose
// manifest claims "project" are refused alone: the genuine project toolset
// is served, and each refusal is reported once in the log, in
// godot_list_toolsets and in godot_health_check.
func TestMisnamedBinariesAreRefusedAloneAndOnce(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	put := func(file, name, tool string) {
		m := `{"name":"` + name + `","version":"1.0.0","description":"d","tools":[{"name":"` + tool + `","description":"d","input_schema":{"type":"object"},"safety_class":"read_only"}]}`
		if err := os.WriteFile(filepath.Join(dir, file), []byte("#!/bin/sh\necho '"+m+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put(catalog.BinaryPrefix+"project", "project", "get_filesystem_tree")
	put(catalog.BinaryPrefix+"project_old", "project", "get_filesystem_tree")
	put(catalog.BinaryPrefix+"impostor", "project", "get_filesystem_tree")
	var logs strings.Builder
	h, err := New(context.Background(), Options{PluginsDir: dir, GodotVersion: "4.5", NoSeed: true,
		Logger: hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	if e, ok := h.Catalog.Lookup("project"); !ok || filepath.Base(e.Path) != catalog.BinaryPrefix+"project" {
		t.Fatalf("the genuine project toolset was knocked out: %+v; problems %v", e, h.Catalog.Problems())
	}
	once := func(where, text string) {
		t.Helper()
		for _, file := range []string{"project_old", "impostor"} {
			if n := strings.Count(text, catalog.BinaryPrefix+file); n != 1 {
				t.Errorf("%s names %s %d times, want once:\n%s", where, file, n, text)
			}
		}
	}
	once("the log", logs.String())

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.Server.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	for _, tool := range []string{"godot_list_toolsets", "godot_health_check"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		once(tool, string(b))
		if tool == "godot_list_toolsets" && !strings.Contains(string(b), `"name":"project"`) {
			t.Errorf("%s does not list the project toolset: %s", tool, b)
		}
	}
}
