package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// editorHost is a host with a scripted editor answering every command of
// the toolset with {"ok": <command>} and cmd_create_node with the new
// node's path.
func editorHost(t *testing.T) (*sdktest.Host, *sdktest.Editor) {
	ed := sdktest.NewEditor()
	for _, c := range []string{"cmd_add_mesh_instance", "cmd_setup_camera", "cmd_setup_lighting", "cmd_setup_environment", "cmd_gridmap_set_cell",
		"cmd_gridmap_get_cell", "cmd_create_mesh_library", "cmd_add_mesh_library_item", "cmd_set_node_property"} {
		ed.Result(c, map[string]any{"ok": c})
	}
	ed.Result("cmd_open_scene", map[string]any{"opened": true})
	ed.Result("cmd_create_node", map[string]any{"node_path": "World/Ship"})
	dir := plugintest.Project(t, map[string]string{"project.godot": project46, "res://ship.tres": "[gd_resource type=\"ArrayMesh\" format=3]\n\n[resource]\n",
		"res://red.tres": "[gd_resource type=\"StandardMaterial3D\" format=3]\n\n[resource]\nalbedo_color = Color(1, 0, 0, 1)\n",
		"res://lib.tres": "[gd_resource type=\"MeshLibrary\" format=3]\n\n[resource]\n"})
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve}), ed
}

// Editor mode: each tool sends the addon's command with exactly the
// params the reference server sends (enum names turned into numbers, which
// the addon's converter needs); scene_path opens its tab first and is not
// forwarded.
func TestEditorModeSendsTheAddonsCommands(t *testing.T) {
	h, ed := editorHost(t)
	cases := []struct {
		tool, cmd string
		args      map[string]any
		want      string
	}{
		{"add_mesh_instance", "cmd_add_mesh_instance", map[string]any{"parent_path": "World", "mesh_type": "SphereMesh", "properties": map[string]any{"radius": 2}},
			`{"mesh_type":"SphereMesh","name":"MeshInstance3D","parent_path":"World","properties":{"radius":2}}`},
		{"add_mesh_instance", "cmd_add_mesh_instance", map[string]any{"parent_path": ""}, `{"mesh_type":"BoxMesh","name":"MeshInstance3D","parent_path":".","properties":{}}`},
		{"setup_camera", "cmd_setup_camera", map[string]any{"parent_path": ".", "scene_path": "res://w.tscn", "properties": map[string]any{"fov": 50}},
			`{"make_current":true,"name":"Camera3D","parent_path":".","properties":{"fov":50}}`},
		{"setup_lighting", "cmd_setup_lighting", map[string]any{"parent_path": ".", "light_type": "spot", "shadows": true, "properties": map[string]any{"spot_angle": 30}},
			`{"light_type":"SpotLight3D","name":"SpotLight3D","parent_path":".","properties":{"shadow_enabled":true,"spot_angle":30}}`},
		{"setup_environment", "cmd_setup_environment", map[string]any{"parent_path": ".", "properties": map[string]any{"background_mode": "BG_COLOR", "tonemap_mode": 3, "glow_enabled": true}},
			`{"name":"WorldEnvironment","parent_path":".","properties":{"background_mode":1,"glow_enabled":true,"tonemap_mode":3}}`},
		{"gridmap_set_cell", "cmd_gridmap_set_cell", map[string]any{"node_path": "Grid", "position": []int{1, -2, 3}, "item": 4, "orientation": 16},
			`{"item":4,"node_path":"Grid","orientation":16,"position":[1,-2,3]}`},
		{"gridmap_get_cell", "cmd_gridmap_get_cell", map[string]any{"node_path": "Grid", "position": []int{0, 0, 0}}, `{"node_path":"Grid","position":[0,0,0]}`},
		{"create_mesh_library", "cmd_create_mesh_library", map[string]any{"node_path": "Grid"}, `{"node_path":"Grid","save_path":""}`},
		{"add_mesh_library_item", "cmd_add_mesh_library_item", map[string]any{"node_path": "Grid", "mesh_type": "BoxMesh", "name": "Block", "properties": map[string]any{"size": []int{1, 2, 1}}},
			`{"item_id":null,"library_path":"","mesh_path":"","mesh_type":"BoxMesh","name":"Block","node_path":"Grid","properties":{"size":[1,2,1]}}`},
		{"add_mesh_library_item", "cmd_add_mesh_library_item", map[string]any{"library_path": "res://lib.tres", "mesh_path": "res://ship.tres", "item_id": 7},
			`{"item_id":7,"library_path":"res://lib.tres","mesh_path":"res://ship.tres","mesh_type":"","name":"","node_path":"","properties":{}}`},
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

// A mesh resource and a material by path: the node, then its mesh and
// material_override set by path, as the addon loads paths there.
func TestEditorModeMeshResourceAndMaterial(t *testing.T) {
	h, ed := editorHost(t)
	out := plugintest.Call(t, h, "add_mesh_instance", map[string]any{"parent_path": "World", "name": "Ship", "mesh_path": "res://ship.tres",
		"material_path": "res://red.tres", "node_properties": map[string]any{"position": []int{0, 1, 0}}})
	if out["node_path"] != "World/Ship" || out["mesh_path"] != "res://ship.tres" {
		t.Errorf("answer %v", out)
	}
	var got []string
	for _, c := range ed.Calls() {
		got = append(got, c.Command+" "+jsonOf(c.Params))
	}
	want := []string{
		`cmd_create_node {"name":"Ship","node_type":"MeshInstance3D","parent_path":"World"}`,
		`cmd_set_node_property {"node_path":"World/Ship","property":"position","value":[0,1,0]}`,
		`cmd_set_node_property {"node_path":"World/Ship","property":"material_override","value":"res://red.tres"}`,
		`cmd_set_node_property {"node_path":"World/Ship","property":"mesh","value":"res://ship.tres"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Bad arguments are refused in editor mode as headless, before anything
// is sent.
func TestEditorModeRefusals(t *testing.T) {
	h, ed := editorHost(t)
	plugintest.Refused(t, h, "setup_lighting", map[string]any{"parent_path": ".", "light_type": "Sprite2D"}, sdk.CodeInvalidArgument, "DirectionalLight3D")
	plugintest.Refused(t, h, "setup_camera", map[string]any{"parent_path": ".", "properties": map[string]any{"fovy": 3}}, sdk.CodeInvalidArgument, "fov")
	plugintest.Refused(t, h, "gridmap_set_cell", map[string]any{"node_path": "G", "position": []int{1, 2}, "item": 0}, sdk.CodeInvalidArgument, "[x, y, z]")
	plugintest.Refused(t, h, "add_mesh_library_item", map[string]any{"node_path": "G", "library_path": "res://lib.tres", "mesh_type": "BoxMesh"}, sdk.CodeInvalidArgument, "only one")
	if c := ed.Calls(); len(c) != 0 {
		t.Errorf("refused calls sent %v", c)
	}
}

// What the addon cannot build (a new material, a sky) goes to the scene's
// file: the editor saves the scene, the file is edited as headless, and
// the editor reloads it.
func TestEditorModeOnTheFile(t *testing.T) {
	ed := sdktest.NewEditor().ActiveScene("res://world.tscn")
	dir := plugintest.Project(t, map[string]string{"project.godot": project46,
		"res://world.tscn": "[gd_scene format=3]\n\n[sub_resource type=\"MeshLibrary\" id=\"MeshLibrary_1\"]\n\n" +
			"[node name=\"World\" type=\"Node3D\"]\n\n[node name=\"Grid\" type=\"GridMap\" parent=\".\"]\nmesh_library = SubResource(\"MeshLibrary_1\")\n",
		"res://lib.tres": "[gd_resource type=\"MeshLibrary\" format=3]\n\n[resource]\n"})
	scenes := sdktest.NewOpenScenes("res://world.tscn")
	green := map[string]any{"material": map[string]any{"type": "StandardMaterial3D", "properties": map[string]any{"albedo_color": "#00ff00"}}}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve, WorkspaceEditor: scenes})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"add_mesh_instance", map[string]any{"parent_path": ".", "name": "Ship", "material": map[string]any{"albedo_color": "#ff0000"}}},
		{"setup_environment", map[string]any{"parent_path": ".", "sky": map[string]any{}}},
		{"add_mesh_library_item", map[string]any{"node_path": "Grid", "mesh_type": "BoxMesh", "properties": green}},
	} {
		if out := plugintest.Call(t, h, c.tool, c.args); out["on_file"] == nil {
			t.Errorf("%s answered %v", c.tool, out)
		}
	}
	got := string(projfixture.Read(t, dir, "world.tscn"))
	for _, w := range []string{`[sub_resource type="StandardMaterial3D" id="StandardMaterial3D_`, "albedo_color = Color(1, 0, 0, 1)",
		`[sub_resource type="ProceduralSkyMaterial" id="ProceduralSkyMaterial_`, `[node name="Ship" type="MeshInstance3D" parent="."]`, `type="WorldEnvironment"`} {
		if !strings.Contains(got, w) {
			t.Errorf("world.tscn lacks %s:\n%s", w, got)
		}
	}
	if n := strings.Count(got, "albedo_color = Color(0, 1, 0, 1)"); n != 1 || !strings.Contains(got, "item/0/mesh = SubResource(") {
		t.Errorf("world.tscn's MeshLibrary lacks the item with its green material (%d):\n%s", n, got)
	}
	// A library in a .tres is written as headless; the editor rescans it.
	if out := plugintest.Call(t, h, "add_mesh_library_item", map[string]any{"library_path": "res://lib.tres", "mesh_type": "BoxMesh", "properties": green}); out["on_file"] != nil || out["item_id"] != 0.0 {
		t.Errorf("the .tres library answered %v", out)
	}
	if lib := string(projfixture.Read(t, dir, "lib.tres")); !strings.Contains(lib, "albedo_color = Color(0, 1, 0, 1)") || !strings.Contains(lib, "item/0/mesh = SubResource(") {
		t.Errorf("lib.tres lacks the item with its green material:\n%s", lib)
	}
	var sent []string
	for _, c := range ed.Calls() {
		sent = append(sent, c.Command)
	}
	if want := slices.Repeat([]string{"cmd_get_active_scene", "cmd_save_scene"}, 3); !slices.Equal(sent, want) {
		t.Errorf("sent %v, want %v", sent, want)
	}
	if saved, want := scenes.Saved(), slices.Repeat([]string{"res://world.tscn"}, 3); !slices.Equal(saved, want) {
		t.Errorf("the host saved %v, want %v", saved, want)
	}
	if reloaded, want := scenes.Reloaded(), append(slices.Repeat([]string{"res://world.tscn"}, 3), "res://lib.tres"); !slices.Equal(reloaded, want) {
		t.Errorf("the host had the editor reload %v, want %v", reloaded, want)
	}
}
