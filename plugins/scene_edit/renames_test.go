package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestConnectSignalGodot3Names: connect_signal's refusals of a signal or
// method name give the Godot 4 spelling of a Godot 3 name (from the rename
// table, checked against the class), and otherwise the closest signal.
func TestConnectSignalGodot3Names(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "res://project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"renames\"\nconfig/features=PackedStringArray(\"4.6\")\n")
	plugintest.WriteFile(t, dir, "res://canvas.gd", "extends Node2D\n\nfunc _on_submitted(_text: String) -> void:\n\tpass\n")
	plugintest.WriteFile(t, dir, "res://main.tscn", `[gd_scene format=3]

[ext_resource type="Script" path="res://canvas.gd" id="1_c"]

[node name="Main" type="Control"]

[node name="Name" type="LineEdit" parent="."]

[node name="Pickup" type="Area2D" parent="."]

[node name="Canvas" type="Node2D" parent="."]
script = ExtResource("1_c")
`)
	h := headless(t, dir)
	connect := func(src, signal, dst, method string) string {
		t.Helper()
		return refused(t, h, "connect_signal", map[string]any{"scene": "res://main.tscn", "source_path": src, "signal_name": signal,
			"target_path": dst, "method_name": method}, sdk.CodeInvalidArgument)
	}
	if got := connect("Name", "text_entered", "Canvas", "_on_submitted"); !strings.Contains(got, "text_entered is the Godot 3 name; in Godot 4 it is text_submitted") {
		t.Errorf("Godot 3 signal: %s", got)
	}
	if got := connect("Pickup", "body_entred", "Canvas", "_on_submitted"); !strings.Contains(got, `did you mean "body_entered"?`) {
		t.Errorf("misspelt signal: %s", got)
	}
	got := connect("Name", "text_submitted", "Canvas", "update")
	if !strings.Contains(got, "update is the Godot 3 name; in Godot 4 it is queue_redraw") || !strings.Contains(got, "_on_submitted") {
		t.Errorf("Godot 3 method: %s", got)
	}
	// The Godot 4 names connect.
	plugintest.Call(t, h, "connect_signal", map[string]any{"scene": "res://main.tscn", "source_path": "Name", "signal_name": "text_submitted",
		"target_path": "Canvas", "method_name": "queue_redraw"})
}
