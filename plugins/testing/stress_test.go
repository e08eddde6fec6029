package main

import (
	"context"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A small game: a player that moves right while ui_right is held, and a
// coin scene to spawn.
var gameFiles = map[string]string{
	"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"game\"\nrun/main_scene=\"res://main.tscn\"\nconfig/features=PackedStringArray(\"4.6\")\n\n[display]\n\nwindow/size/viewport_width=320\nwindow/size/viewport_height=240\n",
	"main.tscn": `[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://player.gd" id="1"]

[node name="Main" type="Node2D"]

[node name="Player" type="Node2D" parent="."]
position = Vector2(40, 120)
script = ExtResource("1")

[node name="Box" type="ColorRect" parent="Player"]
offset_right = 16.0
offset_bottom = 16.0
color = Color(1, 0, 0, 1)
`,
	"player.gd": `extends Node2D

var hits := 0

func _physics_process(_delta: float) -> void:
	if Input.is_action_pressed("ui_right"):
		position.x += 2.0
	if Input.is_key_pressed(KEY_SPACE):
		hits += 1
`,
	"coin.tscn": `[gd_scene format=3]

[node name="Coin" type="Node2D"]

[node name="Dot" type="ColorRect" parent="."]
offset_right = 4.0
offset_bottom = 4.0
`,
}

// TestStressWeb spawns 200 coins into the main scene in the real web
// runtime and runs 60 frames: the result counts the spawned nodes in the
// engine's own monitors and has frame-time statistics over every frame.
func TestStressWeb(t *testing.T) {
	requireWeb(t)
	dir := godot4Project(t, gameFiles)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	res := h.Call(context.Background(), "run_stress_test", map[string]any{"spawn_scene": "res://coin.tscn", "instances": 200, "frames": 60,
		"iterations": 20, "actions": []string{"ui_right", "Space", "click"}, "seed": 7})
	var out stressResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if !out.Survived || out.Spawned != 200 || out.Frames != 60 || out.FrameTimeMS == nil || out.FrameTimeMS.N != 60 {
		t.Fatalf("%s", res.Text())
	}
	ft := out.FrameTimeMS
	if !(ft.Min > 0 && ft.Min <= ft.P50 && ft.P50 <= ft.P95 && ft.P95 <= ft.Max && ft.Avg > 0) {
		t.Errorf("frame time %+v", ft)
	}
	// 200 coins of 2 nodes, the scene's 3, root, the probe and the driver.
	if n := out.Monitors["object_node_count"]; n < 403 || n > 420 {
		t.Errorf("node count %v", n)
	}
	// The web runtime is a release build: no memory tracking, and the
	// result says so.
	if out.Monitors["object_count"] < 403 || out.Peak["object_node_count"] < out.Monitors["object_node_count"] ||
		len(out.Notes) != 1 || out.Monitors["memory_static"] != 0 {
		t.Errorf("monitors %v peak %v notes %q", out.Monitors, out.Peak, out.Notes)
	}
	if len(out.Errors) != 0 {
		t.Errorf("errors %q", out.Errors)
	}
	if out.EventsSent < 20 || out.Engine == nil || out.Engine.Kind != engineWeb {
		t.Errorf("%s", res.Text())
	}
	t.Logf("%s", out.Text)
}

// TestStressGodot3 runs the stress test with godot3-server (a debug-enabled
// build, so memory is tracked): 100 coins spawned, 60 frames, the main
// scene's script counting the key events it gets.
func TestStressGodot3(t *testing.T) {
	godottest.RequireGodot3(t)
	dir := godottest.Godot3Project(t, "extends Node\n\nvar keys = 0\n\nfunc _input(event):\n\tif event is InputEventKey:\n\t\tkeys += 1\n", map[string]string{
		"coin.tscn": "[gd_scene format=2]\n\n[node name=\"Coin\" type=\"Node2D\"]\n\n[node name=\"Dot\" type=\"Node2D\" parent=\".\"]\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
	res := h.Call(context.Background(), "run_stress_test", map[string]any{"spawn_scene": "res://coin.tscn", "instances": 100, "frames": 60,
		"iterations": 10, "actions": []string{"Space"}, "seed": 1})
	var out stressResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if !out.Survived || out.Spawned != 100 || out.Frames != 60 || out.FrameTimeMS == nil || out.FrameTimeMS.N != 60 ||
		out.EventsSent != 10 || out.Engine == nil || out.Engine.Kind != engineNative {
		t.Fatalf("%s", res.Text())
	}
	// 100 coins of 2 nodes, Main and the root.
	if n := out.Monitors["object_node_count"]; n != 202 {
		t.Errorf("node count %v", n)
	}
	if out.Monitors["memory_static"] <= 0 || out.Peak["memory_static"] < out.Monitors["memory_static"] || len(out.Notes) != 0 {
		t.Errorf("monitors %v notes %q", out.Monitors, out.Notes)
	}
	t.Logf("%s", out.Text)
}
