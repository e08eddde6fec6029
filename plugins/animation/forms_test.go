package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Files saved before Godot 4.6 keep a player's libraries in one
// dictionary; an edit keeps that form (and Godot 4.6 still loads it), and
// a player with no library yet gets the form of the project's version.
func TestLibraryDictionaryForm(t *testing.T) {
	const old = `[gd_scene load_steps=3 format=3]

[sub_resource type="Animation" id="Animation_a"]
resource_name = "idle"

[sub_resource type="AnimationLibrary" id="AnimationLibrary_a"]
_data = {
"idle": SubResource("Animation_a")
}

[node name="Root" type="Node2D"]

[node name="Sprite2D" type="Sprite2D" parent="."]

[node name="AnimationPlayer" type="AnimationPlayer" parent="."]
libraries = {
"": SubResource("AnimationLibrary_a")
}
autoplay = "idle"

[node name="Fresh" type="AnimationPlayer" parent="."]
`
	project := "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.2\")\n"
	dir := plugintest.Project(t, map[string]string{"project.godot": project, "old.tscn": old})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.2"})
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer", "name": "walk"})
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer", "name": "jump", "library": "moves"})
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://old.tscn", "node_path": "Fresh", "name": "spin"})
	src, err := os.ReadFile(filepath.Join(dir, "old.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"_data = {\n\"idle\": SubResource(\"Animation_a\"),\n\"walk\": SubResource(\"Animation_", // String keys, as the file has them
		"libraries = {\n\"\": SubResource(\"AnimationLibrary_a\"),\n\"moves\": SubResource(\"AnimationLibrary_",
		"[node name=\"Fresh\" type=\"AnimationPlayer\" parent=\".\"]\nlibraries = {\n&\"\": SubResource(\"AnimationLibrary_",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the scene lacks\n%s\nin\n%s", want, s)
		}
	}
	ls := plugintest.Call(t, h, "list_animations", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer"})
	if got := ls["animations"].([]any); len(got) != 3 || got[0] != "idle" || got[1] != "moves/jump" || got[2] != "walk" {
		t.Fatalf("list_animations = %v", got)
	}

	// The same file in a Godot 4.6 project: adding a library rewrites the
	// dictionary as the 4.6 properties, which the engine loads.
	project = "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n"
	dir = plugintest.Project(t, map[string]string{"project.godot": project, "old.tscn": old})
	h = sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer", "name": "jump", "library": "moves"})
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer", "name": "walk"})
	if src, err = os.ReadFile(filepath.Join(dir, "old.tscn")); err != nil {
		t.Fatal(err)
	}
	if s := string(src); !strings.Contains(s, "[node name=\"AnimationPlayer\" type=\"AnimationPlayer\" parent=\".\"]\nlibraries/ = SubResource(\"AnimationLibrary_a\")\nlibraries/moves = SubResource(\"AnimationLibrary_") ||
		strings.Contains(s, "libraries = {") {
		t.Fatalf("the 4.6 form was not written:\n%s", s)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(project), "old.tscn": src})
	ls = plugintest.Call(t, h, "list_animations", map[string]any{"scene": "res://old.tscn", "node_path": "AnimationPlayer"})
	if got := ls["animations"].([]any); len(got) != 3 {
		t.Fatalf("list_animations = %v", got)
	}
}

// A library saved as its own .tres: the edits of its animations, and a
// new animation, are written there, the scene untouched; one undo step
// per call restores the file.
func TestLibraryInItsOwnFile(t *testing.T) {
	const lib = `[gd_resource type="AnimationLibrary" load_steps=2 format=3 uid="uid://c0anmlibtest1"]

[sub_resource type="Animation" id="Animation_a"]
resource_name = "idle"

[resource]
_data = {
&"idle": SubResource("Animation_a")
}
`
	const scene = `[gd_scene load_steps=2 format=3]

[ext_resource type="AnimationLibrary" uid="uid://c0anmlibtest1" path="res://moves.tres" id="1_lib"]

[node name="Root" type="Node2D"]

[node name="Sprite2D" type="Sprite2D" parent="."]

[node name="AnimationPlayer" type="AnimationPlayer" parent="."]
libraries/ = ExtResource("1_lib")
`
	dir := plugintest.Project(t, map[string]string{"project.godot": engineProject, "main.tscn": scene, "moves.tres": lib})
	h := headless(t, dir)
	at := map[string]any{"scene": "res://main.tscn", "node_path": "AnimationPlayer"}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range at {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	r := plugintest.Call(t, h, "add_track", with("animation", "idle", "track_path", "Sprite2D:modulate"))
	if r["animation_file"] != "res://moves.tres" {
		t.Fatalf("add_track = %v", r)
	}
	plugintest.Call(t, h, "insert_keyframe", with("animation", "idle", "track", 0, "time", 0.5, "value", "#ff000080"))
	plugintest.Call(t, h, "create", with("name", "fade"))
	got, _ := os.ReadFile(filepath.Join(dir, "moves.tres"))
	for _, want := range []string{`"values": [Color(1, 0, 0, 0.5019608)]`, `&"fade": SubResource("Animation_`, "resource_name = \"fade\""} {
		if !strings.Contains(string(got), want) {
			t.Errorf("moves.tres lacks %q:\n%s", want, got)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "main.tscn")); string(now) != scene {
		t.Errorf("the scene changed:\n%s", now)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(engineProject), "main.tscn": []byte(scene), "moves.tres": got})
	if _, err := h.Workspace().Undo(t.Context(), 3, false); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "moves.tres")); string(now) != lib {
		t.Fatalf("undo did not restore moves.tres:\n%s", now)
	}
}

// An AnimationTree whose state machine is saved as a .tres: states and
// transitions are written there.
func TestTreeRootInItsOwnFile(t *testing.T) {
	const machine = `[gd_resource type="AnimationNodeStateMachine" format=3 uid="uid://c0anmsmtest01"]

[resource]
`
	const scene = `[gd_scene load_steps=2 format=3]

[ext_resource type="AnimationNodeStateMachine" uid="uid://c0anmsmtest01" path="res://machine.tres" id="1_sm"]

[node name="Root" type="Node2D"]

[node name="AnimationTree" type="AnimationTree" parent="."]
tree_root = ExtResource("1_sm")
`
	dir := plugintest.Project(t, map[string]string{"project.godot": engineProject, "main.tscn": scene, "machine.tres": machine})
	h := headless(t, dir)
	plugintest.Call(t, h, "add_state_machine_state", map[string]any{"scene": "res://main.tscn", "tree_path": "AnimationTree", "state_name": "idle", "animation": "idle"})
	plugintest.Call(t, h, "add_state_machine_transition", map[string]any{"scene": "res://main.tscn", "tree_path": "AnimationTree", "from": "Start", "to": "idle"})
	got, _ := os.ReadFile(filepath.Join(dir, "machine.tres"))
	for _, want := range []string{"[sub_resource type=\"AnimationNodeAnimation\" id=\"AnimationNodeAnimation_", "animation = &\"idle\"",
		"[resource]\nstates/idle/node = SubResource(\"AnimationNodeAnimation_", "states/idle/position = Vector2(200, 100)\ntransitions = [\"Start\", \"idle\", SubResource(\"AnimationNodeStateMachineTransition_"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("machine.tres lacks %q:\n%s", want, got)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "main.tscn")); string(now) != scene {
		t.Errorf("the scene changed:\n%s", now)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(engineProject), "main.tscn": []byte(scene), "machine.tres": got})
	plugintest.Refused(t, h, "set_blend_tree_node", map[string]any{"scene": "res://main.tscn", "tree_path": "AnimationTree", "node_name": "a", "node_type": "AnimationNodeAnimation"},
		"INVALID_ARGUMENT", "blend-tree root")
}
