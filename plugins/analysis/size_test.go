package main

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A scene over the 16 MiB limit is not read: every analysis result says it
// was skipped, and why, instead of the plugin parsing it into gigabytes.
func TestOversizedSceneIsSkippedAndSaidSo(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "project.godot", "config_version=5\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\n")
	plugintest.WriteFile(t, dir, "main.tscn", "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node\"]\n")
	var b strings.Builder
	b.WriteString("[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://tex.png\" id=\"1\"]\n\n[node name=\"Big\" type=\"Node\"]\n")
	for b.Len() <= deps.DefaultMaxFileSize {
		b.WriteString("[node name=\"N\" type=\"Node\" parent=\".\"]\nmetadata/pad = \"" + strings.Repeat("x", 4000) + "\"\n\n")
	}
	plugintest.WriteFile(t, dir, "big.tscn", b.String())
	plugintest.WriteFile(t, dir, "tex.png", "PNG")

	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	const msg = "skipped: res://big.tscn is 16.0 MB, over the 16 MB limit for analysis"
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"project_structure", nil},
		{"project_stats", nil},
		{"analyze_dependencies", nil},
		{"detect_circular_dependencies", nil},
		{"find_unused_resources", nil},
		{"find_orphaned_resources", nil},
		{"cross_scene_find_refs", map[string]any{"target": "res://tex.png"}},
		{"analyze_signal_flow", nil},
		{"validate_scene_integrity", nil},
	} {
		if tc.args == nil {
			tc.args = map[string]any{}
		}
		res := h.Call(context.Background(), tc.tool, tc.args)
		if res.Err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tc.tool, res.Err, res.Text())
		}
		var out struct {
			Skipped []deps.Finding `json:"skipped"`
		}
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
		if len(out.Skipped) != 1 || out.Skipped[0].Code != deps.CodeTooLarge || !strings.HasPrefix(out.Skipped[0].Message, msg) ||
			out.Skipped[0].Hint == "" || !strings.Contains(res.Text(), msg) {
			t.Errorf("%s: skipped %+v\n%s", tc.tool, out.Skipped, res.Text())
		}
	}
	got := call[integrityResult](t, h, "validate_scene_integrity", map[string]any{"scene": "res://big.tscn"})
	if len(got.Findings) != 1 || got.Findings[0].Code != deps.CodeTooLarge || got.Warnings != 1 {
		t.Errorf("integrity of big.tscn: %+v", got)
	}
}
