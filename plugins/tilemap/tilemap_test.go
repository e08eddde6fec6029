package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

// project copies a project of the shared Godot 4 corpus into a temporary
// directory.
func project(t testing.TB, name string) string { return projfixture.Copy(t, name) }

// layerData returns the decoded tile_map_data of a TileMapLayer on disk.
func layerData(t *testing.T, file, node string) []tiledata.Cell {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := godot.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := f.Node(node).Get("tile_map_data")
	if !ok {
		return nil
	}
	cells, err := tiledata.Decode(v.(godot.PackedByteArray).Data)
	if err != nil {
		t.Fatal(err)
	}
	return cells
}

var dataLine = regexp.MustCompile(`(?m)^tile_map_data = .*$`)

func TestHeadlessEditsRealTileMaps(t *testing.T) {
	dir := project(t, "2d-dynamic_tilemap_layers")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "world.tscn")
	orig, _ := os.ReadFile(scene)
	before := layerData(t, scene, "Ground")

	ls := plugintest.Call(t, h, "layers", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn"})
	if ls["node_type"] != "TileMapLayer" || len(ls["layers"].([]any)) != 1 {
		t.Fatalf("layers = %v", ls)
	}
	used := plugintest.Call(t, h, "get_used_cells", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn"})
	if int(used["count"].(float64)) != len(before) || len(before) == 0 {
		t.Fatalf("get_used_cells count %v, file has %d", used["count"], len(before))
	}
	first := before[0]
	got := plugintest.Call(t, h, "get_cell", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn",
		"coords": []int{int(first.Coords.X), int(first.Coords.Y)}})
	if got["empty"] != false || int(got["source_id"].(float64)) != int(first.SourceID) {
		t.Fatalf("get_cell = %v, want %+v", got, first)
	}

	// Replace an existing cell and add a new one.
	plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn",
		"coords": []int{int(first.Coords.X), int(first.Coords.Y)}, "source_id": 0, "atlas_coords": []int{0, 0}, "alternative_tile": int(tiledata.FlipH)})
	out := plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn",
		"coords": []int{-40, 30}, "source_id": 0})
	if out["dry_run"] != false || out["layer"] != nil {
		t.Fatalf("set_cell = %v", out)
	}
	after := layerData(t, scene, "Ground")
	if len(after) != len(before)+1 {
		t.Fatalf("%d cells after, want %d", len(after), len(before)+1)
	}
	want := append([]tiledata.Cell(nil), before...)
	want[0].Alternative = uint16(tiledata.FlipH)
	want = append(want, tiledata.Cell{Coords: tiledata.Coords{X: -40, Y: 30}})
	if !bytes.Equal(tiledata.Encode(after), tiledata.Encode(want)) {
		t.Fatal("tile data after the edit differs from the editor's order: first record changed in place, new one appended")
	}
	// Byte-exact elsewhere: only the Ground tile_map_data line differs.
	now, _ := os.ReadFile(scene)
	a, b := strings.Split(string(orig), "\n"), strings.Split(string(now), "\n")
	if len(a) != len(b) {
		t.Fatalf("line count changed %d -> %d", len(a), len(b))
	}
	diff := 0
	for i := range a {
		if a[i] != b[i] {
			diff++
			if !dataLine.MatchString(b[i]) {
				t.Errorf("line %d changed: %q", i+1, b[i])
			}
		}
	}
	if diff != 1 {
		t.Fatalf("%d lines changed, want 1", diff)
	}
	// The Secret layer is untouched, byte for byte.
	if got, want := layerData(t, scene, "Secret"), layerData(t, filepath.Join(project(t, "2d-dynamic_tilemap_layers"), "world.tscn"), "Secret"); !bytes.Equal(tiledata.Encode(got), tiledata.Encode(want)) {
		t.Fatal("Secret layer changed")
	}

	// Erase, fill, clear; then undo everything and get the original back.
	plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "Ground", "scene_path": "res://world.tscn", "coords": []int{-40, 30}, "source_id": -1})
	fr := plugintest.Call(t, h, "fill_rect", map[string]any{"node_path": "Secret", "scene_path": "res://world.tscn", "rect": []int{-5, -5, 10, 3}, "source_id": 0})
	if int(fr["cells"].(float64)) != 30 {
		t.Fatalf("fill_rect = %v", fr)
	}
	secret := layerData(t, scene, "Secret")
	engineLoadsAsBefore(t, project(t, "2d-dynamic_tilemap_layers"), dir) // Godot 4.6 loads the edited scene

	cl := plugintest.Call(t, h, "clear", map[string]any{"node_path": "Secret", "scene_path": "res://world.tscn"})
	if int(cl["cleared"].(float64)) != len(secret) {
		t.Fatalf("clear = %v, want %d cells", cl, len(secret))
	}
	if f, _ := os.ReadFile(scene); bytes.Contains(f, []byte("Secret\" type=\"TileMapLayer\" parent=\".\" unique_id=858515358]\nz_index")) {
		t.Log("ok")
	}
	if layerData(t, scene, "Secret") != nil {
		t.Fatal("clear left tile_map_data behind; Godot omits it for an empty layer")
	}
	hist := h.Workspace().History()
	if _, err := h.Workspace().Undo(context.Background(), hist.Depth, false); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(scene); !bytes.Equal(now, orig) {
		t.Fatal("undoing every call did not restore the original scene")
	}
}

func TestHeadlessPreviewAndErrors(t *testing.T) {
	dir := project(t, "2d-hexagonal_map")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := filepath.Join(dir, "map.tscn")
	orig, _ := os.ReadFile(scene)
	args := map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "rect": []int{0, 0, 128, 128}, "source_id": 0}
	out := plugintest.Call(t, h, "fill_rect", args, sdktest.DryRun())
	if out["dry_run"] != true || len(out["changes"].([]any)) != 1 {
		t.Fatalf("dry run = %v", out)
	}
	if now, _ := os.ReadFile(scene); !bytes.Equal(now, orig) {
		t.Fatal("dry run wrote the scene")
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"rect": []int{0, 0, 129, 128}}, "more than the limit of 16384"},
		{map[string]any{"rect": []int{0, 0, 0, 1}}, "w and h must be > 0"},
		{map[string]any{"rect": []int{0, 0, 1}}, "'rect' must be [x, y, w, h]"},
		{map[string]any{"node_path": ".", "rect": []int{0, 0, 1, 1}}, "Node is not a TileMap/TileMapLayer."},
		{map[string]any{"node_path": "Nope", "rect": []int{0, 0, 1, 1}}, "NOT_FOUND"},
		{map[string]any{"rect": []int{32767, 0, 2, 1}}, "outside the tile map's range"},
		{map[string]any{"rect": []int{0, 0, 1, 1}, "source_id": 70000}, "source_id 70000 is out of range"},
	} {
		a := map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "source_id": 0}
		for k, v := range c.args {
			a[k] = v
		}
		if got := plugintest.CallErr(t, h, "fill_rect", a); !strings.Contains(got, c.want) {
			t.Errorf("fill_rect %v: %s, want %q", c.args, got, c.want)
		}
	}
	// A tile the TileSet does not have is refused, naming what there is;
	// erasing needs no tile.
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"source_id": 70}, "source_id 70 is not a source of the TileSet of TileMapLayer"},
		{map[string]any{"atlas_coords": []int{40, 40}}, "atlas source 0 has no tile at (40, 40)"},
		{map[string]any{"alternative_tile": 9}, "has no alternative 9"},
	} {
		a := map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "coords": []int{0, 0}, "source_id": 0}
		for k, v := range c.args {
			a[k] = v
		}
		got := plugintest.CallErr(t, h, "set_cell", a)
		if !strings.Contains(got, c.want) || !strings.Contains(got, "Hint:") {
			t.Errorf("set_cell %v: %s, want %q and a hint", c.args, got, c.want)
		}
		a["rect"] = []int{0, 0, 2, 2}
		delete(a, "coords")
		if got := plugintest.CallErr(t, h, "fill_rect", a); !strings.Contains(got, c.want) {
			t.Errorf("fill_rect %v: %s, want %q", c.args, got, c.want)
		}
	}
	if got := plugintest.CallErr(t, h, "set_cell", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "coords": []int{0, 0}, "source_id": 0, "atlas_coords": []int{40, 40}}); !strings.Contains(got, "tiles of this source: [0, 0]") {
		t.Errorf("refusal does not list the tiles: %s", got)
	}
	plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "coords": []int{0, 0}, "source_id": -1}, sdktest.DryRun())
	if got := plugintest.CallErr(t, h, "get_cell", map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "coords": []int{1}}); !strings.Contains(got, "'coords' must be [x, y] integer coordinates.") {
		t.Errorf("short coords: %s", got)
	}
	if got := plugintest.CallErr(t, h, "get_cell", map[string]any{"node_path": "TileMapLayer", "coords": []int{1, 1}}); !strings.Contains(got, "active_scene") {
		t.Errorf("no active scene: %s", got)
	}
	if now, _ := os.ReadFile(scene); !bytes.Equal(now, orig) {
		t.Fatal("a refused call changed the scene")
	}
}

// A Godot 4.0-4.2 style TileMap with two layers.
const legacyScene = `[gd_scene load_steps=4 format=3]

[ext_resource type="Texture2D" path="res://tiles.png" id="1"]

[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_a"]
texture = ExtResource("1")
0:0/0 = 0
1:1/0 = 0
2:1/0 = 0

[sub_resource type="TileSet" id="TileSet_a"]
sources/0 = SubResource("TileSetAtlasSource_a")

[node name="Root" type="Node2D"]

[node name="Map" type="TileMap" parent="."]
tile_set = SubResource("TileSet_a")
format = 2
layer_0/name = "floor"
layer_0/tile_data = PackedInt32Array(0, 65536, 0, 65537, 65536, 1)
layer_1/name = "walls"
layer_1/enabled = false
`

func TestHeadlessLegacyTileMap(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"t\"\nconfig/features=PackedStringArray(\"4.6\")\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "legacy.tscn"), []byte(legacyScene), 0o644)
	writePNG(t, filepath.Join(dir, "tiles.png"))
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	base := map[string]any{"node_path": "Map", "scene_path": "res://legacy.tscn"}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	ls := plugintest.Call(t, h, "layers", base)
	layers := ls["layers"].([]any)
	if len(layers) != 2 || layers[1].(map[string]any)["name"] != "walls" || layers[1].(map[string]any)["enabled"] != false {
		t.Fatalf("layers = %v", ls)
	}
	used := plugintest.Call(t, h, "get_used_cells", with("layer", 0))
	if used["count"].(float64) != 2 {
		t.Fatalf("used = %v", used)
	}
	c := plugintest.Call(t, h, "get_cell", with("coords", []int{1, 1}))
	if c["source_id"].(float64) != 0 || c["atlas_coords"].([]any)[0].(float64) != 1 || c["atlas_coords"].([]any)[1].(float64) != 1 || c["alternative_tile"].(float64) != 0 {
		t.Fatalf("cell (1,1) = %v", c)
	}
	plugintest.Call(t, h, "set_cell", with("layer", 1, "coords", []int{-2, 3}, "source_id", 0, "atlas_coords", []int{2, 1}))
	if got := plugintest.CallErr(t, h, "set_cell", with("layer", 1, "coords", []int{0, 0}, "source_id", 0, "atlas_coords", []int{3, 1})); !strings.Contains(got, "tiles of this source: [0, 0], [1, 1], [2, 1]") {
		t.Fatalf("missing tile: %s", got)
	}
	if got := plugintest.CallErr(t, h, "set_cell", with("layer", 2, "coords", []int{0, 0})); !strings.Contains(got, "layer 2 is out of range") {
		t.Fatalf("layer 2: %s", got)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "legacy.tscn"))
	// (-2,3): x=0xFFFE y=3 -> int32 0x0003FFFE; source 0, atlas (2,1) -> 0x00020000; 1 -> 1
	if !bytes.Contains(src, []byte("layer_1/tile_data = PackedInt32Array(262142, 131072, 1)")) {
		t.Fatalf("legacy layer_1 not written as the editor would:\n%s", src)
	}
	if !bytes.Contains(src, []byte("layer_0/tile_data = PackedInt32Array(0, 65536, 0, 65537, 65536, 1)")) {
		t.Fatal("layer_0 changed")
	}
	png, _ := os.ReadFile(filepath.Join(dir, "tiles.png"))
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte("config_version=5\n"), "legacy.tscn": src, "tiles.png": png})
}

func TestHeadlessTileSets(t *testing.T) {
	dir := project(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := "res://level/level.tscn"
	writePNG(t, filepath.Join(dir, "level", "tiles.webp"))
	orig := project(t, "2d-platformer")
	writePNG(t, filepath.Join(orig, "level", "tiles.webp"))
	// A new TileSet file, then an atlas source over a real texture and two tiles.
	out := plugintest.Call(t, h, "create_tileset", map[string]any{"save_path": "res://level/new_tiles.tres", "tile_size": []int{32, 32}})
	if out["tileset_path"] != "res://level/new_tiles.tres" {
		t.Fatalf("create_tileset = %v", out)
	}
	src := plugintest.Call(t, h, "add_tileset_atlas_source", map[string]any{"tileset_path": "res://level/new_tiles.tres", "texture_path": "res://level/tiles.webp", "region_size": []int{32, 32}})
	if src["source_id"].(float64) != 0 {
		t.Fatalf("source = %v", src)
	}
	plugintest.Call(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 0, "atlas_coords": []int{0, 0}})
	plugintest.Call(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 0, "atlas_coords": []int{1, 0}, "size": []int{2, 2}})
	if got := plugintest.CallErr(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 0, "atlas_coords": []int{2, 1}}); !strings.Contains(got, "no room") {
		t.Fatalf("overlap: %s", got)
	}
	// The texture is 128x128 with 32x32 regions: a 4x4 grid.
	for _, c := range []struct {
		at, size []int
	}{{[]int{4, 0}, []int{1, 1}}, {[]int{3, 3}, []int{2, 1}}} {
		if got := plugintest.CallErr(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 0, "atlas_coords": c.at, "size": c.size}); !strings.Contains(got, "outside the texture") || !strings.Contains(got, "4x4 tiles") {
			t.Errorf("tile %v %v outside the texture: %s", c.at, c.size, got)
		}
	}
	plugintest.Call(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 0, "atlas_coords": []int{3, 3}})
	if got := plugintest.CallErr(t, h, "create_tile", map[string]any{"tileset_path": "res://level/new_tiles.tres", "source_id": 5, "atlas_coords": []int{4, 4}}); !strings.Contains(got, "required") && !strings.Contains(got, "source_id") {
		t.Fatalf("bad source: %s", got)
	}
	// The scene's existing TileSet (an ext resource) gets a new source with the next free id.
	src2 := plugintest.Call(t, h, "add_tileset_atlas_source", map[string]any{"node_path": "TileMapLayer", "scene_path": scene, "texture_path": "res://level/tiles.webp"})
	if src2["tileset_path"] != "res://level/tileset.tres" || src2["source_id"].(float64) < 1 {
		t.Fatalf("node-backed source = %v", src2)
	}
	// An embedded TileSet on the node.
	plugintest.Call(t, h, "create_tileset", map[string]any{"node_path": "TileMapLayer", "scene_path": scene, "tile_size": []int{64, 64}})
	plugintest.Call(t, h, "add_tileset_atlas_source", map[string]any{"node_path": "TileMapLayer", "scene_path": scene, "texture_path": "res://level/tiles.webp", "source_id": 3})
	plugintest.Call(t, h, "create_tile", map[string]any{"node_path": "TileMapLayer", "scene_path": scene, "source_id": 3, "atlas_coords": []int{0, 0}})
	if got := plugintest.CallErr(t, h, "add_tileset_atlas_source", map[string]any{"node_path": "TileMapLayer", "scene_path": scene, "texture_path": "res://level/missing.png"}); !strings.Contains(got, "NOT_FOUND") {
		t.Fatalf("missing texture: %s", got)
	}
	ts, _ := os.ReadFile(filepath.Join(dir, "level", "new_tiles.tres"))
	for _, want := range []string{"tile_size = Vector2i(32, 32)", "texture_region_size = Vector2i(32, 32)", "0:0/0 = 0", "1:0/size_in_atlas = Vector2i(2, 2)", "1:0/0 = 0", "sources/0 = SubResource("} {
		if !strings.Contains(string(ts), want) {
			t.Errorf("new_tiles.tres lacks %q:\n%s", want, ts)
		}
	}
	lvl, _ := os.ReadFile(filepath.Join(dir, "level", "level.tscn"))
	if !strings.Contains(string(lvl), "sources/3 = SubResource(") || !strings.Contains(string(lvl), "tile_size = Vector2i(64, 64)") {
		t.Errorf("level.tscn lacks the embedded TileSet")
	}
	engineLoadsAsBefore(t, orig, dir)
}

func TestEditorModeForwardsExactParams(t *testing.T) {
	ed := sdktest.NewEditor()
	for _, c := range []string{"cmd_tilemap_set_cell", "cmd_tilemap_fill_rect", "cmd_tilemap_get_cell", "cmd_tilemap_get_used_cells",
		"cmd_tilemap_clear", "cmd_tilemap_layers", "cmd_create_tileset", "cmd_add_tileset_atlas_source", "cmd_create_tile"} {
		ed.Result(c, map[string]any{"ok": c})
	}
	// scene_path is not forwarded: its tab is opened first.
	ed.Result("cmd_open_scene", map[string]any{"opened": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	cases := []struct {
		tool, cmd string
		args      map[string]any
		want      string
	}{
		{"set_cell", "cmd_tilemap_set_cell", map[string]any{"node_path": "G", "coords": []int{1, -2}, "source_id": 1},
			`{"alternative_tile":0,"atlas_coords":[0,0],"coords":[1,-2],"layer":0,"node_path":"G","source_id":1}`},
		// Without source_id the rect is erased (-1), as the reference's default.
		{"fill_rect", "cmd_tilemap_fill_rect", map[string]any{"node_path": "G", "rect": []int{0, 0, 2, 3}, "atlas_coords": []int{1, 2}, "layer": 1, "scene_path": "res://x.tscn"},
			`{"alternative_tile":0,"atlas_coords":[1,2],"layer":1,"node_path":"G","rect":[0,0,2,3],"source_id":-1}`},
		{"get_cell", "cmd_tilemap_get_cell", map[string]any{"node_path": "G", "coords": []int{4, 5}}, `{"coords":[4,5],"layer":0,"node_path":"G"}`},
		{"get_used_cells", "cmd_tilemap_get_used_cells", map[string]any{"node_path": "G"}, `{"layer":0,"node_path":"G"}`},
		{"clear", "cmd_tilemap_clear", map[string]any{"node_path": "G", "layer": 2}, `{"layer":2,"node_path":"G"}`},
		{"layers", "cmd_tilemap_layers", map[string]any{"node_path": "G"}, `{"node_path":"G"}`},
		{"create_tileset", "cmd_create_tileset", map[string]any{"node_path": "G", "save_path": "res://t.tres"}, `{"node_path":"G","save_path":"res://t.tres","tile_size":[16,16]}`},
		{"add_tileset_atlas_source", "cmd_add_tileset_atlas_source", map[string]any{"tileset_path": "res://t.tres", "texture_path": "res://a.png", "source_id": 4},
			`{"region_size":[16,16],"source_id":4,"texture_path":"res://a.png","tileset_path":"res://t.tres"}`},
		{"create_tile", "cmd_create_tile", map[string]any{"node_path": "G", "source_id": 0, "atlas_coords": []int{3, 3}, "size": []int{2, 1}},
			`{"atlas_coords":[3,3],"node_path":"G","size":[2,1],"source_id":0}`},
	}
	for _, c := range cases {
		out := plugintest.Call(t, h, c.tool, c.args)
		if out["ok"] != c.cmd {
			t.Errorf("%s: result %v not passed through", c.tool, out)
		}
		calls := ed.Calls(c.cmd)
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls of %s", c.tool, len(calls), c.cmd)
		}
		if got := jsonOf(calls[0].Params); got != c.want {
			t.Errorf("%s sent %s\nwant %s", c.cmd, got, c.want)
		}
	}
	if open := ed.Calls("cmd_open_scene"); len(open) != 1 || open[0].Params["scene_path"] != "res://x.tscn" {
		t.Errorf("fill_rect with scene_path: cmd_open_scene calls %+v", open)
	}
	// A dry run sends nothing, a bad coordinate is refused before the bridge,
	// and the addon's refusal comes back unchanged.
	plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "G", "coords": []int{0, 0}}, sdktest.DryRun())
	if n := len(ed.Calls("cmd_tilemap_set_cell")); n != 1 {
		t.Fatalf("dry run forwarded: %d calls", n)
	}
	plugintest.CallErr(t, h, "set_cell", map[string]any{"node_path": "G", "coords": "1,2"})
	if got := plugintest.CallErr(t, h, "create_tile", map[string]any{"node_path": "G", "tileset_path": "res://t.tres", "source_id": 0, "atlas_coords": []int{0, 0}}); !strings.Contains(got, "exactly one") {
		t.Fatalf("both node_path and tileset_path: %s", got)
	}
	if n := len(ed.Calls("cmd_create_tile")); n != 1 {
		t.Fatalf("a refused create_tile reached the editor")
	}
	ed.Fail("cmd_tilemap_layers", "VALIDATION_ERROR", "Node is not a TileMap/TileMapLayer.", "")
	if got := plugintest.CallErr(t, h, "layers", map[string]any{"node_path": "X"}); !strings.HasPrefix(got, "INVALID_ARGUMENT: ") || !strings.Contains(got, "Node is not a TileMap/TileMapLayer.") {
		t.Fatalf("addon refusal: %s", got)
	}
}

// An editor dry run of every writing tool sends nothing that changes the
// editor (opening scene_path's tab is allowed) and answers the command it
// would send.
func TestEditorDryRunsSendNothing(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true})
	// The TileSet tools the addon has no command for edit this file in
	// both modes.
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "res://ts.tres": dryRunTileSet,
		"res://map.tscn": "[gd_scene format=3]\n\n[ext_resource type=\"TileSet\" path=\"res://ts.tres\" id=\"1\"]\n\n[node name=\"Map\" type=\"TileMapLayer\"]\ntile_set = ExtResource(\"1\")\n"})
	writePNG(t, filepath.Join(dir, "tiles.png"))
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
	tileArgs := func(kv ...any) map[string]any {
		m := map[string]any{"tileset_path": "res://ts.tres", "source_id": 0, "atlas_coords": []int{0, 0}}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tri := [][]float64{{0, 0}, {8, 0}, {8, 8}}
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"create_atlas_from_image":  map[string]any{"tileset_path": "res://ts.tres", "texture_path": "res://tiles.png", "tiles": "all"},
		"paint_terrain":            map[string]any{"scene_path": "res://map.tscn", "node_path": ".", "rect": []int{0, 0, 2, 2}, "terrain_set": 0, "terrain": 0},
		"add_physics_layer":        map[string]any{"tileset_path": "res://ts.tres"},
		"add_navigation_layer":     map[string]any{"tileset_path": "res://ts.tres"},
		"add_occlusion_layer":      map[string]any{"tileset_path": "res://ts.tres"},
		"add_custom_data_layer":    map[string]any{"tileset_path": "res://ts.tres", "name": "hp", "type": "int"},
		"add_terrain_set":          map[string]any{"tileset_path": "res://ts.tres"},
		"add_terrain":              map[string]any{"tileset_path": "res://ts.tres", "terrain_set": 0},
		"set_tile_collision":       tileArgs("polygons", []map[string]any{{"points": tri}}),
		"set_tile_terrain":         tileArgs("terrain_set", 0, "terrain", 0, "peering_bits", map[string]int{"right_side": 0}),
		"set_tile_custom_data":     tileArgs("layer", "damage", "value", 3),
		"set_tile_navigation":      tileArgs("polygon", tri),
		"set_tile_occluder":        tileArgs("polygons", [][][]float64{tri}),
		"set_cell":                 map[string]any{"node_path": "G", "coords": []int{1, 2}, "source_id": 1, "scene_path": "res://level.tscn"},
		"fill_rect":                map[string]any{"node_path": "G", "rect": []int{0, 0, 2, 3}},
		"clear":                    map[string]any{"node_path": "G"},
		"create_tileset":           map[string]any{"node_path": "G", "save_path": "res://t.tres"},
		"add_tileset_atlas_source": map[string]any{"tileset_path": "res://t.tres", "texture_path": "res://a.png"},
		"create_tile":              map[string]any{"node_path": "G", "source_id": 0, "atlas_coords": []int{3, 3}},
	})
	out := plugintest.Call(t, h, "set_cell", map[string]any{"node_path": "G", "coords": []int{1, 2}}, sdktest.DryRun())
	cmds, _ := out["preview"].(map[string]any)["commands"].([]any)
	if len(cmds) != 1 || cmds[0].(map[string]any)["command"] != "cmd_tilemap_set_cell" {
		t.Fatalf("preview %v", out)
	}
}

// dryRunTileSet has one layer of each kind and a tile.
const dryRunTileSet = `[gd_resource type="TileSet" format=3]

[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_a"]
0:0/0 = 0
0:0/0/terrain_set = 0
0:0/0/terrain = 0

[resource]
occlusion_layer_0/light_mask = 1
physics_layer_0/collision_layer = 1
terrain_set_0/mode = 0
terrain_set_0/terrain_0/name = "Ground"
terrain_set_0/terrain_0/color = Color(0.5, 0.34375, 0.25, 1)
navigation_layer_0/layers = 1
custom_data_layer_0/name = "damage"
custom_data_layer_0/type = 2
sources/0 = SubResource("TileSetAtlasSource_a")
`

func jsonOf(m map[string]any) string {
	var b bytes.Buffer
	enc := sdk.JSON(m)
	_ = enc
	// encoding/json sorts map keys, which makes the comparison stable.
	data, _ := jsonMarshal(m)
	b.Write(data)
	return b.String()
}

var _ = base64.StdEncoding

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// writePNG writes a small real PNG where the fixture (which ships no
// images) refers to a texture.
func writePNG(t *testing.T, p string) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 128, 128))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// engineLoadsAsBefore has Godot 4.6 load the original and the edited
// project and fails on any problem the edit introduced. The fixtures ship
// scenes without their scripts and images, so problems both share (a
// missing script) are not the edit's.
func engineLoadsAsBefore(t *testing.T, origDir, editedDir string) {
	t.Helper()
	read := func(dir string) map[string][]byte {
		files, err := loadcheck.ReadProject(dir)
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	before := map[string]bool{}
	for _, p := range enginecheck.Run(t, read(origDir), loadcheck.Options{AllowMissing: true}).Problems {
		before[p.File+": "+p.Message] = true
	}
	rep := enginecheck.Run(t, read(editedDir), loadcheck.Options{AllowMissing: true})
	for _, f := range rep.Files {
		if (f.Kind == loadcheck.KindScene || f.Kind == loadcheck.KindResource) && !f.Loaded && !f.Unverifiable {
			t.Errorf("engine: %s did not load", f.File)
		}
	}
	for _, p := range rep.Problems {
		if !p.IsWarning() && !before[p.File+": "+p.Message] {
			t.Errorf("engine: %s", p)
		}
	}
}

// With an editor attached, a tile the saved TileSet does not have is
// refused before anything reaches the editor; a good one is forwarded.
func TestEditorModeRefusesMissingTile(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_tilemap_set_cell", map[string]any{"ok": true}).Result("cmd_tilemap_fill_rect", map[string]any{"ok": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t, "2d-hexagonal_map"), GodotVersion: "4.6", Editor: ed.Serve})
	base := map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn", "source_id": 0}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	if got := plugintest.CallErr(t, h, "set_cell", with("coords", []int{0, 0}, "atlas_coords", []int{5, 5})); !strings.Contains(got, "atlas source 0 has no tile at (5, 5)") {
		t.Fatalf("set_cell: %s", got)
	}
	if got := plugintest.CallErr(t, h, "fill_rect", with("rect", []int{0, 0, 2, 2}, "source_id", 99)); !strings.Contains(got, "source_id 99 is not a source") {
		t.Fatalf("fill_rect: %s", got)
	}
	if n := len(ed.Calls("cmd_tilemap_set_cell")) + len(ed.Calls("cmd_tilemap_fill_rect")); n != 0 {
		t.Fatalf("%d refused paints reached the editor", n)
	}
	plugintest.Call(t, h, "set_cell", with("coords", []int{0, 0}, "atlas_coords", []int{0, 0}, "alternative_tile", 3))
	if n := len(ed.Calls("cmd_tilemap_set_cell")); n != 1 {
		t.Fatalf("a valid tile was not forwarded (%d calls)", n)
	}
}

// TestReferenceDefaults: the reference server's contract. set_cell and
// fill_rect without source_id erase (its default is -1), and the tools'
// safety classes are the reference's: clear is mutating (undoable, no
// confirm), not destructive.
func TestReferenceDefaults(t *testing.T) {
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]sdk.SafetyClass{
		"add_tileset_atlas_source": sdk.Mutating, "clear": sdk.Mutating, "create_tile": sdk.Mutating, "create_tileset": sdk.Mutating,
		"fill_rect": sdk.Mutating, "get_cell": sdk.ReadOnly, "get_used_cells": sdk.ReadOnly, "layers": sdk.ReadOnly, "set_cell": sdk.Mutating,
	}
	for _, tool := range m.Tools {
		if c, ok := want[tool.Name]; ok && tool.SafetyClass != c {
			t.Errorf("tool %s: class %q, want the reference's %q", tool.Name, tool.SafetyClass, c)
		}
	}

	dir := project(t, "2d-hexagonal_map")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	at := func(args ...any) map[string]any {
		m := map[string]any{"node_path": "TileMapLayer", "scene_path": "res://map.tscn"}
		for i := 0; i < len(args); i += 2 {
			m[args[i].(string)] = args[i+1]
		}
		return m
	}
	plugintest.Call(t, h, "fill_rect", at("rect", []int{0, 0, 2, 1}, "source_id", 0))
	if c := plugintest.Call(t, h, "get_cell", at("coords", []int{0, 0})); c["empty"] != false {
		t.Fatalf("painted cell: %v", c)
	}
	plugintest.Call(t, h, "set_cell", at("coords", []int{0, 0}))
	if c := plugintest.Call(t, h, "get_cell", at("coords", []int{0, 0})); c["empty"] != true {
		t.Errorf("set_cell without source_id did not erase: %v", c)
	}
	plugintest.Call(t, h, "fill_rect", at("rect", []int{1, 0, 1, 1}))
	if c := plugintest.Call(t, h, "get_cell", at("coords", []int{1, 0})); c["empty"] != true {
		t.Errorf("fill_rect without source_id did not erase: %v", c)
	}
	// clear runs without confirm.
	if r := h.Call(context.Background(), "clear", at()); r.Err != nil || r.IsError {
		t.Errorf("clear without confirm: %v %s", r.Err, r.Text())
	}
}
