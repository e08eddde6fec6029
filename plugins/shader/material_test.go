package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

const paramShader = `shader_type canvas_item;
uniform float f : hint_range(0.0, 2.0) = 0.5;
uniform vec4 c : source_color;
uniform vec3 v3;
uniform int n = 2;
uniform sampler2D tex : filter_nearest;
void fragment() {
	COLOR = c * f + vec4(v3, float(n)) + texture(tex, UV);
}
`

const paramScene = `[gd_scene format=3 uid="uid://b0shadertest1"]

[node name="Root" type="Node"]

[node name="S" type="Sprite2D" parent="."]

[node name="M" type="MeshInstance3D" parent="."]

[node name="Plain" type="Node" parent="."]
`

func paramProject(t *testing.T) (string, *sdktest.Host) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot":  project,
		"s.gdshader":     paramShader,
		"s.gdshader.uid": "uid://cq0shaderuid1\n",
		"main.tscn":      paramScene,
		"noise.tres":     "[gd_resource type=\"NoiseTexture2D\" format=3]\n\n[resource]\nwidth = 8\nheight = 8\n",
	})
	return dir, sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A material assigned and parameters set over MCP are written as the
// editor writes them (ext_resource for the shader, the material inline or
// in its own .tres, shader_parameter/name in the uniforms' order), and
// the engine, loading the scene, reads back the values that were set.
func TestParametersSetAreWhatTheEngineReads(t *testing.T) {
	dir, h := paramProject(t)
	scene := map[string]any{"scene": "res://main.tscn"}
	with := func(kv ...any) map[string]any {
		m := map[string]any{"scene": scene["scene"]}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	a := plugintest.CallAs[assignResult](t, h, "assign_material", with("node_path", "S", "shader_path", "res://s.gdshader"))
	if a.MaterialProperty != "material" || !a.Assigned {
		t.Errorf("assign S: %+v", a)
	}
	a = plugintest.CallAs[assignResult](t, h, "assign_material", with("node_path", "M", "shader_path", "s.gdshader", "material_path", "res://m.tres"))
	if a.MaterialProperty != "material_override" || a.MaterialPath != "res://m.tres" {
		t.Errorf("assign M: %+v", a)
	}
	for _, c := range []map[string]any{
		with("node_path", "S", "name", "v3", "value", []any{1, 2, 3}),
		with("node_path", "S", "name", "f", "value", 1.5, "param_type", "float"),
		with("node_path", "S", "name", "c", "value", "#ff0000"),
		with("node_path", "S", "name", "tex", "value", "res://noise.tres"),
		with("node_path", "M", "name", "n", "value", 7),
		with("node_path", "M", "name", "f", "value", 0.25),
	} {
		plugintest.Must(t, h, "set_param", c)
	}
	got := read(t, dir, "main.tscn")
	wantScene := `[gd_scene format=3 uid="uid://b0shadertest1"]

[ext_resource type="Shader" uid="uid://cq0shaderuid1" path="res://s.gdshader" id="1_`
	if !strings.HasPrefix(got, wantScene) {
		t.Errorf("scene:\n%s", got)
	}
	for _, want := range []string{
		"\n[sub_resource type=\"ShaderMaterial\" id=\"ShaderMaterial_",
		"\"]\nrender_priority = 0\nshader = ExtResource(\"1_",
		"\")\nshader_parameter/f = 1.5\nshader_parameter/c = Color(1, 0, 0, 1)\nshader_parameter/v3 = Vector3(1, 2, 3)\nshader_parameter/tex = ExtResource(\"",
		"[node name=\"S\" type=\"Sprite2D\" parent=\".\"]\nmaterial = SubResource(\"ShaderMaterial_",
		"[node name=\"M\" type=\"MeshInstance3D\" parent=\".\"]\nmaterial_override = ExtResource(\"",
		"[ext_resource type=\"NoiseTexture2D\" path=\"res://noise.tres\" id=\"",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("scene lacks %q:\n%s", want, got)
		}
	}
	mat := read(t, dir, "m.tres")
	if !strings.HasPrefix(mat, "[gd_resource type=\"ShaderMaterial\" format=3 uid=\"uid://") ||
		!strings.Contains(mat, "[ext_resource type=\"Shader\" uid=\"uid://cq0shaderuid1\" path=\"res://s.gdshader\" id=\"1_") ||
		!strings.Contains(mat, "\")\nshader_parameter/f = 0.25\nshader_parameter/n = 7\n") {
		t.Errorf("m.tres:\n%s", mat)
	}

	g := plugintest.CallAs[paramResult](t, h, "get_param", with("node_path", "S", "name", "c"))
	if !g.Exists || !g.Stored || g.Text != "Color(1, 0, 0, 1)" || g.GodotType != "Color" {
		t.Errorf("get c: %+v", g)
	}
	g = plugintest.CallAs[paramResult](t, h, "get_param", with("node_path", "S", "name", "n"))
	if !g.Exists || g.Stored || g.Default != "2" || g.Value != nil {
		t.Errorf("get n: %+v", g)
	}
	g = plugintest.CallAs[paramResult](t, h, "get_param", with("node_path", "S", "name", "nope"))
	if g.Exists {
		t.Errorf("get nope: %+v", g)
	}

	// The engine loads the scene and reads the parameters.
	requireEngine(t)
	files := webgodot.ScriptProject(`extends Node
func _ready():
	var root = load("res://main.tscn").instantiate()
	for p in ["f", "c", "v3", "n"]:
		print("S.", p, "=", var_to_str(root.get_node("S").material.get_shader_parameter(p)))
	for p in ["f", "n"]:
		print("M.", p, "=", var_to_str(root.get_node("M").material_override.get_shader_parameter(p)))
	print("tex=", root.get_node("S").material.get_shader_parameter("tex") is NoiseTexture2D)
	get_tree().quit()
`)
	for _, f := range []string{"s.gdshader", "main.tscn", "m.tres", "noise.tres"} {
		files = append(files, webgodot.PackFile{Path: f, Data: []byte(read(t, dir, f))})
	}
	r := enginecheck.Runner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(res.Stdout(), "\n")
	for _, want := range []string{"S.f=1.5", "S.c=Color(1, 0, 0, 1)", "S.v3=Vector3(1, 2, 3)", "S.n=null", "M.f=0.25", "M.n=7", "tex=true"} {
		if !strings.Contains(out, want) {
			t.Errorf("the engine read %q, want %s (stderr %v)", out, want, res.Stderr())
		}
	}
}

// Bad calls are refused with the fix, and change nothing.
func TestParamErrors(t *testing.T) {
	dir, h := paramProject(t)
	plugintest.Must(t, h, "assign_material", map[string]any{"node_path": "S", "shader_path": "res://s.gdshader", "scene": "res://main.tscn"})
	before := read(t, dir, "main.tscn")
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"set_param", map[string]any{"node_path": "S", "name": "nope", "value": 1}, sdk.CodeInvalidArgument, "its uniforms are f, c, v3, n, tex"},
		{"set_param", map[string]any{"node_path": "S", "name": "f", "value": "abc"}, sdk.CodeInvalidArgument, "float"},
		{"set_param", map[string]any{"node_path": "S", "name": "f", "value": 1, "param_type": "color"}, sdk.CodeInvalidArgument, "declared float"},
		{"set_param", map[string]any{"node_path": "S", "name": "tex", "value": "res://missing.png"}, sdk.CodeNotFound, "missing.png"},
		{"set_param", map[string]any{"node_path": "M", "name": "f", "value": 1}, sdk.CodePreconditionFailed, "assign one first"},
		{"assign_material", map[string]any{"node_path": "Plain", "shader_path": "res://s.gdshader"}, sdk.CodeInvalidArgument, "no material slot"},
		{"assign_material", map[string]any{"node_path": "S", "shader_path": "res://none.gdshader"}, sdk.CodeNotFound, ""},
		{"create", map[string]any{"shader_path": "res://x.gdshader", "shader_type": "compute"}, sdk.CodeInvalidArgument, "spatial, canvas_item"},
		{"create", map[string]any{"shader_path": "res://x.txt"}, sdk.CodeInvalidArgument, ".gdshader"},
		{"validate", map[string]any{}, sdk.CodeInvalidArgument, "shader_path"},
	} {
		args := c.args
		if _, ok := args["scene"]; !ok && c.tool != "create" && c.tool != "validate" {
			args["scene"] = "res://main.tscn"
		}
		plugintest.Refused(t, h, c.tool, args, c.code, c.text)
	}
	if read(t, dir, "main.tscn") != before {
		t.Error("a refused call changed the scene")
	}
	// A dry run previews and writes nothing.
	res := plugintest.Must(t, h, "set_param", map[string]any{"node_path": "S", "name": "f", "value": 2, "scene": "res://main.tscn"}, sdktest.DryRun())
	if !strings.Contains(res.Text(), "shader_parameter/f = 2.0") || read(t, dir, "main.tscn") != before {
		t.Errorf("dry run: %s", res.Text())
	}
	plugintest.Must(t, h, "create", map[string]any{"shader_path": "res://new.gdshader"}, sdktest.DryRun())
	if _, err := os.Stat(filepath.Join(dir, "new.gdshader")); err == nil {
		t.Error("a dry run created the shader")
	}
}

// Editor mode: each tool sends the addon's command with the reference's
// params; a scene argument opens that scene first.
func TestEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_create_shader", map[string]any{"shader_path": "res://a.gdshader", "created": true}).
		Result("cmd_read_shader", map[string]any{"shader_path": "res://a.gdshader", "code": "shader_type spatial;\nuniform float x;\n"}).
		Result("cmd_open_scene", map[string]any{"scene_path": "res://main.tscn", "opened": true}).
		Result("cmd_assign_shader_material", map[string]any{"node_path": "S", "shader_path": "res://a.gdshader", "material_property": "material", "assigned": true}).
		Result("cmd_set_shader_param", map[string]any{"node_path": "S", "name": "x", "value": 1.0, "set": true}).
		Result("cmd_get_shader_param", map[string]any{"node_path": "S", "name": "x", "value": 1.0, "exists": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	plugintest.Must(t, h, "create", map[string]any{"shader_path": "res://a.gdshader", "shader_type": "sky"})
	r := plugintest.CallAs[readResult](t, h, "read", map[string]any{"shader_path": "res://a.gdshader"})
	if r.ShaderType != "spatial" || len(r.Uniforms) != 1 {
		t.Errorf("read: %+v", r)
	}
	plugintest.Must(t, h, "assign_material", map[string]any{"node_path": "S", "shader_path": "res://a.gdshader", "scene": "res://main.tscn"})
	plugintest.Must(t, h, "set_param", map[string]any{"node_path": "S", "name": "x", "value": 1})
	plugintest.Must(t, h, "get_param", map[string]any{"node_path": "S", "name": "x"})
	// The addon cannot save the material as a .tres: the refusal says
	// what to do instead, and nothing reaches the editor.
	res := plugintest.Refused(t, h, "assign_material", map[string]any{"node_path": "S", "shader_path": "res://a.gdshader", "material_path": "res://m.tres", "scene": "res://main.tscn"},
		sdk.CodePreconditionFailed, "material_path is not supported")
	for _, want := range []string{"Required: headless", "leave out material_path", "godot_scene_edit_set_node_property", "no editor attached"} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("the refusal of material_path lacks %q: %s", want, res.Text())
		}
	}
	want := []sdktest.EditorCall{
		{Command: "cmd_create_shader", Params: map[string]any{"shader_path": "res://a.gdshader", "code": templates["sky"]}},
		{Command: "cmd_read_shader", Params: map[string]any{"shader_path": "res://a.gdshader"}},
		{Command: "cmd_open_scene", Params: map[string]any{"scene_path": "res://main.tscn"}},
		{Command: "cmd_assign_shader_material", Params: map[string]any{"node_path": "S", "shader_path": "res://a.gdshader"}},
		{Command: "cmd_set_shader_param", Params: map[string]any{"node_path": "S", "name": "x", "value": 1.0, "param_type": ""}},
		{Command: "cmd_get_shader_param", Params: map[string]any{"node_path": "S", "name": "x"}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !plugintest.SameParams(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
}

// Editor mode: dry runs send no mutating command.
func TestEditorDryRunsSendNothing(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"create":          map[string]any{"shader_path": "res://a.gdshader"},
		"assign_material": map[string]any{"node_path": "S", "shader_path": "res://a.gdshader"},
		"set_param":       map[string]any{"node_path": "S", "name": "x", "value": 1},
	})
}
