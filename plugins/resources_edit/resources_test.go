package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func TestReadResource(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	var out readResult
	if err := plugintest.Must(t, h, "read_resource_file", map[string]any{"path": "res://gui/theme.tres"}).Structured(&out); err != nil {
		t.Fatal(err)
	}
	if out.Type != "Theme" || out.UID != "uid://bc4kpaija14nv" || len(out.ExtResources) != 1 || out.ExtResources[0].Type != "FontFile" || len(out.SubResources) == 0 {
		t.Fatalf("read: %+v", out)
	}
	sb := out.SubResources[0]
	if sb.Type != "StyleBoxFlat" || sb.Properties["border_width_left"] != float64(1) {
		t.Errorf("sub resource: %+v", sb)
	}
	if c, ok := sb.Properties["bg_color"].(map[string]any); !ok || c["r"] != 0.18 {
		t.Errorf("bg_color: %v", sb.Properties["bg_color"])
	}
	plugintest.Refused(t, h, "read_resource_file", map[string]any{"path": "res://level/level.tscn"}, sdk.CodeInvalidArgument, "not a .tres")
	plugintest.Refused(t, h, "read_resource_file", map[string]any{"path": "res://nope.tres"}, sdk.CodeNotFound, "nope.tres")
	plugintest.Refused(t, h, "read_resource_file", map[string]any{"path": "res://a.res"}, sdk.CodeInvalidArgument, "binary")
}

func TestCreateAndSetResource(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "icon.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>`)
	plugintest.WriteFile(t, dir, "icon.svg.import", "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"uid://cbyx1p6cq8fy4\"\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	ctx := context.Background()

	res := plugintest.Must(t, h, "create_resource", map[string]any{"path": "res://ui/panel.tres", "type": "StyleBoxFlat", "properties": map[string]any{
		"bg_color": "#ff0000", "corner_radius_top_left": 4, "border_width_left": 2, "content_margin_left": 6, "resource_name": "panel",
	}}, sdktest.DryRun())
	if _, err := os.Stat(filepath.Join(dir, "ui/panel.tres")); err == nil || !strings.Contains(res.Text(), "bg_color = Color(1, 0, 0, 1)") {
		t.Fatalf("dry run wrote the file or previews nothing: %s", res.Text())
	}
	var cr writeResult
	if err := plugintest.Must(t, h, "create_resource", map[string]any{"path": "res://ui/panel.tres", "type": "StyleBoxFlat", "properties": map[string]any{
		"bg_color": "#ff0000", "corner_radius_top_left": 4, "border_width_left": 2, "content_margin_left": 6, "resource_name": "panel",
	}}).Structured(&cr); err != nil {
		t.Fatal(err)
	}
	// Base class properties first, as the editor saves them.
	want := "[gd_resource type=\"StyleBoxFlat\" format=3 uid=\"" + cr.UID + "\"]\n\n[resource]\nresource_name = \"panel\"\ncontent_margin_left = 6.0\nbg_color = Color(1, 0, 0, 1)\nborder_width_left = 2\ncorner_radius_top_left = 4\n"
	if got := string(projfixture.Read(t, dir, "ui/panel.tres")); got != want {
		t.Errorf("created:\n%s\nwant:\n%s", got, want)
	}

	plugintest.Must(t, h, "create_resource", map[string]any{"path": "res://ui/icon_box.tres", "type": "StyleBoxTexture", "properties": map[string]any{"texture": "res://icon.svg"}})
	if got := string(projfixture.Read(t, dir, "ui/icon_box.tres")); !strings.Contains(got, `[ext_resource type="Texture2D" uid="uid://cbyx1p6cq8fy4" path="res://icon.svg" id="1_`) || !strings.Contains(got, "texture = ExtResource(\"1_") {
		t.Errorf("texture reference:\n%s", got)
	}
	plugintest.Must(t, h, "create_resource", map[string]any{"path": "res://ui/grad.tres", "type": "Gradient"})
	plugintest.Must(t, h, "set_resource_property", map[string]any{"path": "res://ui/grad.tres", "property": "interpolation_mode", "value": "GRADIENT_INTERPOLATE_CONSTANT"})
	if got := string(projfixture.Read(t, dir, "ui/grad.tres")); !strings.Contains(got, "interpolation_mode = 1\n") {
		t.Errorf("enum by name:\n%s", got)
	}

	// An edit of a real resource changes only the line it must.
	orig := projfixture.Read(t, dir, "gui/theme.tres")
	plugintest.Must(t, h, "set_resource_property", map[string]any{"path": "res://gui/theme.tres", "property": "default_font_size", "value": 20})
	got := projfixture.Read(t, dir, "gui/theme.tres")
	if !bytes.Equal(got, append(bytes.Clone(orig), "default_font_size = 20\n"...)) && !bytes.Contains(got, []byte("\ndefault_font_size = 20\n")) {
		t.Errorf("theme edit:\n%s", got)
	}
	if d := len(got) - len(orig); d != len("default_font_size = 20\n") {
		t.Errorf("the edit changed %d bytes more than the new line", d-len("default_font_size = 20\n"))
	}
	// The class default removes the property again: back to the original.
	var sr writeResult
	if err := plugintest.Must(t, h, "set_resource_property", map[string]any{"path": "res://gui/theme.tres", "property": "default_font_size", "value": -1}).Structured(&sr); err != nil {
		t.Fatal(err)
	}
	if !sr.Removed || !bytes.Equal(projfixture.Read(t, dir, "gui/theme.tres"), orig) {
		t.Errorf("default value: %+v\n%s", sr, projfixture.Read(t, dir, "gui/theme.tres"))
	}
	plugintest.Must(t, h, "set_resource_property", map[string]any{"path": "res://ui/panel.tres", "property": "corner_radius_top_left", "value": nil})
	if strings.Contains(string(projfixture.Read(t, dir, "ui/panel.tres")), "corner_radius") {
		t.Error("null did not remove the property")
	}
	projfixture.Roundtrip(t, dir, "ui/panel.tres", "ui/icon_box.tres", "ui/grad.tres", "gui/theme.tres")

	before := projfixture.Read(t, dir, "ui/panel.tres")
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"create_resource", map[string]any{"path": "res://x.tres", "type": "StyleBoxFlatt"}, sdk.CodeInvalidArgument, `did you mean "StyleBoxFlat"`},
		{"create_resource", map[string]any{"path": "res://x.tres", "type": "Node2D"}, sdk.CodeInvalidArgument, "not a Resource"},
		{"create_resource", map[string]any{"path": "res://x.tres", "type": "Shape2D"}, sdk.CodeInvalidArgument, "abstract"},
		{"create_resource", map[string]any{"path": "res://ui/panel.tres", "type": "StyleBoxFlat"}, sdk.CodeInvalidArgument, "already exists"},
		{"create_resource", map[string]any{"path": "res://x.tscn", "type": "StyleBoxFlat"}, sdk.CodeInvalidArgument, "must end in .tres"},
		{"create_resource", map[string]any{"path": "res://x.tres", "type": "StyleBoxFlat", "properties": map[string]any{"bg_colour": "#fff"}}, sdk.CodeInvalidArgument, `did you mean "bg_color"`},
		{"create_resource", map[string]any{"path": "res://x.tres", "type": "StyleBoxTexture", "properties": map[string]any{"texture": "res://missing.png"}}, sdk.CodeNotFound, "missing.png"},
		{"set_resource_property", map[string]any{"path": "res://ui/panel.tres", "property": "bg_color", "value": "bluish"}, sdk.CodeInvalidArgument, "Color"},
		{"set_resource_property", map[string]any{"path": "res://ui/panel.tres", "property": "border_width_left", "value": 1.5}, sdk.CodeInvalidArgument, "int"},
		{"set_resource_property", map[string]any{"path": "res://ui/panel.tres", "property": "resource_path", "value": "x"}, sdk.CodeInvalidArgument, "not stored"},
		{"set_resource_property", map[string]any{"path": "res://ui/grad.tres", "property": "interpolation_mode", "value": "QUADRATIC"}, sdk.CodeInvalidArgument, "not one of its constants"},
	} {
		res := h.Call(ctx, c.tool, c.args)
		if res.ErrorCode != c.code || !strings.Contains(res.Text(), c.text) {
			t.Errorf("%s(%v): %s %s", c.tool, c.args, res.ErrorCode, res.Text())
		}
	}
	if !bytes.Equal(before, projfixture.Read(t, dir, "ui/panel.tres")) {
		t.Error("a refused call changed a file")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.tres")); err == nil {
		t.Error("a refused create left a file")
	}

	enginecheck.Files(t, map[string][]byte{
		"project.godot":    []byte("config_version=5\n"),
		"icon.svg":         projfixture.Read(t, dir, "icon.svg"),
		"ui/panel.tres":    projfixture.Read(t, dir, "ui/panel.tres"),
		"ui/icon_box.tres": projfixture.Read(t, dir, "ui/icon_box.tres"),
		"ui/grad.tres":     projfixture.Read(t, dir, "ui/grad.tres"),
	})

	// Undo removes what was created.
	if _, err := h.Workspace().Undo(ctx, 7, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ui/panel.tres")); err == nil {
		t.Error("undo left the created resource")
	}
}

func TestAutoloads(t *testing.T) {
	dir := projfixture.Copy(t, "loading-autoload")
	plugintest.WriteFile(t, dir, "global.gd", "extends Node\n")
	plugintest.WriteFile(t, dir, "music.gd", "extends Node\n")
	plugintest.WriteFile(t, dir, "hud.tscn", "[gd_scene format=3]\n\n[node name=\"HUD\" type=\"CanvasLayer\"]\n")
	orig := projfixture.Read(t, dir, "project.godot")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	var out autoloadResult
	if err := plugintest.Must(t, h, "register_autoload", map[string]any{"name": "Music", "path": "res://music.gd"}).Structured(&out); err != nil {
		t.Fatal(err)
	}
	plugintest.Must(t, h, "register_autoload", map[string]any{"name": "HUD", "path": "hud.tscn", "singleton": false})
	got := string(projfixture.Read(t, dir, "project.godot"))
	if !strings.Contains(got, "[autoload]\n\nglobal=\"*res://global.gd\"\nMusic=\"*res://music.gd\"\nHUD=\"res://hud.tscn\"\n\n[debug]") {
		t.Errorf("autoloads:\n%s", got)
	}
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "Music", "path": "res://global.gd"}, sdk.CodeInvalidArgument, "already registered")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "Other", "path": "res://music.gd"}, sdk.CodeInvalidArgument, "already the autoload")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "Input", "path": "res://music.gd"}, sdk.CodeInvalidArgument, "engine class")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "2fast", "path": "res://music.gd"}, sdk.CodeInvalidArgument, "identifier")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "X", "path": "res://nope.gd"}, sdk.CodeNotFound, "nope.gd")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "X", "path": "res://icon.png"}, sdk.CodeInvalidArgument, "cannot be an autoload")
	plugintest.Refused(t, h, "unregister_autoload", map[string]any{"name": "Nope"}, sdk.CodeNotFound, "global, Music, HUD")
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(got), "global.gd": []byte("extends Node\n"), "music.gd": []byte("extends Node\n"),
		"hud.tscn": projfixture.Read(t, dir, "hud.tscn")})

	// Removing the first keeps the others in order.
	out = autoloadResult{}
	if err := plugintest.Must(t, h, "unregister_autoload", map[string]any{"name": "global"}).Structured(&out); err != nil {
		t.Fatal(err)
	}
	if strings.Join(out.Order, ",") != "Music,HUD" {
		t.Errorf("order after unregister: %v", out.Order)
	}
	projfixture.Roundtrip(t, dir, "project.godot")
	if _, err := h.Workspace().Undo(context.Background(), 3, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, projfixture.Read(t, dir, "project.godot")) {
		t.Error("undo did not restore project.godot")
	}
}

func TestResourcesEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_read_resource", map[string]any{"resource_path": "res://a.tres", "type": "Gradient", "properties": map[string]any{}}).
		Result("cmd_create_resource", map[string]any{"resource_path": "res://a.tres", "type": "Gradient", "created": true}).
		Result("cmd_set_resource_property", map[string]any{"resource_path": "res://a.tres", "property": "interpolation_mode", "value": 1}).
		Result("cmd_register_autoload", map[string]any{"name": "G", "path": "res://g.gd", "registered": true}).
		Result("cmd_unregister_autoload", map[string]any{"name": "G", "unregistered": true})
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "exists.tres": "[gd_resource type=\"Gradient\" format=3]\n\n[resource]\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve, ProjectDir: dir})
	plugintest.Must(t, h, "read_resource_file", map[string]any{"resource_path": "res://a.tres"})
	plugintest.Must(t, h, "create_resource", map[string]any{"path": "a.tres", "type": "Gradient", "properties": map[string]any{"interpolation_mode": 1}})
	plugintest.Must(t, h, "set_resource_property", map[string]any{"path": "res://a.tres", "property": "interpolation_mode", "value": 1})
	plugintest.Must(t, h, "register_autoload", map[string]any{"name": "G", "path": "res://g.gd"})
	plugintest.Must(t, h, "unregister_autoload", map[string]any{"name": "G"})
	plugintest.Refused(t, h, "create_resource", map[string]any{"path": "res://b.tres", "type": "Node"}, sdk.CodeInvalidArgument, "not a Resource")
	// The addon's create_resource overwrites an existing file: the path is
	// checked before the command is built, in editor mode too.
	plugintest.Refused(t, h, "create_resource", map[string]any{"resource_path": "res://exists.tres", "type": "Gradient"}, sdk.CodeInvalidArgument, "already exists")
	plugintest.Refused(t, h, "register_autoload", map[string]any{"name": "G", "path": "res://g.gd", "singleton": false}, sdk.CodeInvalidArgument, "singletons only")

	want := []struct {
		cmd    string
		params string
	}{
		{"cmd_read_resource", "map[resource_path:res://a.tres]"},
		{"cmd_create_resource", "map[properties:map[interpolation_mode:1] resource_path:res://a.tres type:Gradient]"},
		{"cmd_set_resource_property", "map[property:interpolation_mode resource_path:res://a.tres value:1]"},
		{"cmd_register_autoload", "map[name:G path:res://g.gd]"},
		{"cmd_unregister_autoload", "map[name:G]"},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i, w := range want {
		if p := fmtParams(got[i].Params); got[i].Command != w.cmd || p != w.params {
			t.Errorf("command %d: %s %s, want %s %s", i, got[i].Command, p, w.cmd, w.params)
		}
	}
}

func fmtParams(m map[string]any) string {
	return strings.TrimSpace(strings.ReplaceAll(sprint(m), "  ", " "))
}

func sprint(v any) string { return fmt.Sprint(v) }

// An editor dry run sends nothing that changes the editor and previews the
// command it would send; it does not read the files behind the editor's
// back.
func TestResourcesEditorDryRunsSendNothing(t *testing.T) {
	ed := sdktest.NewEditor().ActiveScene("res://walls.tscn").Result("cmd_open_scene", map[string]any{"opened": true})
	// The sub-resource tools work on the saved files in both modes (the
	// addon has no sub-resource commands), so they need a project; a
	// scene's is opened in the editor first, and the save that would come
	// next is only previewed.
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "walls.tscn": sharedScene})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve, ProjectDir: dir})
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"set_sub_resource_property": map[string]any{"path": "res://walls.tscn", "id": "RectangleShape2D_a1b2c", "property": "size", "value": []any{4, 4}},
		"make_sub_resource_unique":  map[string]any{"path": "res://walls.tscn", "node_path": "Right/Shape", "property": "shape"},
		"create_resource":           map[string]any{"path": "res://a.tres", "type": "Gradient"},
		"set_resource_property":     map[string]any{"path": "res://a.tres", "property": "interpolation_mode", "value": 1},
		"register_autoload":         map[string]any{"name": "G", "path": "res://g.gd"},
		"unregister_autoload":       map[string]any{"name": "G"},
	})
	for _, c := range ed.Calls() {
		if c.Command != "cmd_open_scene" && c.Command != "cmd_get_active_scene" {
			t.Errorf("a dry run sent %s", c.Command)
		}
	}
}

// Properties added one by one to a .tres go where the editor saves them
// (the class's property order, base classes first), whatever order they
// are set in: the real engine loads the file and saves it again, and the
// [resource] section comes back with the same keys in the same order.
func TestAddedPropertiesInTheEditorsOrder(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	const p = "res://ui/box.tres"
	plugintest.Must(t, h, "create_resource", map[string]any{"path": p, "type": "StyleBoxFlat", "properties": map[string]any{"bg_color": "#102030"}})
	for _, prop := range []struct {
		name  string
		value any
	}{
		{"corner_radius_bottom_left", 3}, {"content_margin_left", 2}, {"border_width_top", 1},
		{"resource_name", "box"}, {"skew", []any{0.5, 0}}, {"border_color", "#ffffff"}, {"anti_aliasing", false},
	} {
		plugintest.Must(t, h, "set_resource_property", map[string]any{"path": p, "property": prop.name, "value": prop.value})
	}
	ours := string(projfixture.Read(t, dir, "ui/box.tres"))
	keys := func(text string) []string {
		var out []string
		_, body, _ := strings.Cut(text, "[resource]\n")
		for _, l := range strings.Split(body, "\n") {
			if k, _, ok := strings.Cut(l, " = "); ok {
				out = append(out, k)
			}
		}
		return out
	}
	want := []string{"resource_name", "content_margin_left", "bg_color", "skew", "border_width_top", "border_color", "corner_radius_bottom_left", "anti_aliasing"}
	if got := keys(ours); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("keys %v, want %v\n%s", got, want, ours)
	}
	if testing.Short() {
		return
	}
	files := webgodot.ScriptProject(`extends Node

func _ready() -> void:
	ResourceSaver.save(load("res://box.tres"), "user://box.tres")
	print("SAVED " + FileAccess.get_file_as_string("user://box.tres").replace("\n", "|"))
	get_tree().quit()
`)
	files = append(files, webgodot.PackFile{Path: "box.tres", Data: []byte(ours)})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Stdout() {
		if s, ok := strings.CutPrefix(l, "SAVED "); ok {
			saved := strings.ReplaceAll(s, "|", "\n")
			if got := keys(saved); fmt.Sprint(got) != fmt.Sprint(keys(ours)) {
				t.Errorf("the engine saves %v, we wrote %v\n%s", got, keys(ours), saved)
			}
			return
		}
	}
	t.Fatalf("the engine saved nothing: %v", res.Lines)
}

// An edit that names the version it read is refused, with a diff, when the
// file changed since.
func TestSetResourcePropertyExpectedVersion(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n",
		"box.tres":      "[gd_resource type=\"StyleBoxFlat\" format=3]\n\n[resource]\nbg_color = Color(1, 0, 0, 1)\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	r := plugintest.Call(t, h, "read_resource_file", map[string]any{"path": "res://box.tres"})
	v, _ := r["version"].(string)
	if !strings.HasPrefix(v, "sha256:") {
		t.Fatalf("read has no version: %v", r)
	}
	plugintest.WriteFile(t, dir, "box.tres", "[gd_resource type=\"StyleBoxFlat\" format=3]\n\n[resource]\nbg_color = Color(0, 1, 0, 1)\n")
	set := map[string]any{"path": "res://box.tres", "property": "border_width_left", "value": 2, "expected_version": v}
	res := plugintest.Refused(t, h, "set_resource_property", set, sdk.CodeConflict, "+bg_color = Color(0, 1, 0, 1)")
	if !strings.Contains(res.Text(), "-bg_color = Color(1, 0, 0, 1)") {
		t.Fatalf("conflict without the diff: %s", res.Text())
	}
	delete(set, "expected_version")
	plugintest.Call(t, h, "set_resource_property", set)
	if got, _ := os.ReadFile(filepath.Join(dir, "box.tres")); !strings.Contains(string(got), "Color(0, 1, 0, 1)") || !strings.Contains(string(got), "border_width_left = 2") {
		t.Fatalf("edit without expected_version: %s", got)
	}
}
