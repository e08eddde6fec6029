package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// A headless edit spells floats as the project's Godot version does:
// Godot 4.5 and later write 10000000.0, older versions 1e+07. The version
// comes from the host (Env.GodotVersion) or, without one, from
// config/features of project.godot.
func TestEditsUseProjectFloatSpelling(t *testing.T) {
	for _, tt := range []struct {
		name, features, hostVersion string
		want                        []string
	}{
		{"4.7 project", "", "", []string{"position = Vector2(10000000, 1e-05)", "rotation = 10000000.0"}},
		{"4.4 project", "4.4", "", []string{"position = Vector2(1e+07, 1e-05)", "rotation = 1e+07"}},
		{"host says 4.4", "", "4.4.1", []string{"position = Vector2(1e+07, 1e-05)", "rotation = 1e+07"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, "2d-pong")
			if tt.features != "" {
				p := filepath.Join(dir, "project.godot")
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				text := strings.Replace(string(src), `PackedStringArray("4.7"`, `PackedStringArray("`+tt.features+`"`, 1)
				if text == string(src) {
					t.Fatal("fixture project.godot names no 4.7 feature")
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: tt.hostVersion, Workspace: workspace.Options{}})
			plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
			plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": map[string]any{"x": 1e7, "y": 1e-5}})
			plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "rotation", "value": 1e7})
			got := read(t, dir, pong)
			for _, w := range tt.want {
				if !strings.Contains(got, "\n"+w+"\n") {
					t.Errorf("want line %q in\n%s", w, got)
				}
			}
			roundTrips(t, pong, got)
		})
	}
}
