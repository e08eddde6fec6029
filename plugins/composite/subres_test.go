package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// compose_node builds a body with an inline shape and a child with a
// nested inline texture in one call, as sub-resources the engine loads; a
// bad nested property fails the whole call and writes nothing; with an
// editor attached the inline value is refused before anything is sent.
func TestComposeInlineResources(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	before := read(t, dir)
	msg := plugintest.CallErr(t, h, "compose_node", map[string]any{"scene": "res://main.tscn", "node_type": "StaticBody2D", "node_name": "Floor",
		"children": []any{map[string]any{"node_type": "CollisionShape2D", "properties": map[string]any{
			"shape": map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"extents": []any{8, 8}}}}}}})
	if !strings.Contains(msg, "extents") || read(t, dir) != before {
		t.Fatalf("a Godot 3 property inside an inline shape: %q, scene changed: %v", msg, read(t, dir) != before)
	}
	plugintest.Call(t, h, "compose_node", map[string]any{"scene": "res://main.tscn", "node_type": "StaticBody2D", "node_name": "Floor",
		"children": []any{
			map[string]any{"node_type": "CollisionShape2D", "properties": map[string]any{
				"shape": map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{320, 16}}}}},
			map[string]any{"node_type": "Sprite2D", "properties": map[string]any{
				"texture": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{"width": 320, "height": 16,
					"gradient": map[string]any{"type": "Gradient", "properties": map[string]any{"colors": []any{"#553311", "#886633"}}}}}}},
		}})
	got := read(t, dir)
	for _, want := range []string{`[sub_resource type="RectangleShape2D" id="RectangleShape2D_`, "size = Vector2(320, 16)",
		`[sub_resource type="Gradient" id="Gradient_`, `gradient = SubResource("Gradient_`, "width = 320", "height = 16"} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tscn lacks %q:\n%s", want, got)
		}
	}
	proj, err := os.ReadFile(filepath.Join(dir, "project.godot"))
	if err != nil {
		t.Fatal(err)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": proj, "main.tscn": []byte(got)})

	// With an editor attached the addon cannot build the shape: the scene
	// is opened and saved there, the node is composed on its file, and the
	// editor reloads it. cmd_compose_node is never sent.
	ed := sdktest.NewEditor().ActiveScene("res://main.tscn").Result("cmd_open_scene", map[string]any{"opened": true})
	edDir := project(t)
	scenes := sdktest.NewOpenScenes("res://main.tscn")
	eh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: edDir, Editor: ed.Serve, WorkspaceEditor: scenes})
	out := plugintest.Call(t, eh, "compose_node", map[string]any{"scene": "res://main.tscn", "node_type": "CollisionShape2D", "node_name": "Hitbox",
		"properties": map[string]any{"shape": map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{4, 6}}}}})
	plugintest.OnSceneFile(t, out, ed, 0, scenes, "res://main.tscn", "cmd_open_scene", "cmd_get_active_scene", "cmd_save_scene")
	got = read(t, edDir)
	for _, want := range []string{`[sub_resource type="RectangleShape2D" id="RectangleShape2D_`, "size = Vector2(4, 6)", `[node name="Hitbox" type="CollisionShape2D" parent="."]`} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tscn lacks %q:\n%s", want, got)
		}
	}
	// run_commands sends addon commands: an inline value there is refused.
	plugintest.Refused(t, eh, "run_commands", map[string]any{"commands": []any{map[string]any{"command": "set_node_property",
		"params": map[string]any{"node_path": ".", "property": "shape", "value": map[string]any{"type": "RectangleShape2D"}}}}}, sdk.CodePreconditionFailed, "inline")
}
