package enginecheck_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
)

// realProjectFiles is a project with what real projects have and Godot
// takes without a word; the check must report none of it. Each entry once
// drew a false report.
var realProjectFiles = map[string]string{
	// Autoloads as the project defines them: a singleton the scripts use
	// by name, a plain autoload (a node, no global name), one from
	// override.cfg, and a commented-out one that must not load (its
	// _ready would log an error).
	"project.godot": `config_version=5

[application]

config/name="real"
run/main_scene="res://main.tscn"
config/features=PackedStringArray("4.6")

[autoload]

Game="*res://autoload/game.gd"
Plain="res://autoload/plain.gd"
; Off="*res://autoload/off.gd"
`,
	"override.cfg":      "[autoload]\n\nFromOverride=\"*res://autoload/over.gd\"\n",
	"autoload/game.gd":  "extends Node\n\nvar score := 3\n",
	"autoload/plain.gd": "extends Node\n\nfunc _ready() -> void:\n\tif get_node_or_null(\"/root/Plain\") != self:\n\t\tpush_error(\"Plain is not at /root/Plain\")\n",
	"autoload/over.gd":  "extends Node\n\nvar level := \"one\"\n",
	"autoload/off.gd":   "extends Node\n\nfunc _ready() -> void:\n\tpush_error(\"the commented-out autoload Off was loaded\")\n",
	"uses_autoloads.gd": "extends Node\n\nfunc total() -> int:\n\treturn Game.score + FromOverride.level.length()\n",
	// Assets only scripts load, relative and absolute: placeholders too.
	"ui/hud.gd":           "extends Node2D\n\nvar icon := preload(\"res://art/only_script.png\")\nvar rel := preload(\"badge.png\")\nvar beep = load(\"res://art/beep.wav\")\n",
	"ui/badge.png":        "\x89PNG",
	"art/only_script.png": "\x89PNG",
	"art/beep.wav":        "RIFF",
	// Exported node references as the editor writes them.
	"aim.gd": "extends Node2D\n\n@export var target: Node2D\n@export var many: Array[Node]\n",
	// Exported variables of a script whose _get_property_list fails.
	"props.gd": "extends Node2D\n\n@export var speed := 1.0\n\nfunc _get_property_list() -> Array[Dictionary]:\n\tvar none = null\n\treturn none.list\n",
	"main.tscn": `[gd_scene format=3]

[ext_resource type="Script" path="res://ui/hud.gd" id="1"]
[ext_resource type="Script" path="res://aim.gd" id="2"]
[ext_resource type="Script" path="res://props.gd" id="3"]

[node name="Main" type="Node2D"]
script = ExtResource("1")

[node name="Aim" type="Node2D" parent="." node_paths=PackedStringArray("target", "many")]
script = ExtResource("2")
target = NodePath("../Other")
many = [NodePath("../Other"), NodePath("..")]

[node name="Props" type="Node2D" parent="."]
script = ExtResource("3")
speed = 5.0

[node name="Other" type="Node2D" parent="."]
`,
	// Editor-only scripts: the web runtime has no editor classes. They are
	// skipped with a note, as is what needs them.
	"addons/tooly/plugin.cfg": "[plugin]\n\nname=\"tooly\"\nscript=\"plugin.gd\"\n",
	"addons/tooly/plugin.gd":  "@tool\nextends EditorPlugin\n\nfunc _enter_tree() -> void:\n\tadd_control_to_bottom_panel(preload(\"res://addons/tooly/dock.tscn\").instantiate(), \"Tooly\")\n",
	"addons/tooly/fs.gd":      "class_name ToolyFs\nextends RefCounted\n\nstatic func scan() -> void:\n\tEditorInterface.get_resource_filesystem().scan()\n",
	"addons/tooly/dock.gd":    "@tool\nextends Control\n\nfunc _on_scan_pressed() -> void:\n\tToolyFs.scan()\n",
	// Loads the editor-only fs.gd only when it runs, to compile without
	// the editor: checked, and fs.gd's errors are not its own.
	"addons/tooly/cursor.gd":   "extends Node\n\nvar fs = load(\"res://addons/tooly/fs.gd\")\n",
	"addons/tooly/cursor.tscn": "[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://addons/tooly/cursor.gd\" id=\"1\"]\n\n[node name=\"Cursor\" type=\"Node\"]\nscript = ExtResource(\"1\")\n",
	"addons/tooly/dock.tscn": `[gd_scene format=3]

[ext_resource type="Script" path="res://addons/tooly/dock.gd" id="1"]

[node name="Dock" type="Control"]
script = ExtResource("1")

[node name="Scan" type="Button" parent="."]

[connection signal="pressed" from="Scan" to="." method="_on_scan_pressed"]
`,
}

// TestOnlyWhatIsWrong checks realProjectFiles in one engine run: nothing
// is reported, every file that is not editor-only loads, and the
// editor-only ones are listed as skipped.
func TestOnlyWhatIsWrong(t *testing.T) {
	files := map[string][]byte{}
	for k, v := range realProjectFiles {
		files[k] = []byte(v)
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{})
	// props.gd's _get_property_list is broken, and the engine says so;
	// that is the one problem, and speed is not reported unknown.
	for _, p := range rep.Problems {
		if p.File == "main.tscn" && strings.Contains(p.Message, "Wrong type for _get_property_list") {
			continue
		}
		t.Errorf("reported: %s [%s]", p, p.Kind)
	}
	if len(rep.Problems) != 1 {
		t.Errorf("%d problems, want 1 (the broken _get_property_list)", len(rep.Problems))
	}
	editorOnly := map[string]bool{"addons/tooly/plugin.gd": true, "addons/tooly/fs.gd": true, "addons/tooly/dock.gd": true, "addons/tooly/dock.tscn": true}
	for _, c := range []string{"addons/tooly/cursor.gd", "addons/tooly/cursor.tscn"} {
		if !slices.ContainsFunc(rep.Files, func(f loadcheck.FileResult) bool { return f.File == c }) {
			t.Errorf("%s was not checked", c)
		}
	}
	for _, f := range rep.Files {
		if !f.Loaded {
			t.Errorf("%s did not load", f.File)
		}
		if editorOnly[f.File] {
			t.Errorf("%s is editor-only, yet it was checked", f.File)
		}
	}
	var list []string
	for _, s := range rep.Skipped {
		list = append(list, s.String())
	}
	skipped := strings.Join(list, "\n")
	for f := range editorOnly {
		if !strings.Contains(skipped, f+": skipped: editor-only") {
			t.Errorf("skipped list lacks %s:\n%s", f, skipped)
		}
	}
	for _, want := range []string{"res://art/only_script.png", "res://ui/badge.png", "res://art/beep.wav"} {
		if !strings.Contains(strings.Join(rep.Notes, " "), want) {
			t.Errorf("notes %q do not mention the placeholder for %s", rep.Notes, want)
		}
	}
	if t.Failed() {
		for _, l := range rep.Log {
			t.Logf("[%s] %s", l.Stream, l.Text)
		}
	}
}

// TestResultsAsSoonAsReported: an engine that hangs on its way out (an
// autoload's _exit_tree that never returns) still gives its results at
// once, not when the deadline ends the run.
func TestResultsAsSoonAsReported(t *testing.T) {
	files := map[string][]byte{
		"project.godot": []byte("config_version=5\n\n[application]\n\nconfig/name=\"hang\"\n\n[autoload]\n\nHang=\"*res://hang.gd\"\nQuit=\"*res://quit.gd\"\n"),
		"hang.gd":       []byte("extends Node\n\nfunc _exit_tree() -> void:\n\twhile true:\n\t\tpass\n"),
		// An autoload that quits at once does not stop the check either.
		"quit.gd":   []byte("extends Node\n\nfunc _ready() -> void:\n\tget_tree().quit()\n"),
		"main.tscn": []byte("[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\npostion = Vector2(1, 2)\n"),
	}
	enginecheck.Runner(t) // the browser start is not the run's
	start := time.Now()
	rep, err := loadcheck.Check(context.Background(), enginecheck.Runner(t), files, loadcheck.Options{Timeout: 60 * time.Second})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("check: %v (after %s)", err, took)
	}
	if took > 30*time.Second {
		t.Errorf("the check took %s: it waited for the engine to exit", took)
	}
	if len(rep.ProblemsIn("main.tscn")) != 1 {
		t.Errorf("problems %v, want main.tscn's postion", rep.Problems)
	}
}

// TestArtifactsSetAside checks, in one engine run, a Godot 4.7 project
// with what is not its defect: a node of a class newer than the engine
// (a note, not an error), and a scene inheriting an imported model whose
// placeholder lacks the model's nodes (no "re-save this scene" warning).
// A broken script that two others preload is reported once.
func TestArtifactsSetAside(t *testing.T) {
	files := map[string][]byte{
		"project.godot": []byte("config_version=5\n\n[application]\n\nconfig/name=\"newer\"\nconfig/features=PackedStringArray(\"4.7\", \"Forward Plus\")\n"),
		"light.gd":      []byte("extends Node3D\n"),
		"lights.tscn": []byte(`[gd_scene format=3]

[ext_resource type="Script" path="res://light.gd" id="1"]

[node name="Lights" type="Node3D"]

[node name="Area" type="AreaLight3D" parent="."]
script = ExtResource("1")
`),
		"enemy.tscn": []byte(`[gd_scene format=3]

[ext_resource type="PackedScene" path="res://enemy.glb" id="1"]

[node name="Enemy" type="RigidBody3D" unique_id=100]

[node name="Model" parent="." unique_id=200 instance=ExtResource("1")]

[node name="Skeleton3D" parent="Model/Skeleton" parent_id_path=PackedInt32Array(200, 300) index="0" unique_id=500]

[node name="Ray" type="RayCast3D" parent="Model/Skeleton" parent_id_path=PackedInt32Array(200, 300) index="1" unique_id=400]

[node name="AnimationPlayer" parent="Model" index="1" unique_id=600]
`),
		"game.tscn": []byte(`[gd_scene format=3]

[ext_resource type="PackedScene" path="res://enemy.tscn" id="1"]

[node name="Game" type="Node3D"]

[node name="Enemy" parent="." instance=ExtResource("1")]
`),
		"broken.gd": []byte("class_name Broken\nextends Node\n\nfunc f(:\n\tpass\n"),
		"a.gd":      []byte("extends Broken\n"),
		"b.gd":      []byte("extends Node\n\nfunc f() -> void:\n\tBroken.new().f()\n"),
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{})
	parseErrors := 0
	for _, p := range rep.Problems {
		switch {
		case p.File == "broken.gd" && p.Line == 4:
			parseErrors++
		case p.File == "broken.gd" || p.File == "a.gd" || p.File == "b.gd":
			// the script does not compile; its users fail with it
		default:
			t.Errorf("reported: %s [%s]", p, p.Kind)
		}
	}
	if parseErrors != 1 {
		t.Errorf("broken.gd:4 reported %d times, want once", parseErrors)
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "lights.tscn uses AreaLight3D, unknown to Godot 4.6") {
		t.Errorf("notes do not set AreaLight3D aside:\n%s", notes)
	}
}
