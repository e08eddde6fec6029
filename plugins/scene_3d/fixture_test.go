package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The 3d-platformer's stage instances its GridMap from a binary scene and
// overrides its data in stage.tscn: cells are read in Godot's encoding
// (orientations included), a changed cell keeps its place in the list, a
// new one goes last, a cleared one leaves it; the edit changes only the
// data line and the engine loads the stage.
func TestHeadlessGridMapOfThePlatformer(t *testing.T) {
	dir := plugintest.AssetProject(t, "3d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "stage", "stage.tscn")
	orig := read(t, scene)
	sp := "res://stage/stage.tscn"
	// The first cells: 3, 0, 1048579 is (3, 0, 0) item 3 orientation 16.
	got := plugintest.Call(t, h, "gridmap_get_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{3, 0, 0}})
	if got["item"] != 3.0 || got["orientation"] != 16.0 || got["empty"] != false {
		t.Fatalf("gridmap_get_cell (3, 0, 0) = %v", got)
	}
	// 65534, 0, 1441800 is (-2, 0, 0) item 8 orientation 22.
	got = plugintest.Call(t, h, "gridmap_get_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{-2, 0, 0}})
	if got["item"] != 8.0 || got["orientation"] != 22.0 {
		t.Fatalf("gridmap_get_cell (-2, 0, 0) = %v", got)
	}
	plugintest.Call(t, h, "gridmap_set_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{3, 0, 0}, "item": 8, "orientation": 10})
	plugintest.Call(t, h, "gridmap_set_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{-2, 0, 0}, "item": -1})
	plugintest.Call(t, h, "gridmap_set_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{-300, 40, -1}, "item": 3, "orientation": 23})
	now := read(t, scene)
	a, b := strings.Split(orig, "\n"), strings.Split(now, "\n")
	if len(a) != len(b) {
		t.Fatalf("line count %d -> %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] && !strings.HasPrefix(a[i], `"cells": PackedInt32Array(`) {
			t.Errorf("line %d changed: %q", i+1, b[i])
		}
	}
	oldCells := strings.TrimSuffix(strings.TrimPrefix(cellsLine(orig), `"cells": PackedInt32Array(`), ")")
	newCells := strings.TrimSuffix(strings.TrimPrefix(cellsLine(now), `"cells": PackedInt32Array(`), ")")
	// (3,0,0) now item 8 orientation 10 = 655368 in place; (-2,0,0) gone;
	// (-300, 40, -1) = 2686676 | 65535, item 3 | 23<<16 = 1507331, last.
	wantPrefix := "3, 0, 655368, 12, 0, 1441795, 38, 0, 1048584, 65539, 0, 1048584,"
	if !strings.HasPrefix(newCells, wantPrefix) || !strings.HasSuffix(newCells, ", 2686676, 65535, 1507331") {
		t.Errorf("cells now start %.80s… end …%s", newCells, newCells[len(newCells)-40:])
	}
	if len(strings.Split(newCells, ",")) != len(strings.Split(oldCells, ",")) {
		t.Errorf("cell count changed: %d -> %d integers", len(strings.Split(oldCells, ",")), len(strings.Split(newCells, ",")))
	}
	got = plugintest.Call(t, h, "gridmap_get_cell", map[string]any{"scene_path": sp, "node_path": "GridMap", "position": []int{-300, 40, -1}})
	if got["item"] != 3.0 || got["orientation"] != 23.0 {
		t.Errorf("new cell reads %v", got)
	}
	plugintest.Refused(t, h, "gridmap_set_cell", map[string]any{"scene_path": sp, "node_path": "WorldEnvironment", "position": []int{0, 0, 0}, "item": 1}, sdk.CodeInvalidArgument, "not a GridMap")
	plugintest.EngineLoads(t, dir)
	plugintest.UndoAll(t, h)
	if read(t, scene) != orig {
		t.Error("undo did not restore the stage byte for byte")
	}
}

func cellsLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, `"cells": PackedInt32Array(`) {
			return l
		}
	}
	return ""
}

// On the lights-and-shadows demo's scene: a textured sphere with a
// material by path, an inline material, a spot light with shadows, a
// second camera, a WorldEnvironment with sky, fog and glow; a MeshLibrary
// saved as a .tres with an item from a project mesh and a primitive; the
// engine loads it all with every property set; undo restores every file.
func TestHeadlessBuildsOnTheLightsDemo(t *testing.T) {
	dir := plugintest.AssetProject(t, "3d-lights_and_shadows")
	plugintest.WriteFile(t, dir, "res://gold.tres", "[gd_resource type=\"StandardMaterial3D\" format=3 uid=\"uid://bgoldmat1234\"]\n\n[resource]\nalbedo_color = Color(1, 0.8, 0.2, 1)\nmetallic = 1.0\n")
	plugintest.WriteFile(t, dir, "res://rock.tres", "[gd_resource type=\"SphereMesh\" format=3 uid=\"uid://brockmesh123\"]\n\n[resource]\nradius = 0.8\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "test.tscn")
	orig := read(t, scene)
	sp := "res://test.tscn"
	m := plugintest.Call(t, h, "add_mesh_instance", map[string]any{"scene_path": sp, "parent_path": ".", "name": "GoldBall", "mesh_type": "SphereMesh",
		"properties": map[string]any{"radius": 0.75, "height": 1.5, "radial_segments": 32}, "material_path": "res://gold.tres",
		"node_properties": map[string]any{"position": []any{0, 1, -2}, "cast_shadow": "SHADOW_CASTING_SETTING_DOUBLE_SIDED"}})
	if m["node_path"] != "GoldBall" || m["dry_run"] != false {
		t.Fatalf("add_mesh_instance = %v", m)
	}
	plugintest.Call(t, h, "add_mesh_instance", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Rock", "mesh_path": "res://rock.tres",
		"material": map[string]any{"albedo_color": "#556677", "roughness": 0.9}})
	plugintest.Call(t, h, "setup_lighting", map[string]any{"scene_path": sp, "parent_path": ".", "light_type": "SpotLight3D", "shadows": true,
		"properties": map[string]any{"spot_angle": 30, "spot_range": 12, "light_color": "#ffeecc", "position": []any{0, 4, 0}, "rotation_degrees": []any{-90, 0, 0}}})
	plugintest.Call(t, h, "setup_lighting", map[string]any{"scene_path": sp, "parent_path": ".", "light_type": "omni", "name": "Fill", "properties": map[string]any{"omni_range": 6, "light_energy": 0.5}})
	plugintest.Call(t, h, "setup_camera", map[string]any{"scene_path": sp, "parent_path": ".", "name": "ShowCam", "make_current": false, "properties": map[string]any{"fov": 55, "far": 300}})
	plugintest.Call(t, h, "setup_environment", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Env2", "sky": map[string]any{"sky_top_color": "#336699", "sky_energy_multiplier": 1.5},
		"properties": map[string]any{"tonemap_mode": "TONE_MAPPER_ACES", "glow_enabled": true, "glow_intensity": 1.2, "fog_enabled": true, "fog_density": 0.02, "ambient_light_energy": 0.7}})
	plugintest.Call(t, h, "create_mesh_library", map[string]any{"save_path": "res://tiles_lib.tres"})
	it := plugintest.Call(t, h, "add_mesh_library_item", map[string]any{"library_path": "res://tiles_lib.tres", "mesh_path": "res://rock.tres", "name": "Rock"})
	it2 := plugintest.Call(t, h, "add_mesh_library_item", map[string]any{"library_path": "res://tiles_lib.tres", "mesh_type": "BoxMesh", "properties": map[string]any{"size": []any{2, 2, 2}}})
	if it["item_id"] != 0.0 || it2["item_id"] != 1.0 {
		t.Errorf("item ids %v, %v", it["item_id"], it2["item_id"])
	}
	text := read(t, scene)
	contains(t, text,
		"[sub_resource type=\"SphereMesh\" id=\"SphereMesh_", "radius = 0.75\nheight = 1.5\nradial_segments = 32\n",
		"[node name=\"GoldBall\" type=\"MeshInstance3D\" parent=\".\"", "transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, -2)\nmaterial_override = ExtResource(\"",
		"\")\ncast_shadow = 2\nmesh = SubResource(\"SphereMesh_", `[ext_resource type="StandardMaterial3D" uid="uid://bgoldmat1234" path="res://gold.tres"`,
		"transform = Transform3D(1, 0, 0, 0, -4.371139e-08, 1, 0, -1, -4.371139e-08, 0, 4, 0)\nlight_color",
		`[ext_resource type="SphereMesh" uid="uid://brockmesh123" path="res://rock.tres"`,
		"albedo_color = Color(0.33333334, 0.4, 0.46666667, 1)\nroughness = 0.9\n",
		"[node name=\"SpotLight3D\" type=\"SpotLight3D\" parent=\".\"", "light_color = Color(1, 0.93333334, 0.8, 1)\nshadow_enabled = true\nspot_range = 12.0\nspot_angle = 30.0\n",
		"[node name=\"Fill\" type=\"OmniLight3D\" parent=\".\"", "omni_range = 6.0\n",
		"[node name=\"ShowCam\" type=\"Camera3D\" parent=\".\"", "fov = 55.0\nfar = 300.0\n",
		"sky_top_color = Color(0.2, 0.4, 0.6, 1)\nsky_energy_multiplier = 1.5\n",
		"background_mode = 2\nsky = SubResource(\"Sky_", "ambient_light_energy = 0.7\ntonemap_mode = 3\nglow_enabled = true\nglow_intensity = 1.2\nfog_enabled = true\nfog_density = 0.02\n",
	)
	if strings.Contains(text, "ShowCam\" type=\"Camera3D\" parent=\".\"]\ncurrent") {
		t.Error("make_current false still wrote current")
	}
	lib := read(t, filepath.Join(dir, "tiles_lib.tres"))
	contains(t, lib, `[gd_resource type="MeshLibrary" format=3 uid="uid://`, `[ext_resource type="SphereMesh" uid="uid://brockmesh123" path="res://rock.tres" id="`,
		"[sub_resource type=\"BoxMesh\" id=\"BoxMesh_", "size = Vector3(2, 2, 2)",
		"item/0/name = \"Rock\"\nitem/0/mesh = ExtResource(", "item/1/name = \"\"\nitem/1/mesh = SubResource(\"BoxMesh_",
	)
	plugintest.EngineLoads(t, dir)
	plugintest.UndoAll(t, h)
	if read(t, scene) != orig {
		t.Error("undo did not restore the scene byte for byte")
	}
	if _, err := os.Stat(filepath.Join(dir, "tiles_lib.tres")); err == nil {
		t.Error("undo left the new MeshLibrary file")
	}
}

// Every mutating tool previews in both modes: headless with the files'
// diff and nothing written, in the editor with the commands and nothing
// sent that changes the editor.
func TestDryRunsInBothModes(t *testing.T) {
	files := map[string]string{"project.godot": project46}
	files["main.tscn"] = "[gd_scene format=3]\n\n[sub_resource type=\"MeshLibrary\" id=\"L\"]\nitem/0/name = \"A\"\n\n[node name=\"Root\" type=\"Node3D\"]\n\n[node name=\"Grid\" type=\"GridMap\" parent=\".\"]\n\n[node name=\"Grid2\" type=\"GridMap\" parent=\".\"]\nmesh_library = SubResource(\"L\")\n"
	calls := map[string]any{
		"add_mesh_instance":     map[string]any{"scene_path": "res://main.tscn", "parent_path": ".", "mesh_type": "TorusMesh"},
		"setup_camera":          map[string]any{"scene_path": "res://main.tscn", "parent_path": "."},
		"setup_lighting":        map[string]any{"scene_path": "res://main.tscn", "parent_path": ".", "light_type": "omni"},
		"setup_environment":     map[string]any{"scene_path": "res://main.tscn", "parent_path": ".", "properties": map[string]any{"fog_enabled": true}},
		"gridmap_set_cell":      map[string]any{"scene_path": "res://main.tscn", "node_path": "Grid2", "position": []int{1, 2, 3}, "item": 0},
		"create_mesh_library":   map[string]any{"scene_path": "res://main.tscn", "node_path": "Grid", "save_path": "res://new_lib.tres"},
		"add_mesh_library_item": map[string]any{"scene_path": "res://main.tscn", "node_path": "Grid2", "mesh_type": "BoxMesh"},
	}
	dir := plugintest.Project(t, files)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig := read(t, filepath.Join(dir, "main.tscn"))
	for tool, args := range calls {
		out := plugintest.DryRunIn(t, h, sdk.ModeHeadless, tool, args)
		if files := out["preview"].(map[string]any)["files"].([]any); len(files) == 0 {
			t.Errorf("%s: headless preview lists no file", tool)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new_lib.tres")); read(t, filepath.Join(dir, "main.tscn")) != orig || err == nil {
		t.Error("a headless dry run wrote a file")
	}
	he, ed := editorHost(t)
	plugintest.EditorDryRuns(t, he, ed, calls)
}
