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
