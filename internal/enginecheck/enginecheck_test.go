package enginecheck_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

const goodProject = `config_version=5

[application]

config/name="check"
run/main_scene="res://main.tscn"

[autoload]

Spawner="*res://main.gd"
`

// goodFiles is a small project that loads cleanly: a scene with a
// script using another script's class_name, an imported texture, an
// instanced scene, a sub-resource, a .tres, and a connection from inside
// an imported model (which the check cannot see into).
var goodFiles = map[string][]byte{
	"project.godot": []byte(goodProject),
	"main.tscn": []byte(`[gd_scene format=3]

[ext_resource type="Script" path="res://main.gd" id="1"]
[ext_resource type="Texture2D" path="res://icon.svg" id="2"]
[ext_resource type="PackedScene" path="res://enemy.tscn" id="3"]
[ext_resource type="Shape2D" path="res://shape.tres" id="4"]
[ext_resource type="PackedScene" path="res://model.glb" id="5"]

[sub_resource type="RectangleShape2D" id="r1"]
size = Vector2(8, 8)

[node name="Main" type="Node2D"]
script = ExtResource("1")
speed = 4.0

[node name="Icon" type="Sprite2D" parent="."]
texture = ExtResource("2")
position = Vector2(10, 20)
rotation = 1

[node name="Enemy" parent="." instance=ExtResource("3")]
position = Vector2(5, 5)

[node name="Body" type="StaticBody2D" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Body"]
shape = SubResource("r1")

[node name="Other" type="CollisionShape2D" parent="Body"]
shape = ExtResource("4")

[node name="Model" parent="." instance=ExtResource("5")]

[connection signal="hit" from="Enemy" to="." method="on_hit"]
[connection signal="ready" from="Icon" to="." method="queue_free"]
[connection signal="animation_finished" from="Model/AnimationPlayer" to="." method="on_hit"]
`),
	"main.gd":  []byte("extends Node2D\n\n@export var speed := 1.0\nvar enemy: Enemy\n\nfunc on_hit() -> void:\n\tpass\n"),
	"enemy.gd": []byte("class_name Enemy\nextends Area2D\n\nsignal hit\n"),
	"enemy.tscn": []byte(`[gd_scene format=3]

[ext_resource type="Script" path="res://enemy.gd" id="1"]

[node name="Enemy" type="Area2D"]
script = ExtResource("1")
`),
	"shape.tres": []byte("[gd_resource type=\"CircleShape2D\" format=3]\n\n[resource]\nradius = 3.0\n"),
	"icon.svg":   []byte("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
}

// brokenFiles holds one of each problem the check must find, with the
// line it must point at.
var brokenFiles = map[string][]byte{
	"project.godot": []byte("config_version=5\n\n[application]\n\nconfig/name=\"broken\"\n\n[autoload]\n\nGone=\"*res://gone.gd\"\n"),
	"broken.tscn": []byte(`[gd_scene format=3]

[sub_resource type="RectangleShape2D" id="old"]
extents = Vector2(4, 4)

[node name="Root" type="Node2D"]

[node name="Sprite" type="Sprite2D" parent="."]
postion = Vector2(1, 2)
position = Vector3(1, 2, 3)

[node name="Orphan" type="Node2D" parent="Missing"]

[node name="Shape" type="CollisionShape2D" parent="."]
shape = SubResource("old")

[node name="Typo" type="Sprite2d" parent="."]

[node name="Button" type="Button" parent="."]

[connection signal="pressed" from="Button" to="." method="on_pressed"]
[connection signal="pressed" from="Nowhere" to="." method="queue_free"]
[connection signal="pressed" from="Button" to="Gone" method="queue_free"]
`),
	"garbage.tscn": []byte("[gd_scene format=3]\n\n[node name=\"R\" type=\"Node\"]\nfoo = Vector2(1,\n"),
	"bad.gd":       []byte("extends Node\n\nfunc f(:\n\tpass\n"),
	"typed.gd":     []byte("extends Node\n\nfunc f():\n\tvar x: int = \"text\"\n"),
	"shape.tres":   []byte("[gd_resource type=\"CircleShape2D\" format=3]\n\n[resource]\nradius = 3.0\nradios = 4.0\ncustom_solver_bias = Vector2(1, 1)\n"),
	"missing.tscn": []byte("[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://nowhere.gd\" id=\"1\"]\n\n[node name=\"R\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"),
}

// TestGoodAndBroken runs the engine twice: a clean project must pass
// Files, and every planted problem must be reported at its line.
func TestGoodAndBroken(t *testing.T) {
	rep := enginecheck.Files(t, goodFiles)
	if len(rep.Files) != 6 {
		t.Errorf("checked %d files, want 6 (project, 2 scripts, .tres, 2 scenes): %+v", len(rep.Files), rep.Files)
	}
	for _, f := range rep.Files {
		if !f.Loaded {
			t.Errorf("%s did not load", f.File)
		}
	}
	if !strings.Contains(strings.Join(rep.Notes, " "), "res://icon.svg") {
		t.Errorf("notes %q do not mention the placeholder for icon.svg", rep.Notes)
	}

	rep = enginecheck.Run(t, brokenFiles, loadcheck.Options{})
	want := []struct{ file, kind, text string }{
		{"broken.tscn:9", "unknown_property", "no property postion"},
		{"broken.tscn:10", "ignored_value", "takes Vector2, the file gives Vector3"},
		{"broken.tscn:12", "dropped_node", "Orphan"},
		{"broken.tscn:4", "unknown_property", "no property extents"},
		{"broken.tscn:17", "unknown_type", "Sprite2d"},
		{"broken.tscn:21", "bad_connection", "has no method on_pressed"},
		{"broken.tscn:22", "bad_connection", "Nowhere"},
		{"broken.tscn:23", "bad_connection", "Gone"},
		{"garbage.tscn:5", "engine_error", "Parse Error"},
		{"garbage.tscn", "load_failed", ""},
		{"bad.gd:3", "engine_error", "Expected parameter name"},
		{"typed.gd:4", "engine_error", `Cannot assign a value of type "String"`},
		{"shape.tres:5", "unknown_property", "no property radios"},
		{"shape.tres:6", "ignored_value", "custom_solver_bias takes float, the file gives Vector2"},
		{"missing.tscn", "missing_dependency", "res://nowhere.gd"},
		{"project.godot", "engine_error", "res://gone.gd"},
	}
	for _, w := range want {
		found := false
		for _, p := range rep.Problems {
			loc := p.File
			if p.Line > 0 {
				loc += ":" + itoa(p.Line)
			}
			if loc == w.file && p.Kind == w.kind && strings.Contains(p.Message, w.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s problem at %s containing %q", w.kind, w.file, w.text)
		}
	}
	if t.Failed() {
		for _, p := range rep.Problems {
			t.Logf("reported: %s [%s]", p, p.Kind)
		}
	}
}

// TestProject checks a project folder on disk.
func TestProject(t *testing.T) {
	dir := t.TempDir()
	for name, data := range goodFiles {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ignored: the editor's cache folder.
	if err := os.MkdirAll(filepath.Join(dir, ".godot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".godot", "junk.tscn"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := enginecheck.Project(t, dir)
	if len(rep.Files) != 6 {
		t.Errorf("checked %d files, want 6", len(rep.Files))
	}
}

func itoa(n int) string {
	return strconv.Itoa(n)
}

// ownFiles is a project with what real projects have and the check must
// take without a word: an abstract class declared on one line.
var ownFiles = map[string]string{
	"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"own\"\nrun/main_scene=\"res://main.tscn\"\n",
	"shape.gd":      "@abstract class_name Shape extends Node2D\n\n@abstract func area() -> float\n",
	"square.gd":     "class_name Square extends Shape\n\nvar side := 2.0\n\nfunc area() -> float:\n\treturn side * side\n",
	"override.cfg":  "[application]\n\nconfig/name=\"overridden\"\n\n[autoload]\n\nSquares=\"*res://square.gd\"\n",
	"nav.tscn":      "[gd_scene format=3]\n\n[ext_resource type=\"NavigationPolygon\" path=\"res://nav/poly.res\" id=\"1\"]\n\n[node name=\"Nav\" type=\"NavigationRegion2D\"]\nnavigation_polygon = ExtResource(\"1\")\n",
	"main.tscn":     "[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://square.gd\" id=\"1\"]\n\n[node name=\"Main\" type=\"Node2D\"]\nscript = ExtResource(\"1\")\n",
}

// TestProjectOwnFiles checks a project folder whose files once drew false
// reports; it must check clean.
func TestProjectOwnFiles(t *testing.T) {
	res := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-navigation", "navigation_polygon.res")
	poly, err := os.ReadFile(res)
	if err != nil {
		testenv.Missing(t, "the shared project corpus ("+res+")", "check out the shared fixtures beside the repository")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "nav"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nav", "poly.res"), poly, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, data := range ownFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := enginecheck.Project(t, dir)
	for _, f := range rep.Files {
		if !f.Loaded {
			t.Errorf("%s did not load", f.File)
		}
	}
}
