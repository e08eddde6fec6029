package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

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
