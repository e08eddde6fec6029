package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func exists(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

func TestSettings(t *testing.T) {
	dir := projfixture.Copy(t, "gui-input_mapping")
	orig := projfixture.Read(t, dir, "project.godot")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	var got settingResult
	if err := plugintest.Must(t, h, "get_setting", map[string]any{"name": "display/window/size/viewport_width"}).Structured(&got); err != nil {
		t.Fatal(err)
	}
	if got.Value != float64(640) || !got.InFile || got.Type != "int" || got.Default != "1152" {
		t.Errorf("viewport_width: %+v", got)
	}
	got = settingResult{}
	if err := plugintest.Must(t, h, "get_setting", map[string]any{"name": "physics/2d/default_gravity"}).Structured(&got); err != nil {
		t.Fatal(err)
	}
	if got.InFile || !got.Exists || got.Value != float64(980) || got.Type != "float" {
		t.Errorf("default_gravity (engine default): %+v", got)
	}

	// Typed writes: each changes one line, as the editor would write it.
	cases := []struct {
		name  string
		value any
		line  string
	}{
		{"display/window/size/viewport_width", 800, "window/size/viewport_width=800"},
		{"display/window/size/viewport_height", "600", "window/size/viewport_height=600"},
		{"application/config/name", "Remapped", `config/name="Remapped"`},
		{"physics/2d/default_gravity", 490, "2d/default_gravity=490.0"},
		{"rendering/environment/defaults/default_clear_color", "#ff0000", "environment/defaults/default_clear_color=Color(1, 0, 0, 1)"},
		{"display/window/size/resizable", false, "window/size/resizable=false"},
		{"my_game/difficulty/level", 3, "difficulty/level=3"},
	}
	for _, c := range cases {
		plugintest.Must(t, h, "set_setting", map[string]any{"name": c.name, "value": c.value})
		if text := string(projfixture.Read(t, dir, "project.godot")); !strings.Contains(text, "\n"+c.line+"\n") {
			t.Errorf("set %s=%v: no line %q in\n%s", c.name, c.value, c.line, text)
		}
	}
	// The default value removes the key, as the editor does.
	var sr setSettingResult
	if err := plugintest.Must(t, h, "set_setting", map[string]any{"name": "display/window/size/viewport_width", "value": 1152}).Structured(&sr); err != nil {
		t.Fatal(err)
	}
	if text := string(projfixture.Read(t, dir, "project.godot")); !sr.Reverted || strings.Contains(text, "viewport_width") {
		t.Errorf("default value kept the key (%+v)", sr)
	}
	projfixture.Roundtrip(t, dir, "project.godot")
	enginecheck.Files(t, map[string][]byte{"project.godot": projfixture.Read(t, dir, "project.godot"), "KeyPersistence.gd": []byte("extends Node\n")})

	before := projfixture.Read(t, dir, "project.godot")
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "display/window/size/viewport_widht", "value": 3}, sdk.CodeInvalidArgument, `did you mean "display/window/size/viewport_width"`)
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "display/window/size/viewport_height", "value": "tall"}, sdk.CodeInvalidArgument, "int")
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "display/window/size/viewport_height", "value": 1.5}, sdk.CodeInvalidArgument, "int")
	// A number for a String setting is taken as its text, as the editor
	// converts it; a list is not a String in any form.
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "application/config/name", "value": []any{1}}, sdk.CodeInvalidArgument, "String")
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "config_version", "value": 4}, sdk.CodeInvalidArgument, "no section")
	if !bytes.Equal(before, projfixture.Read(t, dir, "project.godot")) {
		t.Error("a refused set_setting changed project.godot")
	}

	// Dry run previews, writes nothing; undo restores everything.
	res := plugintest.Must(t, h, "set_setting", map[string]any{"name": "application/config/name", "value": "X"}, sdktest.DryRun())
	if !strings.Contains(res.Text(), `config/name=\"X\"`) || !bytes.Equal(before, projfixture.Read(t, dir, "project.godot")) {
		t.Errorf("dry run: %s", res.Text())
	}
	if _, err := h.Workspace().Undo(context.Background(), len(cases)+1, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, projfixture.Read(t, dir, "project.godot")) {
		t.Error("undo did not restore project.godot")
	}
}

func TestUIDs(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "player/player.gd", "extends CharacterBody2D\n")
	plugintest.WriteFile(t, dir, "player/player.gd.uid", "uid://dq8lvnfb3ct7h\n")
	plugintest.WriteFile(t, dir, "icon.png.import", "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"uid://cbyx1p6cq8fy4\"\n")
	plugintest.WriteFile(t, dir, "icon.png", "png")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct{ uid, path, source string }{
		{"uid://jvkyhlshk5ey", "res://level/props/wind_sway.tres", "res://level/props/wind_sway.tres"},
		{"uid://dq8lvnfb3ct7h", "res://player/player.gd", "res://player/player.gd.uid"},
		{"uid://cbyx1p6cq8fy4", "res://icon.png", "res://icon.png.import"},
	} {
		var got uidResult
		if err := plugintest.Must(t, h, "resolve_uid", map[string]any{"uid": c.uid}).Structured(&got); err != nil {
			t.Fatal(err)
		}
		if got.Path != c.path || got.Source != c.source {
			t.Errorf("resolve_uid %s: %+v", c.uid, got)
		}
		got = uidResult{}
		if err := plugintest.Must(t, h, "path_to_uid", map[string]any{"path": c.path}).Structured(&got); err != nil {
			t.Fatal(err)
		}
		if got.UID != c.uid || got.Source != c.source {
			t.Errorf("path_to_uid %s: %+v", c.path, got)
		}
		// The reference's spelling: resolve_uid {"value"} in both directions.
		got = uidResult{}
		if err := plugintest.Must(t, h, "resolve_uid", map[string]any{"value": c.path}).Structured(&got); err != nil {
			t.Fatal(err)
		}
		if got.UID != c.uid || got.Path != c.path {
			t.Errorf("resolve_uid value=%s: %+v", c.path, got)
		}
	}
	plugintest.Refused(t, h, "resolve_uid", map[string]any{"uid": "uid://aaaaaaaaaaaa"}, sdk.CodeNotFound, "no file")
	plugintest.Refused(t, h, "resolve_uid", map[string]any{"uid": "res://x"}, sdk.CodeNotFound, "res://x")
	plugintest.Refused(t, h, "resolve_uid", map[string]any{"uid": "uid://not a uid!"}, sdk.CodeInvalidArgument, "uid")
	plugintest.Refused(t, h, "path_to_uid", map[string]any{"path": "res://project.godot"}, sdk.CodeNotFound, "has no UID")
}

func TestDeleteResourceFile(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "unused.gd", "extends Node\n")
	plugintest.WriteFile(t, dir, "unused.gd.uid", "uid://b2q6g7w3xk1ym\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	res := plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://gui/theme.tres"}, sdk.CodePreconditionFailed, "res://gui/coins_counter.tscn (1)")
	if !strings.Contains(res.Text(), "res://gui/pause_menu.tscn (1)") || res.Error.Required != "force" || !exists(dir, "gui/theme.tres") {
		t.Errorf("refusal: %s", res.Text())
	}
	// A reference by uid:// alone also counts.
	plugintest.WriteFile(t, dir, "loader.gd", "const T = preload(\"uid://jvkyhlshk5ey\")\n")
	plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://level/props/wind_sway.tres"}, sdk.CodePreconditionFailed, "res://loader.gd (1)")

	var out deleteResult
	if err := plugintest.Must(t, h, "delete_resource_file", map[string]any{"path": "res://unused.gd"}, sdktest.DryRun()).Structured(&out); err != nil {
		t.Fatal(err)
	}
	if out.Deleted || len(out.Commit.Files) != 2 || !exists(dir, "unused.gd") {
		t.Errorf("dry run: %+v", out)
	}
	out = deleteResult{}
	if err := plugintest.Must(t, h, "delete_resource_file", map[string]any{"path": "res://unused.gd"}).Structured(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Deleted || !out.HadUID || exists(dir, "unused.gd") || exists(dir, "unused.gd.uid") {
		t.Errorf("delete: %+v", out)
	}
	plugintest.Must(t, h, "delete_resource_file", map[string]any{"path": "res://gui/theme.tres", "force": true})
	if exists(dir, "gui/theme.tres") {
		t.Error("force did not delete")
	}
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	if !exists(dir, "gui/theme.tres") || !exists(dir, "unused.gd.uid") {
		t.Error("undo did not bring the files back")
	}
	plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://project.godot"}, sdk.CodeInvalidArgument, "project.godot")
	plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://gui"}, sdk.CodeInvalidArgument, "directory")
	plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://nope.tres"}, sdk.CodeNotFound, "does not exist")
}

// snapshot returns every file of dir by relative path, .godot excluded.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".godot" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMoveResourceFile(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "gui/hud.gd", "extends Control\nconst THEME = preload(\"res://gui/theme.tres\")\nconst OTHER = \"res://gui/theme.tres.bak\"\n")
	orig := snapshot(t, dir)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	var prev moveResult
	if err := plugintest.Must(t, h, "move_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"}, sdktest.DryRun()).Structured(&prev); err != nil {
		t.Fatal(err)
	}
	wantRefs := map[string]int{"res://gui/coins_counter.tscn": 1, "res://gui/pause_menu.tscn": 1, "res://gui/hud.gd": 1}
	if prev.Moved || len(prev.UpdatedRefs) != len(wantRefs) || prev.UID != "uid://bc4kpaija14nv" {
		t.Errorf("preview: %+v", prev)
	}
	for _, r := range prev.UpdatedRefs {
		if wantRefs[r.File] != r.Count {
			t.Errorf("preview: %s %d references", r.File, r.Count)
		}
	}
	if len(prev.Commit.Files) != 5 { // 3 referrers, the old file deleted, the new one created
		t.Errorf("preview lists %d file changes", len(prev.Commit.Files))
	}
	if now := snapshot(t, dir); len(now) != len(orig) || !bytes.Equal(now["gui/pause_menu.tscn"], orig["gui/pause_menu.tscn"]) {
		t.Fatal("the dry run changed files")
	}

	var out moveResult
	if err := plugintest.Must(t, h, "move_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"}).Structured(&out); err != nil {
		t.Fatal(err)
	}
	if !out.Moved || exists(dir, "gui/theme.tres") || !bytes.Equal(projfixture.Read(t, dir, "ui/theme.tres"), orig["gui/theme.tres"]) {
		t.Fatalf("move: %+v", out)
	}
	// Each referrer differs from the original in exactly the reference.
	for file := range wantRefs {
		rel := strings.TrimPrefix(file, "res://")
		want := bytes.ReplaceAll(orig[rel], []byte(`"res://gui/theme.tres"`), []byte(`"res://ui/theme.tres"`))
		if got := projfixture.Read(t, dir, rel); !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", rel, got, want)
		}
	}
	if !strings.Contains(string(projfixture.Read(t, dir, "gui/pause_menu.tscn")), `uid="uid://bc4kpaija14nv" path="res://ui/theme.tres"`) {
		t.Error("the uid of the reference changed")
	}
	projfixture.Roundtrip(t, dir, "gui/coins_counter.tscn", "gui/pause_menu.tscn", "ui/theme.tres")

	// The main scene moves too: project.godot follows.
	plugintest.Must(t, h, "move_file", map[string]any{"path": "res://game_singleplayer.tscn", "new_path": "res://scenes/game.tscn"})
	if p := string(projfixture.Read(t, dir, "project.godot")); !strings.Contains(p, `run/main_scene="res://scenes/game.tscn"`) {
		t.Error("project.godot still names the old main scene")
	}
	projfixture.Roundtrip(t, dir, "project.godot")

	plugintest.Refused(t, h, "move_file", map[string]any{"path": "res://level/coin.tscn", "new_path": "res://level/level.tscn"}, sdk.CodeInvalidArgument, "already exists")
	plugintest.Refused(t, h, "move_file", map[string]any{"path": "res://level/coin.tscn", "new_path": "../coin.tscn"}, sdk.CodeInvalidArgument, "inside the project")
	plugintest.Refused(t, h, "move_file", map[string]any{"path": "res://level/coin.tscn", "new_path": "res://.hidden/coin.tscn"}, sdk.CodeInvalidArgument, "hidden")

	// One undo per move restores every file.
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	now := snapshot(t, dir)
	if len(now) != len(orig) {
		t.Errorf("after undo %d files, want %d", len(now), len(orig))
	}
	for k, v := range orig {
		if !bytes.Equal(now[k], v) {
			t.Errorf("after undo %s differs", k)
		}
	}
}

// What a move writes, the engine loads: a scene using a moved resource by
// its new path.
func TestMoveLoadsInTheEngine(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"m\"\nrun/main_scene=\"res://main.tscn\"\n")
	plugintest.WriteFile(t, dir, "grad.tres", "[gd_resource type=\"Gradient\" format=3 uid=\"uid://c3nx4mfgqk2vb\"]\n\n[resource]\ncolors = PackedColorArray(1, 0, 0, 1, 0, 0, 1, 1)\n")
	plugintest.WriteFile(t, dir, "main.tscn", "[gd_scene format=3 uid=\"uid://bq1t8y4k0wd2e\"]\n\n[ext_resource type=\"Gradient\" uid=\"uid://c3nx4mfgqk2vb\" path=\"res://grad.tres\" id=\"1_g\"]\n\n[sub_resource type=\"GradientTexture1D\" id=\"GradientTexture1D_a\"]\ngradient = ExtResource(\"1_g\")\n\n[node name=\"Main\" type=\"Sprite2D\"]\ntexture = SubResource(\"GradientTexture1D_a\")\n")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Must(t, h, "move_file", map[string]any{"path": "res://grad.tres", "new_path": "res://art/gradients/red_blue.tres"})
	plugintest.Must(t, h, "move_file", map[string]any{"path": "res://main.tscn", "new_path": "res://scenes/main.tscn"})
	if !strings.Contains(string(projfixture.Read(t, dir, "scenes/main.tscn")), `path="res://art/gradients/red_blue.tres"`) {
		t.Fatal("reference not rewritten")
	}
	enginecheck.Project(t, dir)
}

// Editor mode: the tools send the addon's commands with its parameter names.
func TestProjectEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	ed := sdktest.NewEditor().
		Result("cmd_get_filesystem_tree", map[string]any{"tree": map[string]any{"name": "gui", "path": "res://gui", "type": "directory", "children": []any{
			map[string]any{"name": "theme.tres", "path": "res://gui/theme.tres", "type": "file"},
			map[string]any{"name": "fonts", "path": "res://gui/fonts", "type": "directory", "children": []any{
				map[string]any{"name": "a.ttf", "path": "res://gui/fonts/a.ttf", "type": "file"}}},
		}}}).
		Result("cmd_get_setting", map[string]any{"name": "application/config/name", "value": "Platformer", "exists": true}).
		Result("cmd_set_setting", map[string]any{"name": "application/config/name", "value": "X", "set": true}).
		Result("cmd_uid_to_path", map[string]any{"uid": "uid://jvkyhlshk5ey", "path": "res://level/props/wind_sway.tres"}).
		Result("cmd_path_to_uid", map[string]any{"path": "res://level/coin.tscn", "uid": "uid://dfg1bqmq1k47c"}).
		Result("cmd_delete_resource_file", map[string]any{"path": "res://level/coin.tscn", "deleted": true}).
		Result("cmd_move_resource_file", map[string]any{"old_path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres", "updated_refs": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})

	var tree treeResult
	if err := plugintest.Must(t, h, "get_filesystem_tree", map[string]any{"path": "res://gui", "depth": 2, "limit": 50}).Structured(&tree); err != nil {
		t.Fatal(err)
	}
	if tree.Root != "res://gui" || len(tree.Entries) != 3 || tree.Entries[0].Path != "res://gui/fonts" || tree.Entries[1].Path != "res://gui/fonts/a.ttf" || tree.Dirs != 1 || tree.Files != 2 {
		t.Errorf("tree: %+v", tree)
	}
	var search searchResult
	if err := plugintest.Must(t, h, "search_files", map[string]any{"pattern": "gui/**/*.tres", "content": "Theme", "limit": 10}).Structured(&search); err != nil {
		t.Fatal(err)
	}
	if len(search.Matches) != 1 || search.Matches[0].Path != "res://gui/theme.tres" || search.Matches[0].Line == 0 {
		t.Errorf("search: %+v", search)
	}
	// search_files reads the files in both modes (the addon's search reads
	// them from disk too, with fewer options): the same answer as headless,
	// and nothing sent.
	headless := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, args := range []map[string]any{{"name_contains": "COIN", "path": "level"}, {"content": "theme", "ignore_case": true, "include_hidden": true}} {
		if got, want := plugintest.Must(t, h, "search_files", args).Text(), plugintest.Must(t, headless, "search_files", args).Text(); got != want {
			t.Errorf("search_files %v:\neditor   %s\nheadless %s", args, got, want)
		}
	}
	plugintest.Must(t, h, "get_setting", map[string]any{"name": "application/config/name"})
	plugintest.Must(t, h, "set_setting", map[string]any{"name": "application/config/name", "value": "X"})
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "application/config/nmae", "value": "X"}, sdk.CodeInvalidArgument, "did you mean")
	plugintest.Refused(t, h, "set_setting", map[string]any{"name": "physics/common/physics_fps", "value": 60}, sdk.CodeInvalidArgument, "physics/common/physics_fps is the Godot 3 name; in Godot 4 it is physics/common/physics_ticks_per_second")
	plugintest.Must(t, h, "resolve_uid", map[string]any{"uid": "uid://jvkyhlshk5ey"})
	plugintest.Must(t, h, "path_to_uid", map[string]any{"path": "res://level/coin.tscn"})
	// The reference check runs before the editor is asked.
	plugintest.Refused(t, h, "delete_resource_file", map[string]any{"path": "res://level/coin.tscn"}, sdk.CodePreconditionFailed, "level.tscn")
	plugintest.Must(t, h, "delete_resource_file", map[string]any{"path": "res://level/coin.tscn", "force": true})
	plugintest.Must(t, h, "move_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"}, sdktest.DryRun())
	plugintest.Must(t, h, "move_file", map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"})

	want := []sdktest.EditorCall{
		{Command: "cmd_get_filesystem_tree", Params: map[string]any{"directory": "res://gui", "max_depth": 2.0}},
		{Command: "cmd_get_setting", Params: map[string]any{"name": "application/config/name"}},
		{Command: "cmd_set_setting", Params: map[string]any{"name": "application/config/name", "value": "X"}},
		{Command: "cmd_uid_to_path", Params: map[string]any{"uid": "uid://jvkyhlshk5ey"}},
		{Command: "cmd_path_to_uid", Params: map[string]any{"path": "res://level/coin.tscn"}},
		{Command: "cmd_delete_resource_file", Params: map[string]any{"path": "res://level/coin.tscn"}},
		{Command: "cmd_move_resource_file", Params: map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres", "preview": true}},
		{Command: "cmd_move_resource_file", Params: map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres", "preview": false}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !plugintest.SameParams(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
	if !exists(dir, "level/coin.tscn") || !exists(dir, "gui/theme.tres") {
		t.Error("editor mode touched the files itself")
	}
}

// An editor dry run sends no command that changes the editor: set_setting
// and delete_resource_file are recorded, move_resource_file goes with its
// preview flag, and no file changes.
func TestProjectEditorDryRunsSendNothing(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	ed := sdktest.NewEditor().
		Result("cmd_move_resource_file", map[string]any{"old_path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres", "updated_refs": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"set_setting":          map[string]any{"name": "application/config/name", "value": "X"},
		"delete_resource_file": map[string]any{"path": "res://level/coin.tscn", "force": true},
		"move_file":            map[string]any{"path": "res://gui/theme.tres", "new_path": "res://ui/theme.tres"},
	})
	if got := ed.Calls(); len(got) != 1 || got[0].Command != "cmd_move_resource_file" || got[0].Params["preview"] != true {
		t.Fatalf("editor calls %+v", got)
	}
	if !exists(dir, "level/coin.tscn") || !exists(dir, "gui/theme.tres") {
		t.Error("a dry run touched the files")
	}
}

// A setting the file does not have yet goes where the editor's
// ProjectSettings saves it: registered settings by registration order,
// the project's own (feature overrides, new sections' keys) at the end.
func TestNewSettingsGoWhereTheEditorSavesThem(t *testing.T) {
	dir := projfixture.Copy(t, "2d-pong")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct {
		name  string
		value any
		after string // the line before the new one
	}{
		{"application/config/version", "1.0", `for game development in Godot, including signals."`},
		{"application/run/max_fps", 60, `config/features=PackedStringArray("4.7")`},
		{"display/window/size/mode", 2, "window/size/viewport_height=400"},
		{"display/window/size/viewport_width.mobile", 320, `window/stretch/scale_mode="integer"`},
		{"rendering/renderer/rendering_method.web", "forward_plus", `renderer/rendering_method="gl_compatibility"`}, // registered between the two
	} {
		plugintest.Must(t, h, "set_setting", map[string]any{"name": c.name, "value": c.value})
		_, key, _ := strings.Cut(c.name, "/")
		text := string(projfixture.Read(t, dir, "project.godot"))
		if !strings.Contains(text, "\n"+c.after+"\n"+key+"=") {
			t.Errorf("%s: not right after %q:\n%s", c.name, c.after, text)
		}
	}
	projfixture.Roundtrip(t, dir, "project.godot")
}

// search_files pages: next_offset walks the matches, the pages together
// are the whole list in order, and a truncated page says how to go on.
func TestSearchFilesPages(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	var all searchResult
	if err := plugintest.Must(t, h, "search_files", map[string]any{"pattern": "*.tscn", "limit": 2000}).Structured(&all); err != nil {
		t.Fatal(err)
	}
	if len(all.Matches) < 5 || all.Truncated {
		t.Fatalf("the whole list: %+v", all)
	}
	var paged []searchMatch
	for offset, pages := 0, 0; ; pages++ {
		var page searchResult
		res := plugintest.Must(t, h, "search_files", map[string]any{"pattern": "*.tscn", "limit": 2, "offset": offset})
		if err := res.Structured(&page); err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page.Matches...)
		if !page.Truncated {
			break
		}
		if page.NextOffset != offset+2 || !strings.Contains(res.Text(), fmt.Sprintf("offset %d", page.NextOffset)) {
			t.Fatalf("page at %d: %+v\n%s", offset, page, res.Text())
		}
		offset = page.NextOffset
		if pages > 100 {
			t.Fatal("paging does not end")
		}
	}
	if len(paged) != len(all.Matches) {
		t.Fatalf("pages hold %d matches, the list %d", len(paged), len(all.Matches))
	}
	for i := range paged {
		if paged[i].Path != all.Matches[i].Path {
			t.Fatalf("match %d: page %s, list %s", i, paged[i].Path, all.Matches[i].Path)
		}
	}
}

// get_filesystem_tree pages the same way, in both modes: the pages of a
// listing are the listing, and a truncated page says how to go on.
func TestFilesystemTreePages(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	var all treeResult
	if err := plugintest.Must(t, h, "get_filesystem_tree", map[string]any{"depth": 20, "limit": 10000}).Structured(&all); err != nil {
		t.Fatal(err)
	}
	if len(all.Entries) < 6 || all.Truncated {
		t.Fatalf("the whole tree: %+v", all)
	}
	var paged []treeEntry
	for offset := 0; ; {
		var page treeResult
		res := plugintest.Must(t, h, "get_filesystem_tree", map[string]any{"depth": 20, "limit": 3, "offset": offset})
		if err := res.Structured(&page); err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page.Entries...)
		if !page.Truncated {
			break
		}
		if page.NextOffset != offset+3 || !strings.Contains(res.Text(), fmt.Sprintf("offset %d", page.NextOffset)) {
			t.Fatalf("page at %d: %+v", offset, page)
		}
		offset = page.NextOffset
	}
	if len(paged) != len(all.Entries) {
		t.Fatalf("pages hold %d entries, the tree %d", len(paged), len(all.Entries))
	}
	for i := range paged {
		if paged[i] != all.Entries[i] {
			t.Fatalf("entry %d: page %+v, tree %+v", i, paged[i], all.Entries[i])
		}
	}
}
