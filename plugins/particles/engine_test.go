package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// engineText is what Godot 4.6's ResourceSaver writes for a GPUParticles3D
// with these material fields and ramp (a GDScript run in the engine set
// them and saved the packed scene), ids masked.
const engineText = `[gd_scene format=3]

[sub_resource type="Gradient" id="Gradient_ID"]
offsets = PackedFloat32Array(0, 0.5, 1)
colors = PackedColorArray(1, 0.93333334, 0.53333336, 1, 1, 0.4, 0, 0.8, 0.8, 0.13333334, 0, 0)

[sub_resource type="GradientTexture1D" id="GradientTexture1D_ID"]
gradient = SubResource("Gradient_ID")

[sub_resource type="ParticleProcessMaterial" id="ParticleProcessMaterial_ID"]
direction = Vector3(0, -1, 0)
initial_velocity_min = 30.0
initial_velocity_max = 60.0
gravity = Vector3(0, -30, 0)
color = Color(1, 0.8, 0.2, 1)
color_ramp = SubResource("GradientTexture1D_ID")

[node name="Root" type="Node3D"]

[node name="Fire" type="GPUParticles3D" parent="."]
amount = 32
process_material = SubResource("ParticleProcessMaterial_ID")
`

func TestHeadlessWritesWhatTheEngineWrites(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{"project.godot": project46, "main.tscn": "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node3D\" unique_id=1]\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	sp := "res://main.tscn"
	plugintest.Call(t, h, "create", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Fire", "particles_type": "GPUParticles3D", "amount": 32})
	plugintest.Call(t, h, "set_material", map[string]any{"scene_path": sp, "node_path": "Fire", "properties": map[string]any{
		"direction": map[string]any{"x": 0, "y": -1, "z": 0}, "gravity": []any{0, -30, 0}, "initial_velocity_min": 30, "initial_velocity_max": 60, "color": "#ffcc33"}})
	plugintest.Call(t, h, "set_color_gradient", map[string]any{"scene_path": sp, "node_path": "Fire", "colors": []any{"#ffee88ff", "#ff6600cc", "#cc220000"}})
	if got := read(t, filepath.Join(dir, "main.tscn")); mask(got) != engineText {
		t.Errorf("scene differs from the engine's text:\n%s", got)
	}
}

// On the 3d-particles demo: a preset replaces the fire system's material
// (its old sub-resources go), a new 3D system gets a draw pass mesh and
// the explosion preset; get_material reads a material the demo made; the
// engine loads the result; undo restores the scene byte for byte.
func TestHeadlessEdits3DParticles(t *testing.T) {
	dir := plugintest.AssetProject(t, "3d-particles")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "test.tscn")
	orig := read(t, scene)
	sp := "res://test.tscn"
	fire := "Testers/GPUParticlesFire/GPUParticles3D"
	before := plugintest.Call(t, h, "get_material", map[string]any{"scene_path": sp, "node_path": fire})
	if before["has_material"] != true || len(before["properties"].(map[string]any)) < 40 {
		t.Fatalf("get_material = %v", before)
	}
	plugintest.Call(t, h, "apply_preset", map[string]any{"scene_path": sp, "node_path": fire, "preset": "smoke"})
	plugintest.Call(t, h, "create", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Boom", "particles_type": "GPUParticles3D",
		"properties": map[string]any{"draw_pass_1": map[string]any{"type": "SphereMesh", "properties": map[string]any{"radius": 0.1, "height": 0.2}}, "position": []any{0, 2, 0}, "rotation_degrees": []any{0, 90, 0}}})
	plugintest.Call(t, h, "apply_preset", map[string]any{"scene_path": sp, "node_path": "Boom", "preset": "explosion"})
	after := plugintest.Call(t, h, "get_material", map[string]any{"scene_path": sp, "node_path": fire})
	p := after["properties"].(map[string]any)
	if p["spread"] != 12.0 || p["scale_max"] != 5.0 || after["color_ramp"] == nil {
		t.Errorf("after the smoke preset get_material = %v", after)
	}
	text := read(t, scene)
	contains(t, text, "[node name=\"Boom\" type=\"GPUParticles3D\" parent=\".\"", "amount = 48\nlifetime = 0.8\none_shot = true\nexplosiveness = 1.0\n",
		"damping_min = 20.0\ndamping_max = 40.0\n", "spread = 180.0\n", "radius = 0.1\nheight = 0.2\n")
	if strings.Contains(text, `"ParticlesMaterial_wcmum"`) {
		t.Error("the replaced material is still in the scene")
	}
	plugintest.EngineLoads(t, dir)
	plugintest.UndoAll(t, h)
	if read(t, scene) != orig {
		t.Error("undo did not restore the scene byte for byte")
	}
}

// A particle scene built with the tools renders in the engine: the fire
// preset, bigger particles, preprocessed so the first frame has them.
func TestRenderParticleScene(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": project46 + "\n[display]\n\nwindow/size/viewport_width=320\nwindow/size/viewport_height=240\n\n[rendering]\n\nenvironment/defaults/default_clear_color=Color(0, 0, 0, 1)\n",
		"main.tscn":     "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	sp := "res://main.tscn"
	plugintest.Call(t, h, "create", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Fire", "properties": map[string]any{"position": []any{160, 180}, "preprocess": 1.0}})
	plugintest.Call(t, h, "apply_preset", map[string]any{"scene_path": sp, "node_path": "Fire", "preset": "fire"})
	plugintest.Call(t, h, "set_material", map[string]any{"scene_path": sp, "node_path": "Fire", "properties": map[string]any{"scale_min": 8, "scale_max": 12}})
	plugintest.EngineLoads(t, dir)
	img := enginecheck.Render(t, dir, sp, 320)
	lit, warm := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl := rgb(img, x, y)
			if r+g+bl > 60 {
				lit++
				if r > bl+40 {
					warm++
				}
			}
		}
	}
	t.Logf("%d lit pixels, %d warm", lit, warm)
	if lit < 200 || warm < lit/2 {
		t.Errorf("the fire did not render: %d lit pixels, %d of them warm", lit, warm)
	}
}
