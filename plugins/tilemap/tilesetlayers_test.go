package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// subID masks the generated part of sub-resource ids.
var subID = regexp.MustCompile(`"([A-Za-z0-9]+)_[a-z0-9]{5}"`)

func maskIDs(s string) string { return subID.ReplaceAllString(s, `"${1}_ID"`) }

// The text Godot 4.6's ResourceSaver writes for a TileSet with every kind
// of layer and a tile with data on each (built with the same calls in
// GDScript: add_physics_layer, set_collision_polygon_points, …), which the
// tools must reproduce key for key and in the same order.
const engineTileSet = `[sub_resource type="NavigationPolygon" id="NavigationPolygon_ID"]
vertices = PackedVector2Array(-16, -16, 16, -16, 16, 16, -16, 16)
polygons = Array[PackedInt32Array]([PackedInt32Array(0, 1, 2, 3)])

[sub_resource type="OccluderPolygon2D" id="OccluderPolygon2D_ID"]
polygon = PackedVector2Array(-16, -16, 16, -16, 16, 16)

[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_ID"]
texture = ExtResource("1_tiles")
texture_region_size = Vector2i(32, 32)
0:0/0 = 0
0:0/0/terrain_set = 0
0:0/0/terrain = 0
0:0/0/occlusion_layer_1/polygon_0/polygon = SubResource("OccluderPolygon2D_ID")
0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-16, -16, 16, -16, 16, 16, -16, 16)
0:0/0/physics_layer_0/polygon_0/one_way = true
0:0/0/physics_layer_0/polygon_0/one_way_margin = 2.5
0:0/0/physics_layer_1/polygon_0/points = PackedVector2Array(-16, 0, 16, 0, 16, 16)
0:0/0/terrains_peering_bit/right_side = 0
0:0/0/terrains_peering_bit/bottom_side = 0
0:0/0/navigation_layer_1/polygon = SubResource("NavigationPolygon_ID")
0:0/0/custom_data_0 = 5
0:0/0/custom_data_1 = "spike"
1:0/0 = 0
2:0/0 = 0

[resource]
tile_size = Vector2i(32, 32)
occlusion_layer_0/light_mask = 1
occlusion_layer_1/light_mask = 3
occlusion_layer_1/sdf_collision = true
physics_layer_0/collision_layer = 1
physics_layer_1/collision_layer = 6
physics_layer_1/collision_mask = 3
terrain_set_0/mode = 2
terrain_set_0/terrain_0/name = "Grass"
terrain_set_0/terrain_0/color = Color(0.2, 0.8, 0.2, 1)
terrain_set_0/terrain_1/name = "Terrain 1"
terrain_set_0/terrain_1/color = Color(0.5, 0.4375, 0.25, 1)
navigation_layer_0/layers = 1
navigation_layer_1/layers = 5
custom_data_layer_0/name = "damage"
custom_data_layer_0/type = 2
custom_data_layer_1/name = "kind"
custom_data_layer_1/type = 4
sources/0 = SubResource("TileSetAtlasSource_ID")
`

// tileCheck runs in the engine when the check loads it and prints what
// Godot itself reads from the TileSet and from a TileMapLayer using it.
const tileCheck = `extends RefCounted

static func _static_init() -> void:
	var ts: TileSet = load("res://level/tileset/game.tres")
	var td := (ts.get_source(0) as TileSetAtlasSource).get_tile_data(Vector2i(0, 0), 0)
	var out := [ts.get_physics_layers_count(), ts.get_physics_layer_collision_layer(1), ts.get_physics_layer_collision_mask(1),
		td.get_collision_polygons_count(0), td.get_collision_polygons_count(1), td.get_collision_polygon_points(0, 0).size(),
		td.is_collision_polygon_one_way(0, 0), td.get_collision_polygon_one_way_margin(0, 0),
		ts.get_terrain_sets_count(), ts.get_terrain_set_mode(0), ts.get_terrains_count(0), ts.get_terrain_name(0, 0),
		td.terrain_set, td.terrain, td.get_terrain_peering_bit(TileSet.CELL_NEIGHBOR_RIGHT_SIDE), td.get_terrain_peering_bit(TileSet.CELL_NEIGHBOR_TOP_SIDE),
		ts.get_custom_data_layers_count(), td.get_custom_data("damage"), td.get_custom_data("kind"),
		ts.get_navigation_layers_count(), td.get_navigation_polygon(1).get_polygon_count(),
		ts.get_occlusion_layers_count(), td.get_occluder_polygons_count(1), td.get_occluder_polygon(1, 0).polygon.size()]
	var scene: PackedScene = load("res://level/tileset/uses.tscn")
	var layer: TileMapLayer = scene.instantiate().get_node("Floor")
	var cell := layer.get_cell_tile_data(Vector2i(2, 1))
	out.append(layer.tile_set == ts)
	out.append(cell != null and cell.get_custom_data("damage") == 5 and cell.get_collision_polygons_count(0) == 1)
	print("TILECHECK ", JSON.stringify(out))
`

const wantTileCheck = `TILECHECK [2,6,3,1,1,4,true,2.5,1,2,2,"Grass",0,0,0,-1,2,5,"spike",2,1,2,1,3,true,true]`

func TestTileSetLayersAsTheEditorWrites(t *testing.T) {
	dir := plugintest.AssetProject(t, "2d-skeleton")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ts := "res://level/tileset/game.tres"
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		args["tileset_path"] = ts
		return plugintest.Call(t, h, tool, args)
	}
	plugintest.Call(t, h, "create_tileset", map[string]any{"save_path": ts, "tile_size": []int{32, 32}})
	call("add_tileset_atlas_source", map[string]any{"texture_path": "res://level/tileset/tiles_demo.png", "region_size": []int{32, 32}})
	for x := range 3 {
		call("create_tile", map[string]any{"source_id": 0, "atlas_coords": []int{x, 0}})
	}
	tile := func(kv ...any) map[string]any {
		m := map[string]any{"source_id": 0, "atlas_coords": []int{0, 0}}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	// Tile data before the layers exist is refused, naming the fix.
	if got := plugintest.CallErr(t, h, "set_tile_collision", tile("tileset_path", ts, "polygons", []any{})); !strings.Contains(got, "add_physics_layer") {
		t.Fatalf("collision without a physics layer: %s", got)
	}
	// Layers in an order unlike the file's, which must still come out in
	// the editor's order.
	if out := call("add_custom_data_layer", map[string]any{"name": "damage", "type": "int"}); out["index"].(float64) != 0 {
		t.Fatalf("custom data layer = %v", out)
	}
	call("add_custom_data_layer", map[string]any{"name": "kind", "type": "String"})
	call("add_physics_layer", map[string]any{})
	if out := call("add_physics_layer", map[string]any{"collision_layer": 6, "collision_mask": 3}); out["index"].(float64) != 1 {
		t.Fatalf("physics layer = %v", out)
	}
	call("add_terrain_set", map[string]any{"mode": "match_sides"})
	call("add_terrain", map[string]any{"terrain_set": 0, "name": "Grass", "color": "#33cc33"})
	call("add_terrain", map[string]any{"terrain_set": 0})
	call("add_navigation_layer", map[string]any{})
	call("add_navigation_layer", map[string]any{"layers": 5})
	call("add_occlusion_layer", map[string]any{})
	call("add_occlusion_layer", map[string]any{"light_mask": 3, "sdf_collision": true})

	square := [][]float64{{-16, -16}, {16, -16}, {16, 16}, {-16, 16}}
	call("set_tile_custom_data", tile("layer", "kind", "value", "spike"))
	call("set_tile_custom_data", tile("layer", "damage", "value", 5))
	call("set_tile_navigation", tile("navigation_layer", 1, "polygon", square))
	call("set_tile_terrain", tile("terrain_set", 0, "terrain", 0, "peering_bits", map[string]int{"bottom_side": 0, "right_side": 0}))
	call("set_tile_collision", tile("physics_layer", 1, "polygons", []map[string]any{{"points": [][]float64{{-16, 0}, {16, 0}, {16, 16}}}}))
	call("set_tile_collision", tile("polygons", []map[string]any{{"points": square, "one_way": true, "one_way_margin": 2.5}}))
	// Replacing a navigation polygon drops the old sub-resource.
	call("set_tile_navigation", tile("navigation_layer", 1, "polygon", [][]float64{{0, 0}, {1, 0}, {1, 1}}))
	call("set_tile_navigation", tile("navigation_layer", 1, "polygon", square))
	call("set_tile_occluder", tile("occlusion_layer", 1, "polygons", [][][]float64{{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {2, 0}, {2, 2}}}))
	call("set_tile_occluder", tile("occlusion_layer", 1, "polygons", [][][]float64{{{-16, -16}, {16, -16}, {16, 16}}}))

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"set_tile_custom_data", tile("layer", "damage", "value", "lots"), "INVALID_ARGUMENT"},
		{"set_tile_custom_data", tile("layer", "speed", "value", 1), `no custom data layer "speed"`},
		{"set_tile_terrain", tile("terrain_set", 0, "terrain", 0, "peering_bits", map[string]int{"top_left_corner": 0}), "not a peering bit of this terrain set"},
		{"set_tile_terrain", tile("terrain_set", 0, "terrain", 7), "terrain 7 does not exist"},
		{"set_tile_terrain", tile("terrain_set", 3), "terrain set 3 does not exist"},
		{"set_tile_collision", tile("polygons", []map[string]any{{"points": [][]float64{{0, 0}, {1, 1}}}}), "a polygon needs 3 or more"},
		{"set_tile_collision", tile("atlas_coords", []int{5, 3}, "polygons", []any{}), "atlas source 0 has no tile at (5, 3)"},
		{"set_tile_collision", tile("physics_layer", 2, "polygons", []any{}), "physics layer 2 does not exist"},
		{"add_custom_data_layer", map[string]any{"name": "damage", "type": "int"}, "already has a custom data layer"},
		{"add_custom_data_layer", map[string]any{"name": "x", "type": "Node"}, "not a Godot type"},
		{"add_terrain_set", map[string]any{"mode": "blob"}, "not a terrain mode"},
		// A colour is one string: a client's schema check needs a type.
		{"add_terrain", map[string]any{"terrain_set": 0, "color": []float64{0.2, 0.8, 0.2}}, "INVALID_ARGUMENT"},
		{"add_terrain", map[string]any{"terrain_set": 0, "color": "greenish"}, "pass color as a name"},
	} {
		c.args["tileset_path"] = ts
		if got := plugintest.CallErr(t, h, c.tool, c.args); !strings.Contains(got, c.want) || !strings.Contains(got, "Hint:") {
			t.Errorf("%s %v: %s, want %q and a hint", c.tool, c.args, got, c.want)
		}
	}

	file := filepath.Join(dir, "level", "tileset", "game.tres")
	got, _ := os.ReadFile(file)
	body := maskIDs(string(got[bytes.Index(got, []byte("[sub_resource")):]))
	body = regexp.MustCompile(`ExtResource\("[^"]+"\)`).ReplaceAllString(body, `ExtResource("1_tiles")`)
	if body != engineTileSet {
		t.Errorf("the TileSet differs from what Godot writes:\n%s\nwant:\n%s", body, engineTileSet)
	}

	// Read back: what was written.
	rt := call("get_tile", tile())
	if c := rt["collision"].(map[string]any)["0"].([]any)[0].(map[string]any); c["one_way"] != true || len(c["points"].([]any)) != 4 {
		t.Errorf("get_tile collision = %v", rt["collision"])
	}
	if rt["terrain_set"].(float64) != 0 || rt["peering_bits"].(map[string]any)["right_side"].(float64) != 0 ||
		rt["custom_data"].(map[string]any)["kind"] != "spike" || rt["custom_data"].(map[string]any)["damage"].(float64) != 5 ||
		len(rt["navigation"].(map[string]any)["1"].([]any)) != 4 || len(rt["occluders"].(map[string]any)["1"].([]any)) != 1 {
		t.Errorf("get_tile = %v", rt)
	}
	info := call("get_tileset", map[string]any{})
	if len(info["physics_layers"].([]any)) != 2 || len(info["terrain_sets"].([]any)) != 1 || len(info["custom_data_layers"].([]any)) != 2 ||
		len(info["sources"].([]any)[0].(map[string]any)["tiles"].([]any)) != 3 {
		t.Errorf("get_tileset = %v", info)
	}

	// The engine reads every layer and value back, also through a
	// TileMapLayer painted with the tile.
	plugintest.WriteFile(t, dir, "res://level/tileset/uses.tscn", "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"TileSet\" path=\"res://level/tileset/game.tres\" id=\"1\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"Floor\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = ExtResource(\"1\")\n")
	plugintest.Call(t, h, "set_cell", map[string]any{"scene_path": "res://level/tileset/uses.tscn", "node_path": "Floor", "coords": []int{2, 1}, "source_id": 0})
	plugintest.WriteFile(t, dir, "res://level/tileset/check.gd", tileCheck)
	files, err := loadcheck.ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
	for _, p := range rep.Problems {
		if strings.HasPrefix(p.File, "level/tileset/") && !p.IsWarning() {
			t.Errorf("engine: %s", p)
		}
	}
	seen := false
	for _, l := range rep.Log {
		if strings.HasPrefix(l.Text, "TILECHECK ") {
			seen = true
			if l.Text != wantTileCheck {
				t.Errorf("engine reads\n%s\nwant\n%s", l.Text, wantTileCheck)
			}
		}
	}
	if !seen {
		t.Error("the engine check script did not run")
	}

	// Undo every call: the project is as it was.
	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("undo left %s behind (%v)", file, err)
	}
}

// visibleCheck has the engine say which 32x32 cells of the image hold a
// visible pixel (Image.is_invisible, which the editor's "create tiles in
// non-transparent texture regions" uses).
const visibleCheck = `extends RefCounted

static func _static_init() -> void:
	var img := Image.new()
	img.load_png_from_buffer(FileAccess.get_file_as_bytes("res://raw/tiles_demo.bin"))
	var out := []
	for y in img.get_height() / 32:
		for x in img.get_width() / 32:
			if not img.get_region(Rect2i(x * 32, y * 32, 32, 32)).is_invisible():
				out.append("%d:%d" % [x, y])
	print("VISIBLE ", " ".join(out))
`

func TestCreateAtlasFromImage(t *testing.T) {
	dir := plugintest.AssetProject(t, "2d-skeleton")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig, _ := os.ReadFile(filepath.Join(dir, "level", "tileset", "tileset.tres"))
	// Into the demo's TileSet (tile_size 32): a new source after the
	// existing one and before the patterns, with the tiles Godot would make.
	out := plugintest.Call(t, h, "create_atlas_from_image", map[string]any{"tileset_path": "res://level/tileset/tileset.tres", "texture_path": "res://level/tileset/tiles_demo.png"})
	if out["source_id"].(float64) != 2 || out["grid_size"].([]any)[0].(float64) != 8 || out["grid_size"].([]any)[1].(float64) != 4 {
		t.Fatalf("create_atlas_from_image = %v", out)
	}
	all := plugintest.Call(t, h, "create_atlas_from_image", map[string]any{"tileset_path": "res://level/tileset/tileset.tres",
		"texture_path": "res://level/tileset/tiles_demo.png", "tiles": "all", "region_size": []int{64, 64}, "margins": []int{0, 16}, "separation": []int{2, 0}, "source_id": 7})
	// 256 wide: 64, then steps of 66 -> 3 columns; 128-16 high: 1 row.
	if all["tiles_created"].(float64) != 3 || all["source_id"].(float64) != 7 {
		t.Fatalf("tiles all = %v", all)
	}
	now, _ := os.ReadFile(filepath.Join(dir, "level", "tileset", "tileset.tres"))
	text := string(now)
	if !strings.Contains(text, "margins = Vector2i(0, 16)\nseparation = Vector2i(2, 0)\ntexture_region_size = Vector2i(64, 64)\n0:0/0 = 0\n1:0/0 = 0\n2:0/0 = 0\n") {
		t.Errorf("the second atlas is not as the editor writes it:\n%s", text)
	}
	if i, j := strings.Index(text, "sources/7 = "), strings.Index(text, "pattern_0 = "); i < 0 || j < i {
		t.Errorf("the new sources are not before the patterns")
	}
	if !strings.HasPrefix(text, string(orig[:bytes.Index(orig, []byte("[sub_resource"))])) {
		t.Errorf("the file's head changed:\n%s", text[:300])
	}
	// The first atlas's tiles are the cells the engine finds visible.
	info := plugintest.Call(t, h, "get_tileset", map[string]any{"tileset_path": "res://level/tileset/tileset.tres"})
	var ours []string
	for _, s := range info["sources"].([]any) {
		src := s.(map[string]any)
		if src["source_id"].(float64) != 2 {
			continue
		}
		for _, tl := range src["tiles"].([]any) {
			at := tl.(map[string]any)["atlas_coords"].([]any)
			ours = append(ours, fmt.Sprintf("%v:%v", at[0], at[1]))
		}
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"texture_path": "res://level/tileset/tiles_demo.png", "tiles": "some"}, "not a choice"},
		{map[string]any{"texture_path": "res://level/tileset/tiles_demo.png", "region_size": []int{512, 32}}, "has no room"},
		{map[string]any{"texture_path": "res://level/tileset/tiles_demo.png", "source_id": 1}, "already used"},
		{map[string]any{"texture_path": "res://level/tileset/tileset.tres"}, "INVALID_ARGUMENT"},
	} {
		c.args["tileset_path"] = "res://level/tileset/tileset.tres"
		if got := plugintest.CallErr(t, h, "create_atlas_from_image", c.args); !strings.Contains(got, c.want) {
			t.Errorf("%v: %s, want %q", c.args, got, c.want)
		}
	}

	png, _ := os.ReadFile(filepath.Join(dir, "level", "tileset", "tiles_demo.png"))
	plugintest.WriteFile(t, dir, "res://raw/check.gd", visibleCheck)
	files, err := loadcheck.ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	files["raw/tiles_demo.bin"] = png // the pixels, which the check does not import
	rep := enginecheck.Run(t, files, loadcheck.Options{AllowMissing: true})
	for _, p := range rep.ProblemsIn("level/tileset/tileset.tres") {
		if !p.IsWarning() {
			t.Errorf("engine: %s", p)
		}
	}
	engine := "(not run)"
	for _, l := range rep.Log {
		if s, ok := strings.CutPrefix(l.Text, "VISIBLE "); ok {
			engine = s
		}
	}
	if got := strings.Join(ours, " "); got != engine || len(ours) == 0 {
		t.Errorf("tiles made: %s\nthe engine's visible cells: %s", got, engine)
	}
	os.RemoveAll(filepath.Join(dir, "raw"))
	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "level", "tileset", "tileset.tres")); !bytes.Equal(now, orig) {
		t.Error("undo did not restore the TileSet byte for byte")
	}
}

// addedLines answers the lines of b that are not in a at the same place,
// assuming b only adds lines to a.
func addedLines(t *testing.T, a, b []byte) []string {
	t.Helper()
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var added []string
	i := 0
	for _, l := range bl {
		if i < len(al) && al[i] == l {
			i++
			continue
		}
		added = append(added, l)
	}
	if i != len(al) {
		t.Fatalf("lines were changed or removed, not only added (kept %d of %d)", i, len(al))
	}
	return added
}

// On the platformer demo: the TileSet of a scene's TileMapLayer (a .tres)
// and one embedded in the scene get layers and tile data by node_path; the
// files change only by the added lines, in the editor's places, undo
// restores them byte for byte, and the engine loads the result.
func TestTileSetLayersByNodeOnARealProject(t *testing.T) {
	dir := project(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	tres, scene := filepath.Join(dir, "level", "tileset.tres"), filepath.Join(dir, "level", "level.tscn")
	origTres, _ := os.ReadFile(tres)
	origScene, _ := os.ReadFile(scene)
	node := func(kv ...any) map[string]any {
		m := map[string]any{"scene_path": "res://level/level.tscn", "node_path": "TileMapLayer"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	if out := plugintest.Call(t, h, "add_physics_layer", node("collision_mask", 5)); out["index"].(float64) != 1 || out["tileset_path"] != "res://level/tileset.tres" {
		t.Fatalf("add_physics_layer = %v", out)
	}
	plugintest.Call(t, h, "add_custom_data_layer", node("name", "hazard", "type", "bool"))
	plugintest.Call(t, h, "set_tile_collision", node("source_id", 1, "atlas_coords", []int{0, 0}, "alternative_tile", 2, "physics_layer", 1,
		"polygons", []map[string]any{{"points": [][]float64{{-32, 0}, {32, 0}, {32, 32}, {-32, 32}}, "one_way": true}}))
	plugintest.Call(t, h, "set_tile_custom_data", node("source_id", 1, "atlas_coords", []int{0, 0}, "layer", "hazard", "value", true))
	nowTres, _ := os.ReadFile(tres)
	want := []string{
		"0:0/2/physics_layer_1/polygon_0/points = PackedVector2Array(-32, 0, 32, 0, 32, 32, -32, 32)",
		"0:0/2/physics_layer_1/polygon_0/one_way = true",
		"0:0/0/custom_data_0 = true",
		"physics_layer_1/collision_layer = 1",
		"physics_layer_1/collision_mask = 5",
		"custom_data_layer_0/name = \"hazard\"",
		"custom_data_layer_0/type = 1",
	}
	got := addedLines(t, origTres, nowTres)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("added to tileset.tres:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, pair := range [][2]string{
		{"0:0/2/flip_v = true\n", "0:0/2/physics_layer_1/polygon_0/points"},
		{"physics_layer_0/collision_layer = 16\n", "physics_layer_1/collision_layer = 1\nphysics_layer_1/collision_mask = 5\ncustom_data_layer_0/name = \"hazard\"\ncustom_data_layer_0/type = 1\nsources/0 = "},
	} {
		if !strings.Contains(string(nowTres), pair[0]+pair[1]) {
			t.Errorf("%q does not follow %q:\n%s", pair[1], pair[0], nowTres)
		}
	}
	// An embedded TileSet: its keys go into the scene's sub_resource.
	plugintest.Call(t, h, "create_tileset", node("tile_size", []int{64, 64}))
	plugintest.Call(t, h, "add_physics_layer", node())
	plugintest.Call(t, h, "add_terrain_set", node())
	plugintest.Call(t, h, "add_terrain", node("terrain_set", 0, "name", "Rock"))
	nowScene, _ := os.ReadFile(scene)
	if !strings.Contains(string(nowScene), "tile_size = Vector2i(64, 64)\nphysics_layer_0/collision_layer = 1\nterrain_set_0/mode = 0\nterrain_set_0/terrain_0/name = \"Rock\"\nterrain_set_0/terrain_0/color = Color(0.5, 0.34375, 0.25, 1)\n") {
		t.Errorf("the embedded TileSet is not as the editor writes it:\n%s", nowScene)
	}
	engineLoadsAsBefore(t, project(t, "2d-platformer"), dir)
	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	for f, orig := range map[string][]byte{tres: origTres, scene: origScene} {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, orig) {
			t.Errorf("undo did not restore %s byte for byte", f)
		}
	}
}

// With an editor attached the TileSet tools the addon has no command for
// edit the file, and send the editor nothing that changes it.
func TestTileSetToolsWithAnEditorEditTheFile(t *testing.T) {
	ed := sdktest.NewEditor()
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "res://ts.tres": dryRunTileSet})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
	plugintest.Call(t, h, "add_physics_layer", map[string]any{"tileset_path": "res://ts.tres", "collision_layer": 2})
	out := plugintest.Call(t, h, "set_tile_collision", map[string]any{"tileset_path": "res://ts.tres", "source_id": 0, "atlas_coords": []int{0, 0}, "physics_layer": 1,
		"polygons": []map[string]any{{"points": [][]float64{{0, 0}, {8, 0}, {8, 8}}}}})
	if out["polygons"].(float64) != 1 {
		t.Fatalf("set_tile_collision = %v", out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "ts.tres"))
	if !strings.Contains(string(got), "0:0/0/physics_layer_1/polygon_0/points = PackedVector2Array(0, 0, 8, 0, 8, 8)") ||
		!strings.Contains(string(got), "physics_layer_0/collision_layer = 1\nphysics_layer_1/collision_layer = 2\n") {
		t.Errorf("ts.tres:\n%s", got)
	}
	for _, c := range ed.Calls() {
		t.Errorf("sent %s %v to the editor", c.Command, c.Params)
	}
}
