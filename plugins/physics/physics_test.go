package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	return string(projfixture.Read(t, dir, rel))
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

// undoAll undoes n actions and checks the files are back byte for byte.
func undoAll(t *testing.T, h *sdktest.Host, n int, dir string, orig map[string]string) {
	t.Helper()
	if _, err := h.Workspace().Undo(context.Background(), n, false); err != nil {
		t.Fatal(err)
	}
	for rel, want := range orig {
		if got := read(t, dir, rel); got != want {
			t.Errorf("undo did not restore %s byte for byte:\n%s", rel, got)
		}
	}
}

// A 2D character of a real project gets a configured body, a fitted
// collision shape, layers, a raycast and a new rigid body with a physics
// material; the engine loads the result with every property we set, and
// undo restores the scene byte for byte.
func TestHeadless2D(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-navigation")
	orig := read(t, dir, "character.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := "res://character.tscn"

	// Dry run: the preview, and nothing written.
	plugintest.DryRunIn(t, h, sdk.ModeHeadless, "setup_body", map[string]any{"node_path": ".", "properties": map[string]any{"motion_mode": 1}, "scene": scene})
	if read(t, dir, "character.tscn") != orig {
		t.Fatal("the dry run wrote the scene")
	}

	out := plugintest.Call(t, h, "setup_body", map[string]any{"node_path": ".", "scene": scene,
		"properties": map[string]any{"motion_mode": 1, "floor_max_angle": 0.5, "safe_margin": 0.1}})
	if out["body_type"] != "CharacterBody2D" {
		t.Errorf("setup_body = %v", out)
	}
	out = plugintest.Call(t, h, "setup_collision", map[string]any{"node_path": ".", "shape_type": "RectangleShape2D", "fit_to": "Sprite2D", "name": "Hitbox", "scene": scene})
	if out["node_path"] != "Hitbox" || out["created"] != true {
		t.Errorf("setup_collision = %v", out)
	}
	plugintest.Call(t, h, "set_layers", map[string]any{"node_path": ".", "layers": []int{1, 3}, "mask": []int{2, 4}, "scene": scene})
	plugintest.Call(t, h, "add_raycast", map[string]any{"parent_path": ".", "name": "FloorRay", "scene": scene,
		"properties": map[string]any{"target_position": []float64{0, 40}, "collide_with_areas": true}})
	out = plugintest.Call(t, h, "setup_body", map[string]any{"node_path": "Crate", "body_type": "RigidBody2D", "scene": scene,
		"properties": map[string]any{"mass": 3, "gravity_scale": 0.5}, "friction": 0.4, "bounce": 0.25})
	if out["created"] != true || out["node_path"] != "Crate" {
		t.Errorf("setup_body create = %v", out)
	}
	plugintest.Call(t, h, "setup_collision", map[string]any{"node_path": "Crate", "shape_type": "CircleShape2D", "properties": map[string]any{"radius": 12}, "scene": scene})

	got := read(t, dir, "character.tscn")
	// Texture 70x77 at scale 0.3, placed at the sprite's position.
	contains(t, got,
		"[sub_resource type=\"RectangleShape2D\" id=\"RectangleShape2D_",
		"size = Vector2(21, 23.1)\n",
		"[sub_resource type=\"PhysicsMaterial\" id=\"PhysicsMaterial_",
		"friction = 0.4\nbounce = 0.25\n",
		"[sub_resource type=\"CircleShape2D\" id=\"CircleShape2D_",
		"radius = 12.0\n",
		"collision_layer = 5\ncollision_mask = 10\n",
		"motion_mode = 1\nfloor_max_angle = 0.5\nsafe_margin = 0.1\n",
		"[node name=\"Hitbox\" type=\"CollisionShape2D\" parent=\".\"",
		"position = Vector2(0, -3)\nshape = SubResource(\"RectangleShape2D_",
		"[node name=\"FloorRay\" type=\"RayCast2D\" parent=\".\"",
		"target_position = Vector2(0, 40)\ncollide_with_areas = true\n",
		"[node name=\"Crate\" type=\"RigidBody2D\" parent=\".\"",
		"mass = 3.0\nphysics_material_override = SubResource(\"PhysicsMaterial_",
		"gravity_scale = 0.5\n",
	)

	// Changing friction again edits the same material.
	plugintest.Call(t, h, "setup_body", map[string]any{"node_path": "Crate", "friction": 0.9, "scene": scene})
	got = read(t, dir, "character.tscn")
	if strings.Count(got, "type=\"PhysicsMaterial\"") != 1 || !strings.Contains(got, "friction = 0.9\nbounce = 0.25\n") {
		t.Errorf("second friction edit:\n%s", got)
	}

	// The real engine loads the scene with every property we set.
	enginecheck.Project(t, dir)

	undoAll(t, h, 7, dir, map[string]string{"character.tscn": orig})
}

func TestRefusals(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-navigation")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	scene := "res://character.tscn"
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"setup_body", map[string]any{"node_path": "Kin", "body_type": "KinematicBody2D", "scene": scene}, sdk.CodeInvalidArgument, "CharacterBody2D"},
		{"setup_body", map[string]any{"node_path": "Sprite2D", "properties": map[string]any{"mass": 1}, "scene": scene}, sdk.CodeInvalidArgument, "not a physics body"},
		{"setup_body", map[string]any{"node_path": ".", "properties": map[string]any{"mass": 1}, "scene": scene}, sdk.CodeInvalidArgument, "mass"},
		{"setup_body", map[string]any{"node_path": ".", "friction": 0.5, "scene": scene}, sdk.CodeInvalidArgument, "no physics material"},
		{"setup_body", map[string]any{"node_path": "Nope", "properties": map[string]any{}, "scene": scene}, sdk.CodeNotFound, "Nope"},
		{"setup_collision", map[string]any{"node_path": ".", "shape_type": "BoxShape3D", "scene": scene}, sdk.CodeInvalidArgument, "Dimension mismatch"},
		{"setup_collision", map[string]any{"node_path": ".", "shape_type": "RectangleShape2D", "collision_node_type": "CollisionShape3D", "scene": scene}, sdk.CodeInvalidArgument, "Dimension mismatch"},
		{"setup_collision", map[string]any{"node_path": ".", "shape_type": "RectangleShape2D", "properties": map[string]any{"extents": []int{4, 4}}, "scene": scene}, sdk.CodeInvalidArgument, "size"},
		{"setup_collision", map[string]any{"node_path": ".", "shape_type": "CircleShape2D", "fit_to": "NavigationAgent2D", "scene": scene}, sdk.CodeInvalidArgument, "Sprite2D or MeshInstance3D"},
		{"set_layers", map[string]any{"node_path": ".", "layers": []int{0}, "scene": scene}, sdk.CodeInvalidArgument, "[1, 32]"},
		{"set_layers", map[string]any{"node_path": ".", "layer_names": []string{"walls"}, "scene": scene}, sdk.CodeInvalidArgument, "names no 2D physics layers"},
		{"add_raycast", map[string]any{"parent_path": ".", "raycast_type": "RayCast", "scene": scene}, sdk.CodeInvalidArgument, "RayCast2D"},
	} {
		plugintest.Refused(t, h, tc.tool, tc.args, tc.code, tc.text)
	}
}

// Layers by the project's names (2d-platformer names its 2D physics
// layers), and a 3D body of a real project with a shape fitted to a mesh.
func TestLayerNamesAnd3D(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	p := read(t, dir, "project.godot")
	if !strings.Contains(p, "2d_physics/layer_1=") {
		t.Fatalf("2d-platformer names no physics layers:\n%s", p)
	}
	orig := read(t, dir, "player/player.tscn")
	out := plugintest.Call(t, h, "set_layers", map[string]any{"node_path": ".", "scene": "res://player/player.tscn",
		"layer_names": []string{layerName(t, p, 1)}, "mask_names": []string{layerName(t, p, 2)}})
	if out["collision_layer"] != float64(1) || out["collision_mask"] != float64(2) {
		t.Errorf("set_layers by name = %v", out)
	}
	contains(t, read(t, dir, "player/player.tscn"), "collision_mask = 2\n")
	undoAll(t, h, 1, dir, map[string]string{"player/player.tscn": orig})

	dir3 := projfixture.Copy(t, "3d-squash_the_creeps")
	h3 := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir3, GodotVersion: "4.6"})
	scene := "res://Main.tscn"
	plugintest.Call(t, h3, "setup_body", map[string]any{"node_path": "Crate", "body_type": "StaticBody3D", "scene": scene,
		"properties": map[string]any{"collision_layer": 4}, "friction": 0.8})
	// A mesh to fit to, as the editor would have saved it.
	main := read(t, dir3, "Main.tscn")
	main = strings.Replace(main, "[node name=", "[sub_resource type=\"BoxMesh\" id=\"BoxMesh_crate\"]\nsize = Vector3(2, 1, 3)\n\n[node name=", 1)
	main += "\n[node name=\"Mesh\" type=\"MeshInstance3D\" parent=\"Crate\"]\ntransform = Transform3D(2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0)\nmesh = SubResource(\"BoxMesh_crate\")\n"
	if err := os.WriteFile(filepath.Join(dir3, "Main.tscn"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	plugintest.Call(t, h3, "setup_collision", map[string]any{"node_path": "Crate", "shape_type": "BoxShape3D", "fit_to": "Crate/Mesh", "scene": scene})
	plugintest.Call(t, h3, "add_raycast", map[string]any{"parent_path": "Crate", "raycast_type": "RayCast3D", "scene": scene,
		"properties": map[string]any{"target_position": []float64{0, -2, 0}}})
	got := read(t, dir3, "Main.tscn")
	contains(t, got,
		"[sub_resource type=\"BoxShape3D\" id=\"BoxShape3D_",
		"size = Vector3(4, 2, 6)\n",
		"[node name=\"CollisionShape3D\" type=\"CollisionShape3D\" parent=\"Crate\"",
		"transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0)\nshape = SubResource(\"BoxShape3D_",
		"[node name=\"Crate\" type=\"StaticBody3D\" parent=\".\"",
		"collision_layer = 4\nphysics_material_override = SubResource(\"PhysicsMaterial_",
		"friction = 0.8\n",
		"target_position = Vector3(0, -2, 0)\n",
	)
	rep := enginecheck.Run(t, map[string][]byte{"project.godot": []byte(read(t, dir3, "project.godot")), "Main.tscn": []byte(got)},
		loadcheck.Options{AllowMissing: true})
	for _, p := range rep.Problems {
		if !p.IsWarning() && strings.Contains(p.String(), "Crate") {
			t.Errorf("engine: %s", p)
		}
	}
	for _, f := range rep.Files {
		if f.File == "Main.tscn" && !f.Loaded {
			t.Errorf("the engine did not load Main.tscn: %+v", f)
		}
	}
}

func layerName(t *testing.T, project string, i int) string {
	t.Helper()
	key := "2d_physics/layer_" + string(rune('0'+i)) + "=\""
	at := strings.Index(project, key)
	if at < 0 {
		t.Fatalf("no %s in project.godot", key)
	}
	rest := project[at+len(key):]
	return rest[:strings.IndexByte(rest, '"')]
}
