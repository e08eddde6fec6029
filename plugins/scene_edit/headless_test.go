package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

const pong = "res://pong.tscn"

func TestNoActiveScene(t *testing.T) {
	h := headless(t, fixture(t, "2d-pong"))
	text := refused(t, h, "create_node", map[string]any{"node_type": "Node2D"}, sdk.CodePreconditionFailed)
	if !strings.Contains(text, "Required: active_scene") || !strings.Contains(text, "godot_scene_edit_open_scene") {
		t.Fatalf("want required=active_scene naming open_scene, got %s", text)
	}
}

func TestCreateNodeTouchesOnlyItsLines(t *testing.T) {
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	before := read(t, dir, pong)
	out := plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	if out["already_open"] != false {
		t.Fatalf("open_scene: %v", out)
	}
	out = plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "Left"})
	if out["node_path"] != "Left/Sprite2D2" || out["persisted"] != true {
		t.Fatalf("create_node: want Left/Sprite2D2 (Sprite2D is taken), got %v", out)
	}
	after := read(t, dir, pong)
	roundTrips(t, pong, after)
	added, removed := diffLines(before, after)
	if len(removed) != 0 || len(added) != 2 || !strings.HasPrefix(added[0], `[node name="Sprite2D2" type="Sprite2D" parent="Left" unique_id=`) {
		t.Fatalf("want one new [node] line with a unique_id (and its blank line), got +%q -%q", added, removed)
	}
	// Placed after Left's subtree, before the next top-level node.
	if strings.Index(after, `name="Sprite2D2"`) > strings.Index(after, `[node name="Right"`) {
		t.Fatal("new child is not inside Left's subtree")
	}
}

func TestCreateNodeRefusesBadTypes(t *testing.T) {
	_, h := openPong(t)
	text := refused(t, h, "create_node", map[string]any{"node_type": "Sprite2d"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, `"Sprite2D"`) {
		t.Fatalf("want the closest name Sprite2D, got %s", text)
	}
	text = refused(t, h, "create_node", map[string]any{"node_type": "KinematicBody2D"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D") {
		t.Fatalf("want the Godot 4 name, got %s", text)
	}
	refused(t, h, "create_node", map[string]any{"node_type": "CanvasItem"}, sdk.CodeInvalidArgument)
	refused(t, h, "create_node", map[string]any{"node_type": "Resource"}, sdk.CodeInvalidArgument)
	refused(t, h, "create_node", map[string]any{"node_type": "Node2D", "parent_path": "Nope"}, sdk.CodeNotFound)
}

func TestSetNodeProperty(t *testing.T) {
	dir, h := openPong(t)
	before := read(t, dir, pong)

	// An existing line is rewritten in place.
	out := plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": map[string]any{"x": 70, "y": 190.5}})
	if v, _ := out["value"].(map[string]any); v["x"] != 70.0 || v["y"] != 190.5 {
		t.Fatalf("value echo: %v", out)
	}
	added, removed := diffLines(before, read(t, dir, pong))
	if len(added) != 1 || added[0] != "position = Vector2(70, 190.5)" || len(removed) != 1 || removed[0] != "position = Vector2(67.6285, 192.594)" {
		t.Fatalf("want one line changed, got +%q -%q", added, removed)
	}

	// A new property goes where Godot writes it: CanvasItem's modulate and
	// Node2D's rotation before Area2D's own, script last.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "rotation", "value": 0.5})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "monitoring", "value": false})
	got := read(t, dir, pong)
	want := "[node name=\"Left\" type=\"Area2D\" parent=\".\" unique_id=1813648679]\nmodulate = Color(0, 1, 1, 1)\nposition = Vector2(70, 190.5)\nrotation = 0.5\nmonitoring = false\nscript = ExtResource(\"1\")\n"
	if !strings.Contains(got, want) {
		t.Fatalf("property order: want\n%s\nin\n%s", want, got)
	}
	roundTrips(t, pong, got)

	// Colors from hex, enums as ints; the class default removes the line.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Background", "property": "color", "value": "#ff0000"})
	if !strings.Contains(read(t, dir, pong), "color = Color(1, 0, 0, 1)") {
		t.Fatal("hex color not written as Color(1, 0, 0, 1)")
	}
	out = plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "rotation", "value": 0})
	if out["default"] != true || strings.Contains(read(t, dir, pong), "rotation = ") {
		t.Fatalf("a default value must remove the line: %v", out)
	}
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "process_mode", "value": 4})
	if !strings.Contains(read(t, dir, pong), "process_mode = 4") {
		t.Fatal("enum int not written")
	}

	// Refusals: unknown property with a suggestion, wrong shape.
	text := refused(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "positon", "value": 1}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, `did you mean "position"?`) {
		t.Fatalf("want a suggestion, got %s", text)
	}
	text = refused(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "pause_mode", "value": 1}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "pause_mode is the Godot 3 name; in Godot 4 it is process_mode") {
		t.Fatalf("want the Godot 4 name, got %s", text)
	}
	text = refused(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "rotation", "value": "fast"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "Required: value") {
		t.Fatalf("want required=value, got %s", text)
	}
	refused(t, h, "set_node_property", map[string]any{"node_path": "Left/Nope", "property": "rotation", "value": 1}, sdk.CodeNotFound)
}

func TestResourcePropertyAndScript(t *testing.T) {
	dir := fixture(t, "2d-pong")
	plugintest.WriteFile(t, dir, "res://icon.png", "not really a png")
	plugintest.WriteFile(t, dir, "res://icon.png.import", "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"uid://btest1234567\"\n")
	plugintest.WriteFile(t, dir, "res://logic/extra.gd", "extends Node2D\n\nsignal scored(points: int)\n@export var speed: float = 2.0\n\nfunc _on_scored(points):\n\tpass\n")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Sprite2D", "node_name": "Icon"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Icon", "property": "texture", "value": "res://icon.png"})
	got := read(t, dir, pong)
	if !strings.Contains(got, `[ext_resource type="Texture2D" uid="uid://btest1234567" path="res://icon.png" id=`) {
		t.Fatalf("texture not declared as Godot does:\n%s", got)
	}
	plugintest.Call(t, h, "attach_script", map[string]any{"node_path": "Icon", "script_path": "res://logic/extra.gd"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Icon", "property": "speed", "value": 3})
	got = read(t, dir, pong)
	if !strings.Contains(got, "script = ExtResource(") || !strings.Contains(got, "speed = 3.0") {
		t.Fatalf("script variable not set as float:\n%s", got)
	}
	roundTrips(t, pong, got)
	refused(t, h, "attach_script", map[string]any{"node_path": "Icon", "script_path": "res://logic/none.gd"}, sdk.CodeNotFound)
	// null clears the texture, and its ext_resource goes with it.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Icon", "property": "texture", "value": nil})
	if strings.Contains(read(t, dir, pong), "res://icon.png") {
		t.Fatal("clearing the texture must drop its unused ext_resource")
	}
}

func TestRefusals(t *testing.T) {
	dir := fixture(t, "2d-finite_state_machine")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": "res://Demo.tscn"})
	refused(t, h, "delete_node", map[string]any{"node_path": "."}, sdk.CodeInvalidArgument)
	refused(t, h, "move_node", map[string]any{"node_path": ".", "new_parent_path": "Player"}, sdk.CodeInvalidArgument)
	text := refused(t, h, "move_node", map[string]any{"node_path": "Player", "new_parent_path": "Player/StateMachine"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "descendant") {
		t.Fatalf("move into a descendant: %s", text)
	}
	// Demo.tscn overrides nodes inside the instanced Player (editable children).
	text = refused(t, h, "rename_node", map[string]any{"node_path": "Player/StateMachine", "new_name": "X"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "Required: node_path") || !strings.Contains(text, "Player.tscn") {
		t.Fatalf("rename of an instanced child: %s", text)
	}
	// The fix names the edit that was refused, not a rename.
	text = refused(t, h, "delete_node", map[string]any{"node_path": "Player/StateMachine"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "cannot be deleted") || !strings.Contains(text, "delete it in res://") {
		t.Fatalf("delete of an instanced child: %s", text)
	}
}

func TestConnectSignalIdempotent(t *testing.T) {
	dir, h := openPong(t)
	before := read(t, dir, pong)
	out := plugintest.Call(t, h, "connect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": "Left", "method_name": "_on_area_entered"})
	if out["already_connected"] != true || read(t, dir, pong) != before {
		t.Fatalf("existing connection: %v", out)
	}
	if n := h.Workspace().History().Depth; n != 0 {
		t.Fatalf("an idempotent no-op must not add an undo step, got %d", n)
	}
	text := refused(t, h, "connect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entred", "target_path": "Left", "method_name": "_on_area_entered"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "area_entered") {
		t.Fatalf("unknown signal: %s", text)
	}
	// Group answers are the reference's GroupResult (in_group, changed),
	// with added/removed kept.
	group := func(tool, g string, inGroup, changed bool) {
		t.Helper()
		op := map[string]string{"add_to_group": "added", "remove_from_group": "removed"}[tool]
		out := plugintest.Call(t, h, tool, map[string]any{"node_path": "/root/Left", "group": g})
		if out["node_path"] != "Left" || out["group"] != g || out["in_group"] != inGroup || out["changed"] != changed || out[op] != changed {
			t.Fatalf("%s %s: %v", tool, g, out)
		}
	}
	group("add_to_group", "paddles", true, true)
	group("add_to_group", "paddles", true, false)
	group("remove_from_group", "nope", false, false)
	group("remove_from_group", "paddles", false, true)
	group("add_to_group", "paddles", true, true)
	out = plugintest.Call(t, h, "list_signal_connections", map[string]any{"node_path": "Left"})
	if c, _ := out["connections"].([]any); len(c) != 1 {
		t.Fatalf("connections of Left: %v", out)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir, h := openPong(t)
	before := read(t, dir, pong)
	args := map[string]any{"node_path": "Ball", "new_parent_path": "Left", "index": 0}
	dry := plugintest.Call(t, h, "move_node", args, sdktest.DryRun())
	if dry["dry_run"] != true || read(t, dir, pong) != before || !strings.Contains(dry["diff"].(string), "parent=\"Left\"") {
		t.Fatalf("dry run: %v", dry)
	}
	real := plugintest.Call(t, h, "move_node", args)
	if real["persisted"] != dry["persisted"] || real["node_path"] != dry["node_path"] || real["node_path"] != "Left/Ball" {
		t.Fatalf("dry run %v and real run %v disagree", dry, real)
	}
	got := read(t, dir, pong)
	roundTrips(t, pong, got)
	if strings.Index(got, `[node name="Ball"`) > strings.Index(got, `[node name="Sprite2D" type="Sprite2D" parent="Left"`) {
		t.Fatal("index 0 must put Ball before Left's first child")
	}
	undo(t, h)
	if read(t, dir, pong) != before {
		t.Fatal("undo did not restore the exact bytes")
	}
}

func TestCreateSceneAndSave(t *testing.T) {
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	out := plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://levels/level_1.tscn", "root_type": "Node2D"})
	if out["created"] != true {
		t.Fatal(out)
	}
	got := read(t, dir, "res://levels/level_1.tscn")
	if !strings.HasPrefix(got, "[gd_scene format=3 uid=\"uid://") || !strings.Contains(got, "\n\n[node name=\"level_1\" type=\"Node2D\" unique_id=") {
		t.Fatalf("new scene:\n%s", got)
	}
	roundTrips(t, "level_1.tscn", got)
	refused(t, h, "create_scene", map[string]any{"scene_path": "res://levels/level_1.tscn", "root_type": "Node2D"}, sdk.CodeInvalidArgument)
	out = plugintest.Call(t, h, "list_open_scenes", nil)
	if out["active"] != "res://levels/level_1.tscn" {
		t.Fatal(out)
	}
	out = plugintest.Call(t, h, "save_scene", nil)
	if out["saved"] != true || out["pending_changes"] != false {
		t.Fatal(out)
	}
	plugintest.Call(t, h, "close_scene", nil)
	refused(t, h, "save_scene", nil, sdk.CodePreconditionFailed)
}

func TestExtractScene(t *testing.T) {
	dir, h := openPong(t)
	before := read(t, dir, pong)
	out := plugintest.Call(t, h, "extract_scene", map[string]any{"node_path": "Left", "scene_path": "res://paddle.tscn", "replace_with_instance": true})
	if out["extracted"] != true || out["instance_path"] != "Left" || out["node_count"] != 3.0 {
		t.Fatal(out)
	}
	paddle, main := read(t, dir, "res://paddle.tscn"), read(t, dir, pong)
	roundTrips(t, "paddle.tscn", paddle)
	roundTrips(t, pong, main)
	for _, want := range []string{`path="res://logic/paddle.gd"`, `[sub_resource type="RectangleShape2D"`, "size = Vector2(8, 32)", `[node name="Sprite2D" type="Sprite2D" parent="."`, `[connection signal="area_entered" from="." to="." method="_on_area_entered"]`} {
		if !strings.Contains(paddle, want) {
			t.Fatalf("paddle.tscn lacks %s:\n%s", want, paddle)
		}
	}
	if !strings.Contains(main, `[node name="Left" parent="." unique_id=`) || !strings.Contains(main, `path="res://paddle.tscn"`) {
		t.Fatalf("pong.tscn not replaced by an instance:\n%s", main)
	}
	// One action for both files.
	undo(t, h)
	if read(t, dir, pong) != before {
		t.Fatal("undo did not restore pong.tscn")
	}
}

// A 3D node's position is saved as the origin of its transform.
func TestNode3DPositionIsTransformOrigin(t *testing.T) {
	dir := fixture(t, "3d-csg")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": "res://csg.tscn"})
	before := read(t, dir, "res://csg.tscn")
	out := plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "CameraHolder/RotationX", "property": "position", "value": []any{1, 2, 3}})
	if out["saved_as"] != "transform" || out["property"] != "position" {
		t.Fatal(out)
	}
	added, removed := diffLines(before, read(t, dir, "res://csg.tscn"))
	if len(added) != 1 || added[0] != "transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)" || len(removed) != 0 {
		t.Fatalf("+%q -%q", added, removed)
	}
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "CameraHolder/RotationX", "property": "position", "value": []any{0, 0, 0}})
	if read(t, dir, "res://csg.tscn") != before {
		t.Fatal("the identity transform must be removed again")
	}
}

// Edits on the File kept from the previous call must write exactly what
// edits on a fresh parse of the file write.
func TestKeptFileEqualsFreshParse(t *testing.T) {
	session := func() string {
		dir, h := openPong(t)
		plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Group"})
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Group", "property": "position", "value": []any{3, 4}})
		plugintest.Call(t, h, "move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Group"})
		plugintest.Call(t, h, "rename_node", map[string]any{"node_path": "Group/Ball", "new_name": "Puck"})
		plugintest.Call(t, h, "duplicate_node", map[string]any{"node_path": "Group/Puck"})
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Group/Puck2", "property": "position", "value": []any{0, 0}})
		plugintest.Call(t, h, "add_to_group", map[string]any{"node_path": "Group", "group": "g"})
		plugintest.Call(t, h, "delete_node", map[string]any{"node_path": "Separator"})
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": []any{1, 1}}, sdktest.DryRun())
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Right", "property": "rotation", "value": 1.5})
		return read(t, dir, pong)
	}
	kept := session()
	cacheParsed = false
	defer func() { cacheParsed = true }()
	if fresh := session(); kept != fresh {
		t.Fatalf("kept File wrote\n%s\nfresh parses wrote\n%s", kept, fresh)
	}
}

// The class of an instance, and of a node inside one, is read from the
// instanced scene's file.
func TestInstancedClasses(t *testing.T) {
	dir := fixture(t, "2d-finite_state_machine")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": "res://Demo.tscn"})
	// Player instances player/Player.tscn, whose root is a CharacterBody2D.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Player", "property": "floor_max_angle", "value": 1})
	if !strings.Contains(read(t, dir, "res://Demo.tscn"), "floor_max_angle = 1.0") {
		t.Fatal("instance root class not resolved")
	}
	// Player/StateMachine is a Node there: process_mode exists, position does not.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Player/StateMachine", "property": "process_mode", "value": 3})
	text := refused(t, h, "set_node_property", map[string]any{"node_path": "Player/StateMachine", "property": "position", "value": []any{1, 2}}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "(Node)") {
		t.Fatalf("want the class Node named, got %s", text)
	}
	roundTrips(t, "Demo.tscn", read(t, dir, "res://Demo.tscn"))
}

// Theme overrides, which the class database does not list, are typed by
// their group and written after the Control's own properties.
func TestThemeOverride(t *testing.T) {
	dir, h := openPong(t)
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Label", "node_name": "Score"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "text", "value": "0"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "theme_override_font_sizes/font_size", "value": 32})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "offset_right", "value": 40})
	want := "offset_right = 40.0\ntheme_override_font_sizes/font_size = 32\ntext = \"0\"\n"
	if got := read(t, dir, pong); !strings.Contains(got, want) {
		t.Fatalf("want\n%s\nin\n%s", want, got)
	}
	refused(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "theme_override_colors/font_color", "value": "reddish"}, sdk.CodeInvalidArgument)
	// Godot's colour names are colours (Color.named), as in the editor.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "theme_override_colors/font_color", "value": "red"})
	if got := read(t, dir, pong); !strings.Contains(got, "theme_override_colors/font_color = Color(1, 0, 0, 1)") {
		t.Errorf("named colour not written:\n%s", got)
	}
}

// A vector value with the wrong number of components is refused, naming
// the property, the value and the shapes accepted: never cut to fit.
func TestWrongArityRefused(t *testing.T) {
	dir, h := openPong(t)
	before := read(t, dir, pong)
	text := refused(t, h, "set_node_property", map[string]any{"node_path": ".", "property": "position", "value": []any{1, 2, 3}}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, `Setting 'position' failed: [1,2,3] is not a Vector2 (3 numbers; a Vector2 has 2)`) ||
		!strings.Contains(text, `Hint: pass {"x":…,"y":…}, [x, y] or "Vector2(x, y)"`) {
		t.Errorf("error:\n%s", text)
	}
	if read(t, dir, pong) != before {
		t.Error("a refused value changed the scene")
	}
}

// set_node_property echoes numeric packed arrays as lists and dictionaries
// as objects (contract §4.1), the shapes inspection's get_node_property
// reads them in, not Godot's text form.
func TestSetNodePropertyEchoesListsAndObjects(t *testing.T) {
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://hud.tscn", "root_type": "Control"})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Label", "node_name": "Score"})
	out := plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "tab_stops", "value": []any{10, 20.5}})
	if v, ok := out["value"].([]any); !ok || len(v) != 2 || v[0] != 10.0 || v[1] != 20.5 {
		t.Fatalf("PackedFloat32Array echo = %#v, want [10 20.5]", out["value"])
	}
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "CodeEdit", "node_name": "Code"})
	out = plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Code", "property": "auto_brace_completion_pairs", "value": map[string]any{"(": ")"}})
	if v, ok := out["value"].(map[string]any); !ok || len(v) != 1 || v["("] != ")" {
		t.Fatalf("Dictionary echo = %#v, want {\"(\": \")\"}", out["value"])
	}
	got := read(t, dir, "res://hud.tscn")
	for _, line := range []string{"tab_stops = PackedFloat32Array(10, 20.5)", "auto_brace_completion_pairs = {\n\"(\": \")\"\n}"} {
		if !strings.Contains(got, line) {
			t.Errorf("file lacks %q:\n%s", line, got)
		}
	}
	roundTrips(t, "res://hud.tscn", got)
}

// A refused class names the project's Godot version, not the class
// database's.
func TestRefusalNamesTheProjectsGodot(t *testing.T) {
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: fixture(t, "2d-pong"), GodotVersion: "4.4", Workspace: workspace.Options{}})
	text := refused(t, h, "create_scene", map[string]any{"scene_path": "res://new.tscn", "root_type": "Spatial"}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "not an engine class in Godot 4.4: Spatial is the Godot 3 name; in Godot 4 it is Node3D") {
		t.Fatalf("want Godot 4.4 and the Godot 4 name, got %s", text)
	}
}
