package main

import (
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// engineText is what Godot 4.6's ResourceSaver writes for the scene the
// test builds (made by a GDScript run in the engine: the nodes created
// and set as the tools do, PackedScene.pack, ResourceSaver.save), with
// ids masked.
const engineText = `[gd_scene format=3 uid="uid://UID"]

[sub_resource type="BoxMesh" id="BoxMesh_ID"]

[sub_resource type="SphereMesh" id="SphereMesh_ID"]

[sub_resource type="MeshLibrary" id="MeshLibrary_ID"]
item/0/name = "Block"
item/0/mesh = SubResource("BoxMesh_ID")
item/0/mesh_transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
item/0/mesh_cast_shadow = 1
item/0/shapes = []
item/0/navigation_mesh_transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
item/0/navigation_layers = 1
item/3/name = "Ball"
item/3/mesh = SubResource("SphereMesh_ID")
item/3/mesh_transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
item/3/mesh_cast_shadow = 1
item/3/shapes = []
item/3/navigation_mesh_transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
item/3/navigation_layers = 1

[sub_resource type="StandardMaterial3D" id="StandardMaterial3D_ID"]
albedo_color = Color(1, 0, 0, 1)
metallic = 0.5

[sub_resource type="BoxMesh" id="BoxMesh_ID"]
material = SubResource("StandardMaterial3D_ID")
size = Vector3(2, 1, 3)

[sub_resource type="ProceduralSkyMaterial" id="ProceduralSkyMaterial_ID"]

[sub_resource type="Sky" id="Sky_ID"]
sky_material = SubResource("ProceduralSkyMaterial_ID")

[sub_resource type="Environment" id="Environment_ID"]
background_mode = 2
sky = SubResource("Sky_ID")
ambient_light_source = 3
tonemap_mode = 2
glow_enabled = true
fog_enabled = true

[node name="Root" type="Node3D"]

[node name="GridMap" type="GridMap" parent="."]
mesh_library = SubResource("MeshLibrary_ID")
data = {
"cells": PackedInt32Array(0, 0, 0, 196607, 65533, 1441795, -458747, 100, 655360)
}

[node name="Box" type="MeshInstance3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)
mesh = SubResource("BoxMesh_ID")

[node name="Camera3D" type="Camera3D" parent="."]
current = true
fov = 60.0

[node name="Sun" type="DirectionalLight3D" parent="."]
light_energy = 1.5
shadow_enabled = true

[node name="WorldEnvironment" type="WorldEnvironment" parent="."]
environment = SubResource("Environment_ID")
`

const project46 = "config_version=5\n\n[application]\n\nconfig/name=\"t\"\nconfig/features=PackedStringArray(\"4.6\")\n"

// The tools write what the engine writes: the same scene, built with the
// tools headless, is the engine's text byte for byte (ids aside).
func TestHeadlessWritesWhatTheEngineWrites(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": project46,
		"main.tscn":     "[gd_scene format=3 uid=\"uid://b1234567abcd\"]\n\n[node name=\"Root\" type=\"Node3D\" unique_id=1774807581]\n\n[node name=\"GridMap\" type=\"GridMap\" parent=\".\" unique_id=1410409001]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	sp := "res://main.tscn"
	orig := read(t, filepath.Join(dir, "main.tscn"))
	plugintest.Call(t, h, "add_mesh_instance", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Box", "mesh_type": "BoxMesh",
		"properties":      map[string]any{"size": []any{2, 1, 3}, "material": map[string]any{"type": "StandardMaterial3D", "properties": map[string]any{"albedo_color": "#ff0000", "metallic": 0.5}}},
		"node_properties": map[string]any{"position": []any{1, 2, 3}}})
	plugintest.Call(t, h, "setup_camera", map[string]any{"scene_path": sp, "parent_path": ".", "properties": map[string]any{"fov": 60}})
	plugintest.Call(t, h, "setup_lighting", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Sun", "light_type": "directional", "shadows": true, "properties": map[string]any{"light_energy": 1.5}})
	plugintest.Call(t, h, "setup_environment", map[string]any{"scene_path": sp, "parent_path": ".", "sky": map[string]any{},
		"properties": map[string]any{"tonemap_mode": "TONE_MAPPER_FILMIC", "glow_enabled": true, "fog_enabled": true, "ambient_light_source": "AMBIENT_SOURCE_SKY"}})
	plugintest.Call(t, h, "create_mesh_library", map[string]any{"scene_path": sp, "node_path": "GridMap"})
	plugintest.Call(t, h, "add_mesh_library_item", map[string]any{"scene_path": sp, "node_path": "GridMap", "mesh_type": "BoxMesh", "name": "Block"})
	plugintest.Call(t, h, "add_mesh_library_item", map[string]any{"scene_path": sp, "node_path": "GridMap", "mesh_type": "SphereMesh", "name": "Ball", "item_id": 3})
	for _, c := range []map[string]any{
		{"position": []any{0, 0, 0}, "item": 0},
		{"position": []any{-1, 2, -3}, "item": 3, "orientation": 22},
		{"position": []any{5, -7, 100}, "item": 0, "orientation": 10},
	} {
		c["scene_path"], c["node_path"] = sp, "GridMap"
		plugintest.Call(t, h, "gridmap_set_cell", c)
	}
	got := read(t, filepath.Join(dir, "main.tscn"))
	if mask(got) != engineText {
		t.Errorf("scene differs from the engine's text:\n%s", got)
	}
	for _, c := range []struct {
		pos               []any
		item, orientation float64
	}{{[]any{0, 0, 0}, 0, 0}, {[]any{-1, 2, -3}, 3, 22}, {[]any{5, -7, 100}, 0, 10}, {[]any{1, 1, 1}, -1, -1}} {
		got := plugintest.Call(t, h, "gridmap_get_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": c.pos})
		if got["item"] != c.item || got["orientation"] != c.orientation || got["empty"] != (c.item < 0) {
			t.Errorf("gridmap_get_cell %v = %v", c.pos, got)
		}
	}
	plugintest.EngineLoads(t, dir)
	plugintest.UndoAll(t, h)
	if now := read(t, filepath.Join(dir, "main.tscn")); now != orig {
		t.Errorf("undo did not restore the scene byte for byte:\n%s", now)
	}
}

// A lit scene built with the tools renders in the engine: a red box in
// front of the camera, lit by a sun, on a blue background.
func TestRenderLitScene(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": project46 + "\n[display]\n\nwindow/size/viewport_width=320\nwindow/size/viewport_height=240\n",
		"main.tscn":     "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node3D\"]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	sp := "res://main.tscn"
	plugintest.Call(t, h, "add_mesh_instance", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Box",
		"properties": map[string]any{"size": []any{1.5, 1.5, 1.5}}, "material": map[string]any{"albedo_color": "#ff2020"},
		"node_properties": map[string]any{"rotation_degrees": []any{20, 35, 0}}})
	plugintest.Call(t, h, "setup_lighting", map[string]any{"scene_path": sp, "parent_path": ".", "shadows": true, "properties": map[string]any{"rotation_degrees": []any{-50, 30, 0}}})
	plugintest.Call(t, h, "setup_camera", map[string]any{"scene_path": sp, "parent_path": ".", "properties": map[string]any{"position": []any{0, 0, 4}}})
	plugintest.Call(t, h, "setup_environment", map[string]any{"scene_path": sp, "parent_path": ".",
		"properties": map[string]any{"background_mode": "BG_COLOR", "background_color": "#2040c0", "ambient_light_source": "AMBIENT_SOURCE_COLOR", "ambient_light_color": "#404040"}})
	plugintest.EngineLoads(t, dir)
	img := enginecheck.Render(t, dir, sp, 160)
	b := img.Bounds()
	cr, cg, cb := rgb(img, b.Dx()/2, b.Dy()/2)
	kr, kg, kb := rgb(img, 2, 2)
	t.Logf("centre %d,%d,%d corner %d,%d,%d", cr, cg, cb, kr, kg, kb)
	if cr < 100 || cr < 2*cb || cr < 2*cg {
		t.Errorf("the centre is not the red box: %d,%d,%d", cr, cg, cb)
	}
	if kb < 100 || kb < 2*kr {
		t.Errorf("the corner is not the blue background: %d,%d,%d", kr, kg, kb)
	}
}
