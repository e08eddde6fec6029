package loadcheck

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

func packFile(t *testing.T, files []webgodot.PackFile, name string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Path == name {
			return f.Data
		}
	}
	t.Fatalf("pack has no %s", name)
	return nil
}

func TestPlan(t *testing.T) {
	files := map[string][]byte{
		"project.godot": []byte("config_version=5\n\n[autoload]\n\nA=\"*res://a.gd\"\n\n[display]\n\nx=1\n"),
		"main.tscn": []byte(`[gd_scene format=3]

[ext_resource type="Texture2D" path="res://art/icon.png" id="1"]
[ext_resource type="Script" path="res://gone.gd" id="2"]
[ext_resource type="PackedScene" path="res://model.glb" id="3"]
[ext_resource type="AudioStream" path="res://s.ogg" id="4"]

[sub_resource type="RectangleShape2D" id="s1"]
size = Vector2(1, 1)

[node name="Main" type="Node2D"]
script = ExtResource("2")

[node name="Model" parent="." instance=ExtResource("3")]
`),
		"player.gd":    []byte("class_name Player\nextends CharacterBody2D\n"),
		"plain.gd":     []byte("extends Node\n"),
		"shape.gd":     []byte("@abstract class_name Shape extends Node2D\n"),
		"art/icon.png": []byte("\x89PNG..."),
		"notes.json":   []byte("{}"),
		"override.cfg": []byte("[display]\n\nwindow/size/viewport_width=640\n\n[autoload]\n\nB=\"*res://b.gd\"\n"),
	}
	p, err := plan(files, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := webgodot.BuildPCK(webgodot.RuntimeVersion, p.files); err != nil {
		t.Fatalf("the pack does not build: %v", err)
	}
	// The project's override.cfg keeps its settings, without autoloads,
	// and the checker's main scene comes last.
	if ov := string(packFile(t, p.files, "override.cfg")); !strings.Contains(ov, "window/size/viewport_width=640") ||
		!strings.Contains(ov, "; B=") || strings.Index(ov, "res://webgodot/main.tscn") < strings.Index(ov, "viewport_width") {
		t.Errorf("override.cfg:\n%s", ov)
	}
	// Autoloads are commented out, keeping the line count.
	proj := packFile(t, p.files, "project.godot")
	if bytes.Count(proj, []byte("\n")) != bytes.Count(files["project.godot"], []byte("\n")) ||
		!bytes.Contains(proj, []byte("; A=\"*res://a.gd\"")) || !bytes.Contains(proj, []byte("\nx=1\n")) {
		t.Errorf("packed project.godot:\n%s", proj)
	}
	if !strings.Contains(string(packFile(t, p.files, "override.cfg")), "res://webgodot/main.tscn") {
		t.Error("override.cfg does not make the checker the main scene")
	}
	// Imported files: placeholders with a remap, the source left out.
	if !slices.Equal(p.stubbed, []string{"res://art/icon.png", "res://model.glb", "res://s.ogg"}) {
		t.Errorf("stubbed %v", p.stubbed)
	}
	stub := stubFor(t, p.files, "art/icon.png.import")
	if !strings.Contains(string(packFile(t, p.files, stub)), "PlaceholderTexture2D") {
		t.Errorf("icon.png remaps to %s, which is not a placeholder texture", stub)
	}
	if !strings.Contains(string(packFile(t, p.files, stubFor(t, p.files, "model.glb.import"))), `type="Node3D"`) {
		t.Error("the model's placeholder is not a Node3D scene")
	}
	for _, f := range p.files {
		if f.Path == "art/icon.png" {
			t.Error("the imported source itself was packed")
		}
	}
	// The class cache lists class_name scripts only.
	cache := string(packFile(t, p.files, ".godot/global_script_class_cache.cfg"))
	if !strings.Contains(cache, `"class": &"Player"`) || !strings.Contains(cache, `"base": &"CharacterBody2D"`) || strings.Contains(cache, "plain.gd") ||
		!strings.Contains(cache, "{\n\"base\": &\"Node2D\",\n\"class\": &\"Shape\",\n\"icon\": \"\",\n\"is_abstract\": true,") {
		t.Errorf("class cache:\n%s", cache)
	}
	// Missing files, opaque instances, and the manifest order.
	if !p.missing["res://gone.gd"] || len(p.missing) != 1 {
		t.Errorf("missing %v", p.missing)
	}
	if !slices.Equal(p.opaque["main.tscn"], []string{"Model"}) {
		t.Errorf("opaque %v", p.opaque)
	}
	var m manifest
	if err := json.Unmarshal(packFile(t, p.files, "webgodot/manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, f := range m.Files {
		order = append(order, string(f.Kind)+":"+f.Path)
	}
	want := []string{"project:res://project.godot", "script:res://plain.gd", "script:res://player.gd", "script:res://shape.gd", "scene:res://main.tscn"}
	if !slices.Equal(order, want) {
		t.Errorf("manifest order %v, want %v", order, want)
	}
	if len(m.Files[4].Subs) != 1 || m.Files[4].Subs[0].ID != "s1" || !slices.Equal(m.Files[4].Subs[0].Props, []string{"size"}) {
		t.Errorf("sub-resources %+v", m.Files[4].Subs)
	}
	if !p.mentionsMissing("Cannot open file 'res://gone.gd'.", files) || p.mentionsMissing("in res://main.tscn:3", files) ||
		p.mentionsMissing("res://art/icon.png", files) {
		t.Error("mentionsMissing misclassifies")
	}
	if !p.underOpaque("main.tscn", "Model/Skeleton3D") || p.underOpaque("main.tscn", "Modelling") {
		t.Error("underOpaque misclassifies")
	}

	// Without project.godot the checker brings its own.
	delete(files, "project.godot")
	p, err = plan(files, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(packFile(t, p.files, "project.godot")), "res://webgodot/main.tscn") {
		t.Error("no minimal project.godot")
	}
	// The checker's folder is reserved.
	if _, err := plan(map[string][]byte{"webgodot/x.gd": nil}, false, false); err == nil {
		t.Error("a file under webgodot/ was accepted")
	}
}

// stubFor returns the pack path an .import file remaps to.
func stubFor(t *testing.T, files []webgodot.PackFile, importFile string) string {
	t.Helper()
	imp := string(packFile(t, files, importFile))
	return strings.TrimSuffix(strings.TrimPrefix(imp[strings.Index(imp, "path=\"")+6:], "res://"), "\"\n")
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]Kind{
		"project.godot": KindProject, "a/b.tscn": KindScene, "x.tres": KindResource, "s.gd": KindScript,
		"x.png": "", "x.gdshader": "", "export_presets.cfg": "",
	} {
		if got := KindOf(in); got != want {
			t.Errorf("KindOf(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestLineIndex(t *testing.T) {
	src := `[gd_scene format=3]

[sub_resource type="RectangleShape2D" id="a"]
size = Vector2(1, 1)
extents = Vector2(1, 1)

[node name="Root" type="Node2D"]
position = Vector2(0, 0)

[node name="Child" type="Node2D" parent="."]
text = "multi
line"
postion = Vector2(1, 1)

[connection signal="x" from="." to="." method="y"]
`
	x := newLineIndex(map[string][]byte{"s.tscn": []byte(src)})
	for _, tt := range []struct {
		got, want int
		what      string
	}{
		{x.nodeLine("s.tscn", 0), 7, "node 0"},
		{x.nodeLine("s.tscn", 1), 10, "node 1"},
		{x.nodeLine("s.tscn", 2), 0, "no node 2"},
		{x.propertyLine("s.tscn", 1, "postion"), 13, "property after a multi-line string"},
		{x.propertyLine("s.tscn", 1, "absent"), 10, "absent property: the node's line"},
		{x.keyedLine("s.tscn", "sub:a", "extents"), 5, "sub-resource property"},
		{x.keyedLine("s.tscn", "sub:zz", "x"), 0, "unknown sub-resource"},
		{x.nodeLine("other.tscn", 0), 0, "unknown file"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: line %d, want %d", tt.what, tt.got, tt.want)
		}
	}
}

// FuzzPlan feeds arbitrary scene text to the planner: it must never
// panic, and the manifest must stay valid JSON.
func FuzzPlan(f *testing.F) {
	f.Add([]byte("[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://a.png\" id=\"1\"]\n\n[node name=\"R\" type=\"Node\"]\n"))
	f.Add([]byte("[gd_scene format=3]\n[node name=\"I\" instance=ExtResource(\"9\")]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := plan(map[string][]byte{"a.tscn": src, "b.tres": src, "c.gd": src, "project.godot": src}, true, false)
		if err != nil {
			return
		}
		var m manifest
		for _, pf := range p.files {
			if pf.Path == "webgodot/manifest.json" {
				if err := json.Unmarshal(pf.Data, &m); err != nil {
					t.Fatalf("manifest is not JSON: %v", err)
				}
			}
		}
		newLineIndex(map[string][]byte{"a.tscn": src}).propertyLine("a.tscn", 0, "x")
		if _, err := webgodot.BuildPCK(webgodot.RuntimeVersion, p.files); err != nil {
			t.Fatalf("the plan does not pack: %v", err)
		}
	})
}

// TestPlanForCheck: a check keeps the project's autoloads, gives assets
// that only scripts load a placeholder, and leaves editor-only files
// unchecked, naming why.
func TestPlanForCheck(t *testing.T) {
	files := map[string][]byte{
		"project.godot":          []byte("config_version=5\n\n[autoload]\n\nA=\"*res://a.gd\"\n"),
		"override.cfg":           []byte("[autoload]\n\nB=\"res://b.gd\"\n"),
		"a.gd":                   []byte("extends Node\n"),
		"b.gd":                   []byte("extends Node\n\n# EditorInterface in a comment is not a use.\nvar s := \"EditorInterface\"\n"),
		"hud.gd":                 []byte("extends Node\n\nvar a := preload(\"icons/a.png\")\nvar b = load('res://s.ogg')\n"),
		"tool.gd":                []byte("@tool\nextends EditorScript\n"),
		"game_uses_editor.gd":    []byte("extends Node\n\nfunc f():\n\tEditorInterface.get_edited_scene_root()\n"),
		"addons/x/plugin.gd":     []byte("@tool\nextends EditorPlugin\n"),
		"addons/x/base.gd":       []byte("class_name XBase\nextends Node\n\nfunc fs():\n\treturn EditorInterface.get_resource_filesystem()\n"),
		"addons/x/child.gd":      []byte("extends XBase\n"),
		"addons/x/user.gd":       []byte("extends Node\n\nconst P = preload(\"plugin.gd\")\n"),
		"addons/x/clean.gd":      []byte("extends Node\n\nfunc ei():\n\treturn load(\"res://addons/x/plugin.gd\").new()\n\n# extends EditorPlugin\nvar EditorGlobals = load(\"res://addons/x/globals.gd\")\nvar s := \"EditorInterface\"\nclass EditorButton:\n\tvar x = 1\n\nfunc f(o):\n\treturn [EditorGlobals.x, o.EditorSettings, EditorButton.new()]\n"),
		"addons/x/dock.tscn":     []byte("[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://addons/x/child.gd\" id=\"1\"]\n\n[node name=\"D\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"),
		"game_child_of_addon.gd": []byte("extends \"res://addons/x/base.gd\"\n"),
		"scene_using_addon.tscn": []byte("[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://addons/x/child.gd\" id=\"1\"]\n\n[node name=\"D\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"),
	}
	p, err := plan(files, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if pg := string(packFile(t, p.files, "project.godot")); !strings.Contains(pg, "\nA=\"*res://a.gd\"") {
		t.Errorf("project.godot lost its autoload:\n%s", pg)
	}
	if ov := string(packFile(t, p.files, "override.cfg")); !strings.Contains(ov, "\nB=\"res://b.gd\"") {
		t.Errorf("override.cfg lost its autoload:\n%s", ov)
	}
	if !slices.Equal(p.stubbed, []string{"res://icons/a.png", "res://s.ogg"}) {
		t.Errorf("placeholders %v, want the two assets hud.gd loads", p.stubbed)
	}
	want := []string{
		"addons/x/base.gd: skipped: editor-only (uses EditorInterface)",
		"addons/x/child.gd: skipped: editor-only (extends editor-only addons/x/base.gd)",
		"addons/x/dock.tscn: skipped: editor-only (needs editor-only addons/x/child.gd)",
		"addons/x/plugin.gd: skipped: editor-only (extends EditorPlugin)",
		"addons/x/user.gd: skipped: editor-only (needs editor-only addons/x/plugin.gd)",
		"game_child_of_addon.gd: skipped: editor-only (extends editor-only addons/x/base.gd)",
		"tool.gd: skipped: editor-only (extends EditorScript)",
	}
	var skipped []string
	for _, s := range p.skipped {
		skipped = append(skipped, s.String())
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
	var checked []string
	for _, f := range p.checked {
		checked = append(checked, f.Path)
	}
	for _, c := range []string{"res://b.gd", "res://game_uses_editor.gd", "res://addons/x/clean.gd", "res://scene_using_addon.tscn"} {
		if !slices.Contains(checked, c) {
			t.Errorf("%s is not checked; checked: %v", c, checked)
		}
	}
}
