package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorHost is the toolset with a scripted addon attached that answers
// every physics command as the addon does.
func editorHost(t *testing.T, dir string) (*sdktest.Host, *sdktest.Editor) {
	t.Helper()
	ed := sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"scene_path": "res://character.tscn", "opened": true}).
		Result("cmd_create_node", map[string]any{"node_path": "Crate", "created": true}).
		Result("cmd_setup_physics_body", map[string]any{"node_path": "Crate", "properties": map[string]any{"mass": 3.0}}).
		Result("cmd_setup_collision", map[string]any{"node_path": "CollisionShape2D", "shape_type": "RectangleShape2D", "created": true}).
		Result("cmd_set_physics_layers", map[string]any{"node_path": ".", "collision_layer": 5, "collision_mask": 2}).
		Result("cmd_add_raycast", map[string]any{"node_path": "RayCast2D", "created": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
	return h, ed
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Editor mode sends the addon's commands with exactly its params; the
// sprite fit is computed from the saved scene and sent as the shape's
// size; layer names become indices.
func TestEditorCommands(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-navigation")
	plugintest.WriteFile(t, dir, "project.godot", read(t, dir, "project.godot")+"\n[layer_names]\n\n2d_physics/layer_3=\"walls\"\n")
	h, ed := editorHost(t, dir)
	scene := "res://character.tscn"
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []sdktest.EditorCall
	}{
		{"setup_body", map[string]any{"node_path": "Crate", "body_type": "RigidBody2D", "properties": map[string]any{"mass": 3}, "scene": scene},
			[]sdktest.EditorCall{
				{Command: "cmd_open_scene", Params: map[string]any{"scene_path": scene}},
				{Command: "cmd_create_node", Params: map[string]any{"parent_path": ".", "node_type": "RigidBody2D", "name": "Crate"}},
				{Command: "cmd_setup_physics_body", Params: map[string]any{"node_path": "Crate", "properties": map[string]any{"mass": 3.0}}},
			}},
		{"setup_collision", map[string]any{"node_path": ".", "shape_type": "RectangleShape2D", "fit_to": "Sprite2D", "scene": scene},
			[]sdktest.EditorCall{
				{Command: "cmd_open_scene", Params: map[string]any{"scene_path": scene}},
				{Command: "cmd_setup_collision", Params: map[string]any{"node_path": ".", "shape_type": "RectangleShape2D", "collision_node_type": "CollisionShape2D",
					"name": "CollisionShape2D", "properties": map[string]any{"size": []any{21.0, 23.1}}}},
			}},
		{"set_layers", map[string]any{"node_path": ".", "layers": []int{1}, "layer_names": []string{"walls"}, "mask": []int{2}, "scene": scene},
			[]sdktest.EditorCall{
				{Command: "cmd_open_scene", Params: map[string]any{"scene_path": scene}},
				{Command: "cmd_set_physics_layers", Params: map[string]any{"node_path": ".", "layers": []any{1.0, 3.0}, "mask": []any{2.0}}},
			}},
		{"set_layers", map[string]any{"node_path": ".", "mask": []int{2}},
			[]sdktest.EditorCall{
				{Command: "cmd_set_physics_layers", Params: map[string]any{"node_path": ".", "layers": nil, "mask": []any{2.0}}},
			}},
		{"add_raycast", map[string]any{"parent_path": ".", "properties": map[string]any{"target_position": []int{0, 50}}},
			[]sdktest.EditorCall{
				{Command: "cmd_add_raycast", Params: map[string]any{"parent_path": ".", "name": "RayCast2D", "raycast_type": "RayCast2D",
					"properties": map[string]any{"target_position": []any{0.0, 50.0}}}},
			}},
	} {
		before := len(ed.Calls())
		res := h.Call(context.Background(), tc.tool, tc.args)
		if res.IsError || res.Err != nil {
			t.Errorf("%s: %v %s", tc.tool, res.Err, res.Text())
			continue
		}
		got := ed.Calls()[before:]
		if !jsonEq(got, tc.want) {
			t.Errorf("%s sent\n%v\nwant\n%v", tc.tool, got, tc.want)
		}
	}
	// Nothing was written: the editor owns the scene.
	if read(t, dir, "character.tscn") != read(t, plugintest.CorpusProject(t, "2d-navigation"), "character.tscn") {
		t.Error("editor mode wrote the scene file")
	}
	// What the addon cannot build (the PhysicsMaterial friction makes, an
	// inline resource) goes to the scene's file: the editor saves the
	// scene, the file is edited as headless, and the editor reloads it.
	ed.ActiveScene("res://character.tscn")
	scenes := sdktest.NewOpenScenes("res://character.tscn")
	fh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve, WorkspaceEditor: scenes})
	before := len(ed.Calls())
	out := plugintest.Call(t, fh, "setup_body", map[string]any{"node_path": "Crate", "body_type": "RigidBody2D", "friction": 0.5})
	plugintest.OnSceneFile(t, out, ed, before, scenes, "res://character.tscn", "cmd_get_active_scene", "cmd_save_scene")
	if got := read(t, dir, "character.tscn"); !strings.Contains(got, `[sub_resource type="PhysicsMaterial" id="PhysicsMaterial_`) || !strings.Contains(got, "friction = 0.5") {
		t.Errorf("character.tscn:\n%s", got)
	}
}

// Every mutating tool dry-runs in the editor (recorded, not sent) and
// headless (a preview, nothing written).
func TestDryRunsBothModes(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-navigation")
	calls := map[string]any{
		"setup_body":      map[string]any{"node_path": "Crate", "body_type": "StaticBody2D", "properties": map[string]any{"physics_material_override": nil}, "scene": "res://character.tscn"},
		"setup_collision": map[string]any{"node_path": ".", "shape_type": "CapsuleShape2D", "fit_to": "Sprite2D", "scene": "res://character.tscn"},
		"set_layers":      map[string]any{"node_path": ".", "layers": []int{2}, "scene": "res://character.tscn"},
		"add_raycast":     map[string]any{"parent_path": ".", "scene": "res://character.tscn"},
	}
	h, ed := editorHost(t, dir)
	plugintest.EditorDryRuns(t, h, ed, calls)
	hh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig := read(t, dir, "character.tscn")
	for tool, args := range calls {
		out := plugintest.DryRunIn(t, hh, sdk.ModeHeadless, tool, args)
		if out["scene_path"] != "res://character.tscn" {
			t.Errorf("%s headless dry run = %v", tool, out)
		}
	}
	if read(t, dir, "character.tscn") != orig {
		t.Error("a headless dry run wrote the scene")
	}
}
