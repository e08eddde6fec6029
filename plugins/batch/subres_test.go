package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// set_property with an inline resource makes one [sub_resource] that
// every matched node shares, headless and, through the scene's file, with
// an editor attached.
func TestSetPropertyInlineShared(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Call(t, h, "set_property", map[string]any{"scene": "res://main.tscn", "type": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{"width": 8, "height": 8}}})
	got := read(t, dir, "main.tscn")
	if n := strings.Count(got, `[sub_resource type="GradientTexture2D"`); n != 1 || strings.Count(got, `texture = SubResource("GradientTexture2D_`) != 2 {
		t.Fatalf("want one shared GradientTexture2D for both sprites:\n%s", got)
	}

	// With an editor attached the addon cannot build the texture: the
	// scene is opened and saved there, set on its file, and reloaded.
	ed := sdktest.NewEditor().ActiveScene("res://main.tscn").Result("cmd_open_scene", map[string]any{"opened": true})
	edDir := project(t)
	scenes := sdktest.NewOpenScenes("res://main.tscn")
	eh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: edDir, Editor: ed.Serve, WorkspaceEditor: scenes})
	out := plugintest.Call(t, eh, "set_property", map[string]any{"scene": "res://main.tscn", "type": "Sprite2D", "property": "texture",
		"value": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{"width": 8, "height": 8}}})
	plugintest.OnSceneFile(t, out, ed, 0, scenes, "res://main.tscn", "cmd_open_scene", "cmd_get_active_scene", "cmd_save_scene")
	if got := read(t, edDir, "main.tscn"); strings.Count(got, `texture = SubResource("GradientTexture2D_`) != 2 {
		t.Errorf("main.tscn:\n%s", got)
	}
}
