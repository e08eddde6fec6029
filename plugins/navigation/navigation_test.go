package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	return string(projfixture.Read(t, dir, rel))
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

// requireEngine stops the test when the web runtime is missing (skip
// locally, fail in CI).
func requireEngine(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
}

// addNodes puts sub-resources and nodes into a scene file, as the editor
// would have saved them: the test's source geometry.
func addNodes(t *testing.T, dir, rel, subs, nodes string) {
	t.Helper()
	s := read(t, dir, rel)
	s = strings.Replace(s, "[node name=", subs+"[node name=", 1) + nodes
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pathCheck is the main script of an engine run that loads a scene as
// written (scripts taken off), lets the NavigationServer sync the maps and
// asks it for a path on navigation layer 2, the test's region's only
// layer: the path of an agent standing at "from".
const pathCheck = `extends Node

func _strip(n: Node) -> void:
	n.set_script(null)
	for k: Node in n.get_children(true):
		_strip(k)

func _ready() -> void:
	var cfg: Dictionary = JSON.parse_string(FileAccess.get_file_as_string("res://.godot/godot-mcp/check.json"))
	ResourceLoader.set_abort_on_missing_resources(true)
	var inst: Node = (load(str(cfg["scene"])) as PackedScene).instantiate()
	_strip(inst)
	add_child(inst)
	await get_tree().physics_frame
	await get_tree().physics_frame
	var f: Array = cfg["from"]
	var t: Array = cfg["to"]
	var out: Array = []
	if f.size() == 2:
		var map2: RID = (inst as Node2D).get_world_2d().navigation_map
		for p: Vector2 in NavigationServer2D.map_get_path(map2, Vector2(f[0], f[1]), Vector2(t[0], t[1]), true, 2):
			out.append([p.x, p.y])
	else:
		var map3: RID = (inst as Node3D).get_world_3d().navigation_map
		for p: Vector3 in NavigationServer3D.map_get_path(map3, Vector3(f[0], f[1], f[2]), Vector3(t[0], t[1], t[2]), true, 2):
			out.append([p.x, p.y, p.z])
	print("@@path ", JSON.stringify(out))
	get_tree().quit()
`

// enginePath loads the project's scene as written in the real engine and
// answers the NavigationServer's path from -> to on layer 2.
func enginePath(t *testing.T, dir, scene string, from, to []float64) [][]float64 {
	t.Helper()
	files, err := webgodot.ReadGameFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	kept := files[:0]
	for _, f := range files {
		if f.Path == "override.cfg" || f.Path == webgodot.ProbePath {
			continue
		}
		if f.Path == "project.godot" {
			f.Data = webgodot.WithoutAutoloads(f.Data)
		}
		kept = append(kept, f)
	}
	kept = placeholders(kept)
	cfg, _ := json.Marshal(map[string]any{"scene": scene, "from": from, "to": to})
	main := webgodot.CheckerScene(pathCheck)
	kept = append(append(kept, main...),
		webgodot.PackFile{Path: ".godot/godot-mcp/check.json", Data: cfg},
		webgodot.PackFile{Path: "override.cfg", Data: []byte(webgodot.MainSceneOverride())})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, kept)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Lines {
		if j, ok := strings.CutPrefix(l.Text, "@@path "); ok {
			var path [][]float64
			if err := json.Unmarshal([]byte(j), &path); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("the path check printed no path: %v", res.Lines)
	return nil
}

// around reports whether a path from one side of an obstacle to the other
// bends around it: more than two points, none inside the box lo..hi
// (coordinates 0 and 1 of 2D points, 0 and 2 of 3D ones).
func around(path [][]float64, lo, hi [2]float64) error {
	if len(path) < 3 {
		return fmt.Errorf("path %v goes straight through", path)
	}
	for _, p := range path {
		x, y := p[0], p[1]
		if len(p) == 3 {
			y = p[2]
		}
		if x > lo[0]+1 && x < hi[0]-1 && y > lo[1]+1 && y < hi[1]-1 {
			return fmt.Errorf("path point %v is inside the obstacle", p)
		}
	}
	return nil
}

// The 2D navigation demo gets a new region with outlines and an obstacle;
// baked headless in the real engine, the polygon is written into the
// scene as the engine saves it, the engine loads the scene with it, and an
// agent standing on it finds a path around the obstacle. Undo restores the
// scene byte for byte.
func TestBake2D(t *testing.T) {
	requireEngine(t)
	dir := plugintest.CorpusProject(t, "2d-navigation")
	scene := "res://navigation.tscn"
	orig := read(t, dir, "navigation.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	out := plugintest.Call(t, h, "setup_region", map[string]any{"parent_path": ".", "name": "Walkable", "scene": scene,
		"outlines":        [][][]float64{{{0, 0}, {800, 0}, {800, 600}, {0, 600}}},
		"mesh_properties": map[string]any{"agent_radius": 12, "parsed_geometry_type": "PARSED_GEOMETRY_STATIC_COLLIDERS"}})
	if out["region_type"] != "NavigationRegion2D" || out["node_path"] != "Walkable" {
		t.Errorf("setup_region = %v", out)
	}
	plugintest.Call(t, h, "set_layers", map[string]any{"node_path": "Walkable", "layers": []int{2}, "scene": scene})
	before := read(t, dir, "navigation.tscn")
	contains(t, before, "outlines = Array[PackedVector2Array]([PackedVector2Array(0, 0, 800, 0, 800, 600, 0, 600)])\n",
		"agent_radius = 12.0\n", "parsed_geometry_type = 1\n", "navigation_layers = 2\n")
	// The obstacle: a static body in the middle of the area.
	addNodes(t, dir, "navigation.tscn", "[sub_resource type=\"RectangleShape2D\" id=\"RectangleShape2D_wall\"]\nsize = Vector2(200, 400)\n\n",
		"\n[node name=\"Wall\" type=\"StaticBody2D\" parent=\"Walkable\"]\nposition = Vector2(400, 300)\n\n"+
			"[node name=\"CollisionShape2D\" type=\"CollisionShape2D\" parent=\"Walkable/Wall\"]\nshape = SubResource(\"RectangleShape2D_wall\")\n")
	withWall := read(t, dir, "navigation.tscn")

	// The dry run bakes and writes nothing.
	dry := plugintest.DryRunIn(t, h, sdk.ModeHeadless, "bake_mesh", map[string]any{"node_path": "Walkable", "scene": scene})
	if dry["baked"] != true || read(t, dir, "navigation.tscn") != withWall {
		t.Fatalf("dry run = %v", dry)
	}
	out = plugintest.Call(t, h, "bake_mesh", map[string]any{"node_path": "Walkable", "scene": scene, "path_from": []float64{50, 300}, "path_to": []float64{750, 300}})
	if out["baked"] != true || out["polygon_count"].(float64) < 2 || out["path_found"] != true {
		t.Fatalf("bake_mesh = %v", out)
	}
	got := read(t, dir, "navigation.tscn")
	contains(t, got, "vertices = PackedVector2Array(", "polygons = Array[PackedInt32Array]([PackedInt32Array(",
		"outlines = Array[PackedVector2Array]([PackedVector2Array(0, 0, 800, 0, 800, 600, 0, 600)])\n", "agent_radius = 12.0\n")
	reg := plugintest.Call(t, h, "get_region", map[string]any{"node_path": "Walkable", "scene": scene})
	if reg["polygon_count"] != out["polygon_count"] || reg["vertex_count"] != out["vertex_count"] || reg["outline_count"] != float64(1) || reg["has_polygon"] != true {
		t.Errorf("get_region = %v, bake = %v", reg, out)
	}

	// The real engine: the scene loads with every property, and an agent
	// at the left finds its way to the right around the wall on the
	// baked polygon (layer 2: the demo's own region is on layer 1).
	enginecheck.Project(t, dir)
	path := enginePath(t, dir, scene, []float64{50, 300}, []float64{750, 300})
	if err := around(path, [2]float64{300, 100}, [2]float64{500, 500}); err != nil {
		t.Error(err)
	}
	if last := path[len(path)-1]; math.Abs(last[0]-750) > 0.01 || math.Abs(last[1]-300) > 0.01 {
		t.Errorf("the path ends at %v, not at the target", last)
	}

	// Undo: the bake, then the layers and the region.
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "navigation.tscn") != withWall {
		t.Error("undoing the bake did not restore the scene byte for byte")
	}
	if err := os.WriteFile(filepath.Join(dir, "navigation.tscn"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "navigation.tscn") != orig {
		t.Error("undo did not restore the scene byte for byte")
	}
}

// The 3D navigation demo gets a new region over a floor with a box on
// it; the NavigationMesh is baked by the engine and written as it saves
// it, and a path over it goes around the box.
func TestBake3D(t *testing.T) {
	requireEngine(t)
	dir := plugintest.CorpusProject(t, "3d-navigation")
	scene := "res://navmesh.tscn"
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	// The demo's region holds a binary navmesh: refused, with the way out.
	plugintest.Refused(t, h, "bake_mesh", map[string]any{"node_path": "NavigationRegion3D", "scene": scene}, sdk.CodeInvalidArgument, "binary")

	out := plugintest.Call(t, h, "setup_region", map[string]any{"parent_path": ".", "name": "Floor", "scene": scene,
		"mesh_properties": map[string]any{"agent_radius": 0.75, "agent_max_climb": 0.5}, "properties": map[string]any{"navigation_layers": 2}})
	if out["region_type"] != "NavigationRegion3D" {
		t.Errorf("setup_region under a Node3D = %v", out)
	}
	plugintest.Call(t, h, "setup_agent", map[string]any{"parent_path": "RobotBase", "name": "Agent2", "scene": scene,
		"properties": map[string]any{"radius": 0.4, "max_speed": 4, "navigation_layers": 2}})
	addNodes(t, dir, "navmesh.tscn",
		"[sub_resource type=\"PlaneMesh\" id=\"PlaneMesh_floor\"]\nsize = Vector2(20, 20)\n\n[sub_resource type=\"BoxMesh\" id=\"BoxMesh_box\"]\nsize = Vector3(4, 2, 4)\n\n",
		"\n[node name=\"Ground\" type=\"MeshInstance3D\" parent=\"Floor\"]\nmesh = SubResource(\"PlaneMesh_floor\")\n\n"+
			"[node name=\"Box\" type=\"MeshInstance3D\" parent=\"Floor\"]\ntransform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0)\nmesh = SubResource(\"BoxMesh_box\")\n")
	out = plugintest.Call(t, h, "bake_mesh", map[string]any{"node_path": "Floor", "scene": scene, "path_from": []float64{-8, 0, 0}, "path_to": []float64{8, 0, 0}})
	if out["baked"] != true || out["path_found"] != true {
		t.Fatalf("bake_mesh = %v", out)
	}
	got := read(t, dir, "navmesh.tscn")
	contains(t, got, "[sub_resource type=\"NavigationMesh\" id=\"NavigationMesh_", "vertices = PackedVector3Array(",
		"polygons = [PackedInt32Array(", "agent_radius = 0.75\nagent_max_climb = 0.5\n",
		"[node name=\"Agent2\" type=\"NavigationAgent3D\" parent=\"RobotBase\"", "navigation_layers = 2\n")
	reg := plugintest.Call(t, h, "get_region", map[string]any{"node_path": "Floor", "scene": scene})
	if reg["polygon_count"] != out["polygon_count"] || reg["region_type"] != "NavigationRegion3D" {
		t.Errorf("get_region = %v", reg)
	}
	enginecheck.Project(t, dir)
	path := enginePath(t, dir, scene, []float64{-8, 0, 0}, []float64{8, 0, 0})
	if err := around(path, [2]float64{-2, -2}, [2]float64{2, 2}); err != nil {
		t.Error(err)
	}
}
