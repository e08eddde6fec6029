package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Two bodies sharing one shape, as the editor writes a scene after the
// shape was dragged onto both.
const sharedScene = `[gd_scene format=3 uid="uid://b2sh4r3dsc3n1"]

[sub_resource type="RectangleShape2D" id="RectangleShape2D_a1b2c"]
size = Vector2(16, 16)

[node name="Walls" type="Node2D"]

[node name="Left" type="StaticBody2D" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Left"]
shape = SubResource("RectangleShape2D_a1b2c")

[node name="Right" type="StaticBody2D" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Right"]
shape = SubResource("RectangleShape2D_a1b2c")
`

// The sub-resource tools over the real plugin: list and read them (with
// their users), edit one, make a shared one unique; create_resource and
// set_resource_property embed inline resources in a .tres; undo restores
// the bytes; the real engine loads every file with each property present.
func TestSubResourceTools(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "res://walls.tscn", sharedScene)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	var list listSubResult
	if err := plugintest.Must(t, h, "list_sub_resources", map[string]any{"path": "res://walls.tscn"}).Structured(&list); err != nil {
		t.Fatal(err)
	}
	if list.Count != 1 || len(list.SubResources[0].UsedBy) != 2 || list.SubResources[0].UsedBy[1].NodePath != "Right/Shape" {
		t.Fatalf("list: %+v", list)
	}

	// Make Right's shape its own, then change only that one.
	u := plugintest.Call(t, h, "make_sub_resource_unique", map[string]any{"path": "res://walls.tscn", "node_path": "Right/Shape", "property": "shape"})
	id, _ := u["id"].(string)
	if id == "" || id == "RectangleShape2D_a1b2c" || u["old_removed"] != false {
		t.Fatalf("make unique: %v", u)
	}
	plugintest.Call(t, h, "set_sub_resource_property", map[string]any{"path": "res://walls.tscn", "id": id, "property": "size", "value": []any{8, 64}})
	got := plugintest.Call(t, h, "get_sub_resource", map[string]any{"path": "res://walls.tscn", "id": id})
	if sz, _ := got["properties"].(map[string]any)["size"].(map[string]any); sz["x"] != float64(8) || sz["y"] != float64(64) {
		t.Errorf("re-read size = %v", got["properties"])
	}
	orig := plugintest.Call(t, h, "get_sub_resource", map[string]any{"path": "res://walls.tscn", "id": "RectangleShape2D_a1b2c"})
	if sz, _ := orig["properties"].(map[string]any)["size"].(map[string]any); sz["x"] != float64(16) {
		t.Errorf("the shared original changed: %v", orig["properties"])
	}
	plugintest.Refused(t, h, "set_sub_resource_property", map[string]any{"path": "res://walls.tscn", "id": id, "property": "siz", "value": 1},
		sdk.CodeInvalidArgument, "size")
	plugintest.Refused(t, h, "get_sub_resource", map[string]any{"path": "res://walls.tscn", "id": "Nope"}, sdk.CodeNotFound, "RectangleShape2D_a1b2c")

	// A .tres with nested inline resources, and an inline value replacing
	// a path; the old sub-resource goes with its last user.
	plugintest.Call(t, h, "create_resource", map[string]any{"path": "res://fx/glow.tres", "type": "ShaderMaterial", "properties": map[string]any{
		"shader": map[string]any{"type": "Shader", "properties": map[string]any{"code": "shader_type canvas_item;\n"}},
	}})
	plugintest.Call(t, h, "create_resource", map[string]any{"path": "res://fx/sky.tres", "type": "GradientTexture2D", "properties": map[string]any{
		"width": 32, "gradient": map[string]any{"type": "Gradient", "properties": map[string]any{"colors": []any{"#000000", "#3050ff"}}},
	}})
	before := string(projfixture.Read(t, dir, "fx/sky.tres"))
	plugintest.Call(t, h, "set_resource_property", map[string]any{"path": "res://fx/sky.tres", "property": "gradient",
		"value": map[string]any{"type": "Gradient", "properties": map[string]any{"colors": []any{"#ff0000", "#00ff00"}, "interpolation_mode": "GRADIENT_INTERPOLATE_CONSTANT"}}})
	sky := string(projfixture.Read(t, dir, "fx/sky.tres"))
	if strings.Count(sky, "[sub_resource") != 1 || !strings.Contains(sky, "interpolation_mode = 1") {
		t.Errorf("sky.tres after replacing the gradient:\n%s", sky)
	}
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if got := string(projfixture.Read(t, dir, "fx/sky.tres")); got != before {
		t.Errorf("undo did not restore sky.tres:\n%s\nwant\n%s", got, before)
	}

	files := map[string][]byte{"project.godot": projfixture.Read(t, dir, "project.godot")}
	for _, p := range []string{"walls.tscn", "fx/glow.tres", "fx/sky.tres"} {
		b := projfixture.Read(t, dir, p)
		if f, err := godot.ParseFile(p, b); err != nil || string(f.Bytes()) != string(b) {
			t.Fatalf("%s does not parse and round-trip: %v\n%s", p, err, b)
		}
		files[p] = b
	}
	if walls := string(files["walls.tscn"]); !strings.Contains(walls, "size = Vector2(8, 64)") || strings.Count(walls, "[sub_resource") != 2 {
		t.Errorf("walls.tscn:\n%s", walls)
	}
	glow := string(files["fx/glow.tres"])
	if !strings.Contains(glow, `[sub_resource type="Shader" id="Shader_`) || !strings.Contains(glow, `shader = SubResource("Shader_`) {
		t.Errorf("glow.tres:\n%s", glow)
	}
	// The project's autoload loads in the check, so its scene is part of
	// the set (the corpus has no music.ogg; the check stands in for it).
	files["music.tscn"] = projfixture.Read(t, dir, "music.tscn")
	enginecheck.Files(t, files)
}

// With an editor attached, an inline value, which the addon's commands
// cannot take (a resource only as a res:// path), is written to the file
// as headless, and the workspace has the editor rescan; a plain value
// still goes to the addon.
func TestInlineOnTheFileInEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	ed := sdktest.NewEditor().Result("cmd_set_resource_property", map[string]any{"resource_path": "res://gui/theme.tres"})
	scenes := sdktest.NewOpenScenes()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve, WorkspaceEditor: scenes})
	plugintest.Call(t, h, "set_resource_property", map[string]any{"path": "res://gui/theme.tres", "property": "default_font",
		"value": map[string]any{"type": "SystemFont", "properties": map[string]any{"font_names": []any{"Sans"}}}})
	plugintest.Call(t, h, "create_resource", map[string]any{"path": "res://fx/m.tres", "type": "ShaderMaterial",
		"properties": map[string]any{"shader": map[string]any{"type": "Shader", "properties": map[string]any{"code": "shader_type canvas_item;\n"}}}})
	if n := len(ed.Calls()); n != 0 {
		t.Errorf("%d commands reached the editor: %+v", n, ed.Calls())
	}
	theme := string(projfixture.Read(t, dir, "gui/theme.tres"))
	if !strings.Contains(theme, `[sub_resource type="SystemFont" id="SystemFont_`) || !strings.Contains(theme, `default_font = SubResource("SystemFont_`) {
		t.Errorf("theme.tres:\n%s", theme)
	}
	if m := string(projfixture.Read(t, dir, "fx/m.tres")); !strings.Contains(m, `[sub_resource type="Shader" id="Shader_`) {
		t.Errorf("m.tres:\n%s", m)
	}
	if r := scenes.Reloaded(); !slices.Contains(r, "res://gui/theme.tres") || !slices.Contains(r, "res://fx/m.tres") {
		t.Errorf("the editor was told to reload %v", r)
	}
	// A scene's sub-resource: the editor opens and saves the scene, its
	// file is edited, and the editor reloads it.
	ed.ActiveScene("res://level/coin.tscn").Result("cmd_open_scene", map[string]any{"opened": true})
	scenes.Open("res://level/coin.tscn")
	before := len(ed.Calls())
	out := plugintest.Call(t, h, "set_sub_resource_property", map[string]any{"path": "res://level/coin.tscn", "id": "3", "property": "radius", "value": 12})
	plugintest.OnSceneFile(t, out, ed, before, scenes, "res://level/coin.tscn", "cmd_open_scene", "cmd_get_active_scene", "cmd_save_scene")
	if coin := string(projfixture.Read(t, dir, "level/coin.tscn")); !strings.Contains(coin, "[sub_resource type=\"CircleShape2D\" id=\"3\"]\nradius = 12.0\n") {
		t.Errorf("coin.tscn:\n%s", coin)
	}
	plugintest.Call(t, h, "set_resource_property", map[string]any{"path": "res://gui/theme.tres", "property": "default_font", "value": "res://gui/font.tres"})
	if c := ed.Calls("cmd_set_resource_property"); len(c) != 1 || c[0].Params["value"] != "res://gui/font.tres" {
		t.Errorf("a path was sent as %+v", c)
	}
}
