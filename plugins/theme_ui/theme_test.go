package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func requireEngine(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var subIDs = regexp.MustCompile(`((?:StyleBox|Theme)[A-Za-z0-9]*)_[a-z0-9]{5}`)

func normalized(s string) string { return subIDs.ReplaceAllString(s, "${1}_x") }

// sameJSON compares command params as the wire carries them.
func sameJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// engineProbe has the engine load the scene at scene, and prints
// for each Control named in nodes its overrides as the engine holds them.
func engineProbe(t *testing.T, dir, script string) []string {
	t.Helper()
	files := map[string][]byte{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(rel, ".godot") {
			return nil
		}
		b, _ := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	pack := webgodot.CheckerScene(script)
	for k, v := range files {
		pack = append(pack, webgodot.PackFile{Path: k, Data: v})
	}
	pack = append(pack, webgodot.PackFile{Path: "override.cfg", Data: []byte(webgodot.MainSceneOverride())},
		webgodot.PackFile{Path: ".godot/global_script_class_cache.cfg", Data: []byte("list = []\n")})
	res, err := enginecheck.Runner(t).Run(context.Background(), pack)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range res.Lines {
		if s, ok := strings.CutPrefix(l.Text, "PROBE "); ok {
			out = append(out, s)
		}
	}
	return out
}

// Overrides on the Controls of gui-theming_override: colors, font sizes
// and a StyleBoxFlat written as the editor writes them (checked against
// the engine's own save of the same edit), read back by
// get_node_overrides, loaded by the engine with every value, and undone
// byte for byte.
func TestNodeOverrides(t *testing.T) {
	dir := plugintest.CorpusProject(t, "gui-theming_override")
	orig := readFile(t, dir, "test.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	btn := "Panel/MarginContainer/VBoxContainer/Button"
	r := plugintest.Call(t, h, "set_color", map[string]any{"node_path": btn, "name": "font_color", "color": "#ff8000", "scene": "res://test.tscn"})
	if r["property"] != "theme_override_colors/font_color" {
		t.Errorf("set_color: %v", r)
	}
	// Godot 3's spelling is mapped, with a note.
	r = plugintest.Call(t, h, "set_color", map[string]any{"node_path": btn, "name": "custom_colors/font_hover_color", "color": []any{0, 1, 0, 1}, "scene": "res://test.tscn"})
	if r["property"] != "theme_override_colors/font_hover_color" || !strings.Contains(r["note"].(string), "Godot 3") {
		t.Errorf("set_color (Godot 3 name): %v", r)
	}
	plugintest.Must(t, h, "set_font_size", map[string]any{"node_path": btn, "name": "font_size", "size": 22, "scene": "res://test.tscn"})
	plugintest.Must(t, h, "set_stylebox", map[string]any{"node_path": btn, "name": "normal", "scene": "res://test.tscn",
		"properties": map[string]any{"bg_color": "#336699", "corner_radius_all": 6, "border_width_all": 2, "border_color": [4]float64{1, 1, 1, 1}}})
	plugintest.Must(t, h, "set_stylebox", map[string]any{"node_path": "Panel", "name": "panel", "stylebox_type": "StyleBoxEmpty", "scene": "res://test.tscn"})
	plugintest.Must(t, h, "set_stylebox", map[string]any{"node_path": "Panel/MarginContainer/VBoxContainer/HSeparator", "name": "separator", "stylebox_type": "StyleBoxLine",
		"properties": map[string]any{"color": "#ff0000", "thickness": 3}, "scene": "res://test.tscn"})
	got := readFile(t, dir, "test.tscn")
	for _, want := range []string{
		"[sub_resource type=\"StyleBoxFlat\" id=\"StyleBoxFlat_x\"]\nbg_color = Color(0.2, 0.4, 0.6, 1)\nborder_width_left = 2\nborder_width_top = 2\nborder_width_right = 2\nborder_width_bottom = 2\nborder_color = Color(1, 1, 1, 1)\ncorner_radius_top_left = 6\ncorner_radius_top_right = 6\ncorner_radius_bottom_right = 6\ncorner_radius_bottom_left = 6\n",
		"[sub_resource type=\"StyleBoxEmpty\" id=\"StyleBoxEmpty_x\"]\n",
		"[sub_resource type=\"StyleBoxLine\" id=\"StyleBoxLine_x\"]\ncolor = Color(1, 0, 0, 1)\nthickness = 3\n",
		"theme_override_colors/font_color = Color(1, 0.5019608, 0, 1)\ntheme_override_colors/font_hover_color = Color(0, 1, 0, 1)\ntheme_override_font_sizes/font_size = 22\ntheme_override_styles/normal = SubResource(\"StyleBoxFlat_x\")\n",
		"theme_override_styles/panel = SubResource(\"StyleBoxEmpty_x\")\n",
		"theme_override_styles/separator = SubResource(\"StyleBoxLine_x\")\n",
	} {
		if !strings.Contains(normalized(got), want) {
			t.Errorf("test.tscn lacks\n%s", want)
		}
	}
	if t.Failed() {
		t.Logf("test.tscn:\n%s", got)
	}
	o := plugintest.CallAs[overridesResult](t, h, "get_node_overrides", map[string]any{"node_path": btn, "scene": "res://test.tscn"})
	if len(o.Colors) != 2 || o.FontSizes["font_size"] != 22.0 || len(o.Styleboxes) != 1 || o.Styleboxes[0].Type != "StyleBoxFlat" ||
		o.Styleboxes[0].Properties["corner_radius_top_left"] != 6.0 || o.Class != "Button" {
		t.Errorf("get_node_overrides: %+v", o)
	}
	requireEngine(t)
	enginecheck.Project(t, dir)
	lines := engineProbe(t, dir, `extends Node
func _ready():
	var s = load("res://test.tscn").instantiate()
	var b = s.get_node("Panel/MarginContainer/VBoxContainer/Button")
	var sb = b.get_theme_stylebox("normal")
	print("PROBE %s %s %d %s %s %d %d" % [b.get_theme_color("font_color").to_html(), b.get_theme_color("font_hover_color").to_html(), b.get_theme_font_size("font_size"), sb.get_class(), sb.bg_color.to_html(), sb.corner_radius_bottom_left, sb.border_width_top])
	print("PROBE %s %s" % [s.get_node("Panel").get_theme_stylebox("panel").get_class(), s.get_node("Panel/MarginContainer/VBoxContainer/HSeparator").get_theme_stylebox("separator").thickness])
	get_tree().quit()
`)
	want := []string{"ff8000ff 00ff00ff 22 StyleBoxFlat 336699ff 6 2", "StyleBoxEmpty 3"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("the engine's overrides:\n got %q\nwant %q", lines, want)
	}
	if _, err := h.Workspace().Undo(context.Background(), 6, false); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, dir, "test.tscn"); b != orig {
		t.Errorf("undo did not restore test.tscn byte for byte")
	}
}

// The engine's save of a Theme with these items (Godot 4.6's
// ResourceSaver): items sorted by key, inline styleboxes.
const engineTheme = `[gd_resource type="Theme" format=3 uid="uid://UID"]

[sub_resource type="StyleBoxFlat" id="StyleBoxFlat_x"]
bg_color = Color(0.2, 0.3, 0.4, 1)
border_width_left = 2
border_width_top = 2
border_width_right = 2
border_width_bottom = 2
corner_radius_top_left = 4

[sub_resource type="StyleBoxEmpty" id="StyleBoxEmpty_x"]

[resource]
Button/colors/font_color = Color(1, 0, 0, 1)
Button/font_sizes/font_size = 20
Button/styles/normal = SubResource("StyleBoxFlat_x")
Label/colors/font_color = Color(0, 1, 0, 1)
Panel/styles/panel = SubResource("StyleBoxEmpty_x")
`

var uidRe = regexp.MustCompile(`uid="uid://[a-z0-9]+"`)

// create with save_path writes a Theme .tres and assigns it; the items
// set on it land as the engine saves them (sub-resources stay in the
// order they were added, which is the saver's first-use order here: a
// stylebox added later under a key that sorts earlier is declared after
// the older ones, which the engine loads the same and its next save
// reorders); the engine loads the theme
// and the scene with every value; undo removes the file and restores the
// scene.
func TestThemeResource(t *testing.T) {
	dir := plugintest.CorpusProject(t, "gui-theming_override")
	orig := readFile(t, dir, "test.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	c := plugintest.CallAs[createResult](t, h, "create", map[string]any{"node_path": "Panel", "save_path": "res://ui/theme.tres", "scene": "res://test.tscn"})
	if !c.Created || c.ThemePath != "res://ui/theme.tres" || c.NodePath != "Panel" {
		t.Errorf("create: %+v", c)
	}
	scene := readFile(t, dir, "test.tscn")
	if !strings.Contains(scene, `[ext_resource type="Theme" uid="uid://`) || !strings.Contains(scene, `path="res://ui/theme.tres" id="`) || !strings.Contains(scene, "theme = ExtResource(\"") {
		t.Errorf("create did not assign the theme:\n%s", scene)
	}
	tp := map[string]any{"theme_path": "res://ui/theme.tres"}
	with := func(m map[string]any) map[string]any {
		for k, v := range tp {
			m[k] = v
		}
		return m
	}
	plugintest.Must(t, h, "set_color", with(map[string]any{"theme_type": "Label", "name": "font_color", "color": "#00ff00"}))
	plugintest.Must(t, h, "set_font_size", with(map[string]any{"theme_type": "Button", "name": "font_size", "size": 20}))
	plugintest.Must(t, h, "set_stylebox", with(map[string]any{"theme_type": "Button", "name": "normal", "properties": map[string]any{"bg_color": []any{0.2, 0.3, 0.4, 1}, "corner_radius_top_left": 4, "border_width_all": 2}}))
	plugintest.Must(t, h, "set_color", with(map[string]any{"theme_type": "Button", "name": "font_color", "color": "red"}))
	plugintest.Must(t, h, "set_stylebox", with(map[string]any{"theme_type": "Panel", "name": "panel", "stylebox_type": "StyleBoxEmpty"}))
	got := readFile(t, dir, "ui/theme.tres")
	if normalized(uidRe.ReplaceAllString(got, `uid="uid://UID"`)) != engineTheme {
		t.Errorf("theme.tres:\n%s\nwant:\n%s", got, engineTheme)
	}
	// Replacing a stylebox drops the old sub-resource.
	plugintest.Must(t, h, "set_stylebox", with(map[string]any{"theme_type": "Panel", "name": "panel", "properties": map[string]any{"bg_color": "#000000"}}))
	if got := readFile(t, dir, "ui/theme.tres"); strings.Contains(got, "StyleBoxEmpty") || strings.Count(got, "StyleBoxFlat\"") != 2 {
		t.Errorf("after replacing Panel/styles/panel:\n%s", got)
	}
	// A type variation is taken unchecked, with a note; a class checks.
	r := plugintest.Call(t, h, "set_color", with(map[string]any{"theme_type": "TitleLabel", "name": "font_color", "color": "#ffffff"}))
	if !strings.Contains(r["note"].(string), "type variation") {
		t.Errorf("variation: %v", r)
	}
	plugintest.Refused(t, h, "set_color", with(map[string]any{"theme_type": "Button", "name": "font_colour", "color": "#ffffff"}), sdk.CodeInvalidArgument, "did you mean font_color")
	list := plugintest.CallAs[overridesResult](t, h, "get_node_overrides", tp)
	if len(list.Types) != 4 || list.Types["Button"].FontSizes["font_size"] != 20.0 || list.Types["TitleLabel"].Colors["font_color"] == nil {
		t.Errorf("theme items: %+v", list.Types)
	}
	requireEngine(t)
	enginecheck.Project(t, dir)
	lines := engineProbe(t, dir, `extends Node
func _ready():
	var th = load("res://ui/theme.tres")
	print("PROBE %s %d %s %s %s" % [th.get_color("font_color", "Button").to_html(), th.get_font_size("font_size", "Button"), th.get_stylebox("normal", "Button").bg_color.to_html(), th.get_color("font_color", "TitleLabel").to_html(), th.get_stylebox("panel", "Panel").get_class()])
	var s = load("res://test.tscn").instantiate()
	print("PROBE %s" % s.get_node("Panel").theme.resource_path)
	get_tree().quit()
`)
	want := []string{"ff0000ff 20 334d66ff ffffffff StyleBoxFlat", "res://ui/theme.tres"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("the engine's theme:\n got %q\nwant %q", lines, want)
	}
	if _, err := h.Workspace().Undo(context.Background(), 8, false); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, dir, "test.tscn"); b != orig {
		t.Error("undo did not restore test.tscn byte for byte")
	}
	if _, err := os.Stat(filepath.Join(dir, "ui", "theme.tres")); !os.IsNotExist(err) {
		t.Errorf("undo left theme.tres: %v", err)
	}
}

// create without save_path embeds the Theme in the scene; the refusals
// name the argument and the fix.
func TestEmbeddedThemeAndRefusals(t *testing.T) {
	dir := plugintest.CorpusProject(t, "gui-theming_override")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	plugintest.Must(t, h, "create", map[string]any{"node_path": ".", "scene": "res://test.tscn"})
	got := readFile(t, dir, "test.tscn")
	if !strings.Contains(normalized(got), "[sub_resource type=\"Theme\" id=\"Theme_x\"]\n") || !strings.Contains(normalized(got), "theme = SubResource(\"Theme_x\")\n") {
		t.Errorf("embedded theme:\n%s", got)
	}
	btn := "Panel/MarginContainer/VBoxContainer/Button"
	sc := "res://test.tscn"
	plugintest.Refused(t, h, "set_color", map[string]any{"node_path": btn, "name": "font_colour", "color": "#fff", "scene": sc}, sdk.CodeInvalidArgument, "did you mean font_color")
	plugintest.Refused(t, h, "set_color", map[string]any{"node_path": btn, "name": "theme_override_font_sizes/font_size", "color": "#fff", "scene": sc}, sdk.CodeInvalidArgument, "set_font_size")
	plugintest.Refused(t, h, "set_color", map[string]any{"node_path": btn, "name": "font_color", "color": "nope", "scene": sc}, sdk.CodeInvalidArgument, "Required: value")
	plugintest.Refused(t, h, "set_font_size", map[string]any{"node_path": btn, "name": "font_size", "size": 0, "scene": sc}, sdk.CodeInvalidArgument, "positive")
	plugintest.Refused(t, h, "set_stylebox", map[string]any{"node_path": btn, "name": "normal", "stylebox_type": "Node", "scene": sc}, sdk.CodeInvalidArgument, "StyleBoxFlat")
	plugintest.Refused(t, h, "set_stylebox", map[string]any{"node_path": btn, "name": "normal", "properties": map[string]any{"bg_colour": "#fff"}, "scene": sc}, sdk.CodeInvalidArgument, "did you mean bg_color")
	plugintest.Refused(t, h, "set_stylebox", map[string]any{"node_path": "Panel", "name": "normal", "scene": sc}, sdk.CodeInvalidArgument, "its styles are panel")
	plugintest.Refused(t, h, "set_color", map[string]any{"node_path": "Nope", "name": "font_color", "color": "#fff", "scene": sc}, sdk.CodeNotFound, "Nope")
	plugintest.Refused(t, h, "set_color", map[string]any{"theme_path": "res://x.tres", "name": "font_color", "color": "#fff"}, sdk.CodeInvalidArgument, "theme_type")
	plugintest.Refused(t, h, "create", map[string]any{}, sdk.CodeInvalidArgument, "node_path")
	plugintest.Refused(t, h, "create", map[string]any{"node_path": ".", "save_path": "res://test.tscn", "scene": sc}, sdk.CodeInvalidArgument, "save_path")
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
}

// A Godot 3 scene's custom_* overrides are reported with their Godot 4
// names.
func TestGodot3Overrides(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n",
		"old.tscn":      "[gd_scene format=3]\n\n[node name=\"L\" type=\"Label\"]\ncustom_colors/font_color = Color(1, 0, 0, 1)\ncustom_constants/line_spacing = 4\ntheme_override_font_sizes/font_size = 12\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	o := plugintest.CallAs[overridesResult](t, h, "get_node_overrides", map[string]any{"node_path": ".", "scene": "res://old.tscn"})
	if len(o.Godot3) != 2 || o.Godot3[0].MapsTo != "theme_override_colors/font_color" || o.Godot3[1].MapsTo != "theme_override_constants/line_spacing" || o.FontSizes["font_size"] != 12.0 {
		t.Errorf("Godot 3 overrides: %+v", o)
	}
}

// Editor mode: the node tools send the addon's commands with the
// reference's params (bare item names, the *_all fields expanded); a
// Theme resource is headless only.
func TestEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_create_theme", map[string]any{"node_path": "Panel", "theme_path": "res://t.tres", "created": true}).
		Result("cmd_create_resource", map[string]any{"resource_path": "res://u.tres", "type": "Theme", "created": true}).
		Result("cmd_set_theme_color", map[string]any{"node_path": "B", "name": "font_color"}).
		Result("cmd_set_theme_font_size", map[string]any{"node_path": "B", "name": "font_size", "size": 20}).
		Result("cmd_set_theme_stylebox", map[string]any{"node_path": "B", "name": "normal", "stylebox_type": "StyleBoxFlat"}).
		Result("cmd_get_node_theme_overrides", map[string]any{"node_path": "B", "colors": map[string]any{}, "font_sizes": map[string]any{}, "styleboxes": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	plugintest.Must(t, h, "create", map[string]any{"node_path": "Panel", "save_path": "res://t.tres", "scene": "res://main.tscn"})
	plugintest.Must(t, h, "create", map[string]any{"save_path": "res://u.tres"})
	plugintest.Must(t, h, "set_color", map[string]any{"node_path": "B", "name": "custom_colors/font_color", "color": "#ff0000"})
	plugintest.Must(t, h, "set_font_size", map[string]any{"node_path": "B", "name": "font_size", "size": 20})
	plugintest.Must(t, h, "set_stylebox", map[string]any{"node_path": "B", "name": "normal", "properties": map[string]any{"bg_color": "#000000", "border_width_all": 2}})
	plugintest.Must(t, h, "get_node_overrides", map[string]any{"node_path": "B"})
	res := plugintest.Refused(t, h, "set_color", map[string]any{"theme_path": "res://t.tres", "theme_type": "Button", "name": "font_color", "color": "#fff"}, sdk.CodePreconditionFailed, "theme_path is not supported")
	if !strings.Contains(res.Text(), "Required: headless") {
		t.Errorf("refusal: %s", res.Text())
	}
	want := []sdktest.EditorCall{
		{Command: "cmd_open_scene", Params: map[string]any{"scene_path": "res://main.tscn"}},
		{Command: "cmd_create_theme", Params: map[string]any{"node_path": "Panel", "save_path": "res://t.tres"}},
		{Command: "cmd_create_resource", Params: map[string]any{"resource_path": "res://u.tres", "type": "Theme", "properties": map[string]any{}}},
		{Command: "cmd_set_theme_color", Params: map[string]any{"node_path": "B", "name": "font_color", "color": "#ff0000"}},
		{Command: "cmd_set_theme_font_size", Params: map[string]any{"node_path": "B", "name": "font_size", "size": 20}},
		{Command: "cmd_set_theme_stylebox", Params: map[string]any{"node_path": "B", "name": "normal", "stylebox_type": "StyleBoxFlat", "properties": map[string]any{
			"bg_color": "#000000", "border_width_bottom": 2, "border_width_left": 2, "border_width_right": 2, "border_width_top": 2}}},
		{Command: "cmd_get_node_theme_overrides", Params: map[string]any{"node_path": "B"}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !sameJSON(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
}

// Dry runs in both modes write and send nothing.
func TestDryRuns(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true})
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	btn := "Panel/MarginContainer/VBoxContainer/Button"
	calls := map[string]any{
		"create":        map[string]any{"node_path": "Panel", "save_path": "res://t.tres", "scene": "res://test.tscn"},
		"set_color":     map[string]any{"node_path": btn, "name": "font_color", "color": "#ff0000", "scene": "res://test.tscn"},
		"set_font_size": map[string]any{"node_path": btn, "name": "font_size", "size": 20, "scene": "res://test.tscn"},
		"set_stylebox":  map[string]any{"node_path": btn, "name": "normal", "scene": "res://test.tscn"},
	}
	plugintest.EditorDryRuns(t, he, ed, calls)
	dir := plugintest.CorpusProject(t, "gui-theming_override")
	orig := readFile(t, dir, "test.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	for tool, args := range calls {
		plugintest.DryRunIn(t, h, sdk.ModeHeadless, tool, args)
	}
	if readFile(t, dir, "test.tscn") != orig {
		t.Error("a headless dry run wrote test.tscn")
	}
	if _, err := os.Stat(filepath.Join(dir, "t.tres")); !os.IsNotExist(err) {
		t.Error("a headless dry run wrote t.tres")
	}
}

// A StyleBoxTexture's texture in a Theme is an ext_resource of the Theme
// with the image's uid; fields equal to their default are left out.
func TestStyleBoxTextureInATheme(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	plugintest.Must(t, h, "set_stylebox", map[string]any{"theme_path": "res://gui/theme.tres", "theme_type": "PanelContainer", "name": "panel",
		"stylebox_type": "StyleBoxTexture", "properties": map[string]any{"texture": "res://icon.webp", "texture_margin_all": 4, "modulate_color": "#ffffff"}})
	got := readFile(t, dir, "gui/theme.tres")
	imp := readFile(t, dir, "icon.webp.import")
	uid := imp[strings.Index(imp, "uid=\"")+5:]
	uid = uid[:strings.Index(uid, "\"")]
	for _, want := range []string{
		`[ext_resource type="Texture2D" uid="` + uid + `" path="res://icon.webp" id="`,
		"[sub_resource type=\"StyleBoxTexture\" id=\"StyleBoxTexture_",
		"texture = ExtResource(\"",
		"texture_margin_left = 4.0\ntexture_margin_top = 4.0\ntexture_margin_right = 4.0\ntexture_margin_bottom = 4.0\n",
		"PanelContainer/styles/panel = SubResource(\"StyleBoxTexture_",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("theme.tres lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "modulate_color") {
		t.Errorf("the default modulate_color was written:\n%s", got)
	}
	requireEngine(t)
	enginecheck.Project(t, dir)
}
