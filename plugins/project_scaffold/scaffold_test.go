package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/scaffold"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func headless(t *testing.T, dir string) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
}

func scaffoldOK(t *testing.T, h *sdktest.Host, args map[string]any, opts ...sdktest.CallOption) scaffoldResult {
	t.Helper()
	res := h.Call(context.Background(), "project_scaffold", args, append(opts, sdktest.ConfirmDestructive())...)
	if res.Err != nil || res.IsError {
		t.Fatalf("scaffold %v: %v %+v", args, res.Err, res.Error)
	}
	var out scaffoldResult
	if err := res.Structured(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// files returns every file under dir, slash-separated and relative.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestScaffoldEachTemplate scaffolds every template into an empty folder,
// checks the files on disk are the scaffold package's, that they round-trip,
// and that the real engine loads the result.
func TestScaffoldEachTemplate(t *testing.T) {
	for _, tpl := range scaffold.Templates {
		t.Run(tpl, func(t *testing.T) {
			dir := t.TempDir()
			h := headless(t, dir)
			out := scaffoldOK(t, h, map[string]any{"project_name": "Demo " + tpl, "template": tpl, "godot_version": "4.6", "renderer": "Compatibility"})
			if out.GodotVersion != "4.6" || out.Renderer != scaffold.Compatibility || out.Template != tpl || out.Commit.ActionID == 0 {
				t.Fatalf("result %+v", out)
			}
			var want []string
			for _, p := range out.Files {
				want = append(want, strings.TrimPrefix(p, "res://"))
			}
			slices.Sort(want)
			if got := files(t, dir); !slices.Equal(got, want) {
				t.Fatalf("on disk %v, want %v", got, want)
			}
			proj := string(projfixture.Read(t, dir, "project.godot"))
			if !strings.Contains(proj, `config/features=PackedStringArray("4.6", "GL Compatibility")`) || !strings.Contains(proj, `config/name="Demo `+tpl+`"`) {
				t.Errorf("project.godot:\n%s", proj)
			}
			if tpl != scaffold.Empty && !strings.Contains(proj, `run/main_scene="`+out.MainSceneUID+`"`) {
				t.Errorf("run/main_scene is not %s:\n%s", out.MainSceneUID, proj)
			}
			check := []string{"project.godot"}
			if tpl != scaffold.Empty {
				check = append(check, "scenes/main.tscn")
			}
			projfixture.Roundtrip(t, dir, check...)
			enginecheck.Project(t, dir)
		})
	}
}

func TestScaffoldDryRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	h := headless(t, dir)
	res := h.Call(context.Background(), "project_scaffold", map[string]any{"template": "3d"}, sdktest.DryRun())
	if res.Err != nil || res.IsError {
		t.Fatalf("%v %+v", res.Err, res.Error)
	}
	var out struct {
		DryRun  bool `json:"dry_run"`
		Preview struct {
			Mode  string `json:"mode"`
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
		} `json:"preview"`
	}
	if err := json.Unmarshal(res.StructuredJSON, &out); err != nil {
		t.Fatal(err)
	}
	var previewed []string
	for _, f := range out.Preview.Files {
		previewed = append(previewed, f.Path)
	}
	if !out.DryRun || out.Preview.Mode != "headless" || !slices.Contains(previewed, "res://project.godot") || !slices.Contains(previewed, "res://scenes/main.tscn") {
		t.Fatalf("dry run preview: %s", res.StructuredJSON)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("a dry run wrote %v", got)
	}
}

func TestScaffoldRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "icon.svg"), []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := headless(t, dir)
	res := h.Call(context.Background(), "project_scaffold", map[string]any{}, sdktest.ConfirmDestructive())
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "empty_folder" || !strings.Contains(res.Error.Message, "notes.txt") ||
		!strings.Contains(res.Error.Hint, "overwrite") {
		t.Fatalf("non-empty folder: %+v", res.Error)
	}
	if got := files(t, dir); !slices.Equal(got, []string{"icon.svg", "notes.txt"}) {
		t.Fatalf("a refused scaffold changed the folder: %v", got)
	}
	for _, flag := range []string{"overwrite", "force"} {
		out := scaffoldOK(t, h, map[string]any{flag: true, "template": "2d"})
		if !slices.Equal(out.Overwritten, []string{"res://icon.svg"}) && flag == "overwrite" {
			t.Errorf("overwritten %v, want icon.svg", out.Overwritten)
		}
	}
	if got := string(projfixture.Read(t, dir, "notes.txt")); got != "mine" {
		t.Errorf("notes.txt = %q", got)
	}
	if got := string(projfixture.Read(t, dir, "icon.svg")); got != scaffold.IconSVG {
		t.Errorf("icon.svg was not replaced: %q", got)
	}
}

func TestScaffoldNeedsConfirmAndValidArgs(t *testing.T) {
	h := headless(t, t.TempDir())
	if res := h.Call(context.Background(), "project_scaffold", map[string]any{}); !res.IsError {
		t.Errorf("a destructive call without confirm ran")
	}
	for _, args := range []map[string]any{{"godot_version": "3.5"}, {"renderer": "vulkan"}, {"template": "rpg"}} {
		res := h.Call(context.Background(), "project_scaffold", args, sdktest.ConfirmDestructive())
		if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Hint, "listed values") {
			t.Errorf("%v: %+v", args, res.Error)
		}
	}
}

// TestScaffoldUndo checks the scaffold is one journal action that
// godot_undo reverts, leaving the folder empty again.
func TestScaffoldUndo(t *testing.T) {
	dir := t.TempDir()
	h := headless(t, dir)
	scaffoldOK(t, h, map[string]any{"template": "ui", "godot_version": "4.4"})
	if got := files(t, dir); !slices.Contains(got, "scripts/main.gd.uid") {
		t.Fatalf("files %v", got)
	}
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("after undo: %v", got)
	}
}

// With an editor attached the addon's scaffold adds a game type's skeleton
// to the open project: type is required, what only a new project has is
// refused, and a dry run sends nothing.
func TestScaffoldWithEditor(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_scaffold_project", map[string]any{"created": true,
		"paths_created":        []any{"res://scenes/", "res://scripts/", "res://project.godot", "res://scripts/game_state.gd", "res://scenes/level.tscn"},
		"autoloads_registered": []any{"GameState"}})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), Editor: ed.Serve})
	for _, c := range []struct {
		args     map[string]any
		required string
	}{
		{map[string]any{"template": "2d"}, "type"},
		{map[string]any{}, "type"},
		{map[string]any{"type": "racing"}, "type"},
		{map[string]any{"type": "3d_fps", "godot_version": "4.4"}, "godot_version"},
		{map[string]any{"type": "3d_fps", "renderer": "mobile"}, "renderer"},
	} {
		res := h.Call(context.Background(), "project_scaffold", c.args, sdktest.ConfirmDestructive())
		if res.ErrorCode != sdk.CodeInvalidArgument || res.Error.Required != c.required || res.Error.Hint == "" {
			t.Errorf("%v: %+v, want INVALID_ARGUMENT required=%s", c.args, res.Error, c.required)
		}
	}
	if res := h.Call(context.Background(), "project_scaffold", map[string]any{"type": "2d_platformer"}, sdktest.DryRun()); res.IsError {
		t.Fatalf("dry run: %+v", res.Error)
	}
	if calls := ed.Calls(); len(calls) != 0 {
		t.Fatalf("refusals and a dry run sent the editor %v", calls)
	}
	out := scaffoldOK(t, h, map[string]any{"type": "2d_platformer", "project_name": "Jumper", "main_scene": "level"})
	calls := ed.Calls()
	if len(calls) != 1 || calls[0].Command != "cmd_scaffold_project" {
		t.Fatalf("sent %+v", calls)
	}
	if p := calls[0].Params; p["type"] != "2d_platformer" || p["project_name"] != "Jumper" || p["main_scene"] != "level" || p["confirm"] != true {
		t.Errorf("params %v", p)
	}
	if out.MainScene != "res://scenes/level.tscn" || out.Renderer != scaffold.Compatibility || len(out.Files) != 5 || len(out.Autoloads) != 1 {
		t.Errorf("result %+v", out)
	}
}

// type picks the template and renderer headless, as the addon's types do,
// and main_scene names the main scene and its script.
func TestScaffoldGameTypeHeadless(t *testing.T) {
	dir := t.TempDir()
	h := headless(t, dir)
	out := scaffoldOK(t, h, map[string]any{"type": "3d_fps", "main_scene": "arena", "godot_version": "4.6"})
	if out.Template != scaffold.ThreeD || out.Renderer != scaffold.ForwardPlus || out.MainScene != "res://scenes/arena.tscn" {
		t.Fatalf("%+v", out)
	}
	scene := string(projfixture.Read(t, dir, "scenes/arena.tscn"))
	if !strings.Contains(scene, `[node name="arena" type="Node3D"`) || !strings.Contains(scene, `path="res://scripts/arena.gd"`) {
		t.Errorf("scene:\n%s", scene)
	}
	res := h.Call(context.Background(), "project_scaffold", map[string]any{"main_scene": "../x", "template": "2d", "overwrite": true}, sdktest.ConfirmDestructive())
	if res.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("a main_scene with a folder: %+v", res.Error)
	}
}
