package main

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

const tresProject = `config_version=5

[application]

config/name="tres bake"
config/features=PackedStringArray("4.6")
`

// A region whose NavigationPolygon is a .tres of its own: the bake writes
// the baked data into that file, leaves the scene alone, and undo puts the
// .tres back byte for byte.
func TestBakeIntoTres(t *testing.T) {
	requireEngine(t)
	poly := "[gd_resource type=\"NavigationPolygon\" format=3]\n\n[resource]\noutlines = Array[PackedVector2Array]([PackedVector2Array(0, 0, 300, 0, 300, 200, 0, 200)])\nagent_radius = 5.0\n"
	scene := "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"NavigationPolygon\" path=\"res://floor.tres\" id=\"1_floor\"]\n\n" +
		"[node name=\"Level\" type=\"Node2D\"]\n\n[node name=\"Region\" type=\"NavigationRegion2D\" parent=\".\"]\nnavigation_polygon = ExtResource(\"1_floor\")\n"
	dir := plugintest.Project(t, map[string]string{"project.godot": tresProject, "floor.tres": poly, "level.tscn": scene})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	out := plugintest.Call(t, h, "bake_mesh", map[string]any{"node_path": "Region", "scene": "res://level.tscn", "path_from": []float64{10, 10}, "path_to": []float64{290, 190}})
	if out["resource"] != "res://floor.tres" || out["path_found"] != true {
		t.Fatalf("bake_mesh = %v", out)
	}
	got := read(t, dir, "floor.tres")
	contains(t, got, "[gd_resource type=\"NavigationPolygon\" format=3]\n\n[resource]\nvertices = PackedVector2Array(",
		"polygons = Array[PackedInt32Array]([PackedInt32Array(", "outlines = Array[PackedVector2Array]([PackedVector2Array(0, 0, 300, 0, 300, 200, 0, 200)])\nagent_radius = 5.0\n")
	if read(t, dir, "level.tscn") != scene {
		t.Error("the bake changed the scene, not the .tres")
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(tresProject), "floor.tres": []byte(got), "level.tscn": []byte(scene)})
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "floor.tres") != poly {
		t.Error("undo did not restore floor.tres byte for byte")
	}
	// A polygon without outlines is refused before the engine runs.
	plugintest.WriteFile(t, dir, "floor.tres", "[gd_resource type=\"NavigationPolygon\" format=3]\n\n[resource]\n")
	if r := plugintest.CallErr(t, h, "bake_mesh", map[string]any{"node_path": "Region", "scene": "res://level.tscn"}); !strings.Contains(r, "no outlines") {
		t.Errorf("bake without outlines: %s", r)
	}
}
