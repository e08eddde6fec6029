package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

const project46 = "config_version=5\n\n[application]\n\nconfig/name=\"t\"\nconfig/features=PackedStringArray(\"4.6\")\n"

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func editorHost(t *testing.T) (*sdktest.Host, *sdktest.Editor) {
	ed := sdktest.NewEditor()
	for _, c := range []string{"cmd_create_particles", "cmd_set_particle_material", "cmd_set_particle_color_gradient", "cmd_apply_particle_preset",
		"cmd_get_particle_material", "cmd_set_node_property"} {
		ed.Result(c, map[string]any{"ok": c})
	}
	ed.Result("cmd_open_scene", map[string]any{"opened": true})
	ed.Result("cmd_create_node", map[string]any{"node_path": "Rain"})
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: plugintest.Project(t, map[string]string{"project.godot": project46}), GodotVersion: "4.6", Editor: ed.Serve}), ed
}

// Editor mode: the addon's commands with exactly the reference server's
// params; scene_path opens its tab first.
func TestEditorModeSendsTheAddonsCommands(t *testing.T) {
	h, ed := editorHost(t)
	cases := []struct {
		tool, cmd string
		args      map[string]any
		want      string
	}{
		{"create", "cmd_create_particles", map[string]any{"parent_path": "."}, `{"amount":8,"lifetime":1,"name":"GPUParticles2D","parent_path":".","particles_type":"GPUParticles2D","properties":{}}`},
		{"create", "cmd_create_particles", map[string]any{"parent_path": "Fx", "particles_type": "GPUParticles3D", "name": "Boom", "amount": 0, "lifetime": 2.5, "scene_path": "res://w.tscn", "properties": map[string]any{"one_shot": true}},
			`{"amount":1,"lifetime":2.5,"name":"Boom","parent_path":"Fx","particles_type":"GPUParticles3D","properties":{"one_shot":true}}`},
		{"set_material", "cmd_set_particle_material", map[string]any{"node_path": "Fire", "properties": map[string]any{"spread": 30, "emission_shape": "EMISSION_SHAPE_SPHERE"}},
			`{"node_path":"Fire","properties":{"emission_shape":1,"spread":30}}`},
		{"set_color_gradient", "cmd_set_particle_color_gradient", map[string]any{"node_path": "Fire", "colors": []any{"#ffffff", []any{1, 0, 0, 0}}},
			`{"colors":["#ffffff",[1,0,0,0]],"node_path":"Fire"}`},
		{"set_color_gradient", "cmd_set_particle_color_gradient", map[string]any{"node_path": "Fire", "colors": []any{"#ffffff", "#000000"}, "offsets": []float64{0.2, 0.9}},
			`{"colors":["#ffffff","#000000"],"node_path":"Fire","offsets":[0.2,0.9]}`},
		{"apply_preset", "cmd_apply_particle_preset", map[string]any{"node_path": "Fire", "preset": "fire"}, `{"node_path":"Fire","preset":"fire"}`},
		{"get_material", "cmd_get_particle_material", map[string]any{"node_path": "Fire"}, `{"node_path":"Fire"}`},
	}
	for _, c := range cases {
		before := len(ed.Calls(c.cmd))
		out := plugintest.Call(t, h, c.tool, c.args)
		if out["ok"] != c.cmd {
			t.Errorf("%s: result %v not passed through", c.tool, out)
		}
		calls := ed.Calls(c.cmd)
		if len(calls) != before+1 {
			t.Fatalf("%s: %d calls of %s", c.tool, len(calls)-before, c.cmd)
		}
		if got := jsonOf(calls[len(calls)-1].Params); got != c.want {
			t.Errorf("%s sent %s\nwant %s", c.cmd, got, c.want)
		}
	}
	if o := ed.Calls("cmd_open_scene"); len(o) != 1 || o[0].Params["scene_path"] != "res://w.tscn" {
		t.Errorf("cmd_open_scene calls: %v", o)
	}
}

// A CPUParticles node and a preset the addon does not know are built from
// the addon's generic commands.
func TestEditorModeCPUParticlesAndOurPresets(t *testing.T) {
	h, ed := editorHost(t)
	plugintest.Call(t, h, "create", map[string]any{"parent_path": ".", "particles_type": "CPUParticles2D", "name": "Rain", "amount": 100})
	plugintest.Call(t, h, "apply_preset", map[string]any{"node_path": "Rain", "preset": "rain"})
	var got []string
	for _, c := range ed.Calls() {
		got = append(got, c.Command+" "+jsonOf(c.Params))
	}
	want := []string{
		`cmd_create_node {"name":"Rain","node_type":"CPUParticles2D","parent_path":"."}`,
		`cmd_set_node_property {"node_path":"Rain","property":"amount","value":100}`,
		`cmd_set_node_property {"node_path":"Rain","property":"lifetime","value":1}`,
		`cmd_set_particle_material {"node_path":"Rain","properties":{"color":"#aaccff","direction":[0,1,0],"emission_box_extents":[320,1,1],"emission_shape":3,"gravity":[0,400,0],"initial_velocity_max":400,"initial_velocity_min":300,"scale_max":1,"scale_min":0.5,"spread":3}}`,
		`cmd_set_particle_color_gradient {"colors":["#aaccffcc","#aaccff66"],"node_path":"Rain"}`,
		`cmd_set_node_property {"node_path":"Rain","property":"amount","value":200}`,
		`cmd_set_node_property {"node_path":"Rain","property":"lifetime","value":1.2}`,
		`cmd_set_node_property {"node_path":"Rain","property":"explosiveness","value":0}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRefusals(t *testing.T) {
	h, ed := editorHost(t)
	plugintest.Refused(t, h, "create", map[string]any{"parent_path": ".", "particles_type": "Sprite2D"}, sdk.CodeInvalidArgument, "GPUParticles2D")
	plugintest.Refused(t, h, "set_material", map[string]any{"node_path": "F", "properties": map[string]any{"speed": 3}}, sdk.CodeInvalidArgument, "properties")
	plugintest.Refused(t, h, "set_color_gradient", map[string]any{"node_path": "F", "colors": []any{}}, sdk.CodeInvalidArgument, "colour")
	plugintest.Refused(t, h, "set_color_gradient", map[string]any{"node_path": "F", "colors": []any{"#fff"}, "offsets": []float64{0, 1}}, sdk.CodeInvalidArgument, "one offset per")
	plugintest.Refused(t, h, "apply_preset", map[string]any{"node_path": "F", "preset": "lava"}, sdk.CodeInvalidArgument, "fire, smoke")
	if c := ed.Calls(); len(c) != 0 {
		t.Errorf("refused calls sent %v", c)
	}
}

// Every mutating tool previews in both modes and writes or sends nothing.
func TestDryRunsInBothModes(t *testing.T) {
	calls := map[string]any{
		"create":             map[string]any{"scene_path": "res://main.tscn", "parent_path": ".", "particles_type": "GPUParticles3D"},
		"set_material":       map[string]any{"scene_path": "res://main.tscn", "node_path": "Fx", "properties": map[string]any{"spread": 10}},
		"set_color_gradient": map[string]any{"scene_path": "res://main.tscn", "node_path": "Fx", "colors": []any{"#ff0000", "#0000ff"}},
		"apply_preset":       map[string]any{"scene_path": "res://main.tscn", "node_path": "Fx", "preset": "smoke"},
	}
	dir := plugintest.Project(t, map[string]string{"project.godot": project46,
		"main.tscn": "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node3D\"]\n\n[node name=\"Fx\" type=\"GPUParticles3D\" parent=\".\"]\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig := read(t, filepath.Join(dir, "main.tscn"))
	for tool, args := range calls {
		out := plugintest.DryRunIn(t, h, sdk.ModeHeadless, tool, args)
		if files := out["preview"].(map[string]any)["files"].([]any); len(files) == 0 {
			t.Errorf("%s: headless preview lists no file", tool)
		}
	}
	if read(t, filepath.Join(dir, "main.tscn")) != orig {
		t.Error("a headless dry run wrote the scene")
	}
	he, ed := editorHost(t)
	plugintest.EditorDryRuns(t, he, ed, calls)
}
