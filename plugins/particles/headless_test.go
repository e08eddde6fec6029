package main

import (
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// On a copy of the 2d-particles demo: edit the existing Fire system's
// material and ramp, add a new system with a preset, read it back; the
// engine loads the result with every value set; undo restores the scene
// byte for byte.
func TestHeadlessEdits2DParticles(t *testing.T) {
	dir := plugintest.AssetProject(t, "2d-particles")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "particles.tscn")
	orig := read(t, scene)
	sp := "res://particles.tscn"

	got := plugintest.Call(t, h, "set_material", map[string]any{"scene_path": sp, "node_path": "Fire",
		"properties": map[string]any{"spread": 33.0, "gravity": []any{0, 50, 0}, "emission_shape": "EMISSION_SHAPE_SPHERE"}})
	if got["properties"].(map[string]any)["spread"] != 33.0 {
		t.Fatalf("set_material = %v", got)
	}
	plugintest.Call(t, h, "set_color_gradient", map[string]any{"scene_path": sp, "node_path": "Fire", "colors": []any{"#ffee88", []any{1, 0.4, 0, 0.8}, "#cc220000"}})
	plugintest.Call(t, h, "create", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Sparks", "amount": 16, "properties": map[string]any{"position": []any{100, 200}}})
	plugintest.Call(t, h, "apply_preset", map[string]any{"scene_path": sp, "node_path": "Sparks", "preset": "sparks"})
	plugintest.Call(t, h, "create", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Snow", "particles_type": "CPUParticles2D"})
	plugintest.Call(t, h, "apply_preset", map[string]any{"scene_path": sp, "node_path": "Snow", "preset": "snow"})

	text := read(t, scene)
	contains(t, text,
		"[node name=\"Sparks\" type=\"GPUParticles2D\" parent=\".\"",
		"spread = 33.0\n", "gravity = Vector3(0, 50, 0)\n", "emission_shape = 1\n",
		"colors = PackedColorArray(1, 0.93333334, 0.53333336, 1, 1, 0.4, 0, 0.8, 0.8, 0.13333334, 0, 0)",
		"emission_shape = 3\n",
	)
	m := plugintest.Call(t, h, "get_material", map[string]any{"scene_path": sp, "node_path": "Sparks"})
	props := m["properties"].(map[string]any)
	if m["has_material"] != true || props["spread"] != 45.0 || props["initial_velocity_max"] != 90.0 {
		t.Errorf("get_material = %v", m)
	}
	cr := m["color_ramp"].(map[string]any)
	if len(cr["colors"].([]any)) != 3 || cr["offsets"].([]any)[1] != 0.5 {
		t.Errorf("color_ramp = %v", cr)
	}
	plugintest.EngineLoads(t, dir)
	plugintest.UndoAll(t, h)
	if read(t, scene) != orig {
		t.Error("undo did not restore the scene byte for byte")
	}
}
