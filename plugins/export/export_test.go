package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if hostBinPath != "" {
		_ = os.RemoveAll(filepath.Dir(hostBinPath)) // the binaries host_test.go built
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// presets is an export_presets.cfg as the Godot 3.2 editor writes it.
const presets = `[preset.0]

name="Linux/X11"
platform="Linux/X11"
runnable=true
custom_features=""
export_filter="all_resources"
include_filter=""
exclude_filter=""
export_path="build/game.x86_64"
patch_list=PoolStringArray(  )
script_export_mode=1
script_encryption_key=""

[preset.0.options]

texture_format/bptc=false
binary_format/64_bits=true
custom_template/debug=""

[preset.1]

name="Web"
platform="HTML5"
runnable=false
custom_features=""
export_filter="all_resources"
include_filter=""
exclude_filter=""
export_path=""
patch_list=PoolStringArray(  )
script_export_mode=1
script_encryption_key=""

[preset.1.options]

vram_texture_compression/for_desktop=true
`

func project(t *testing.T) (string, *sdktest.Host) {
	t.Helper()
	dir := godottest.Godot3Project(t, "extends Node\n\nfunc _ready():\n\tget_tree().quit()\n",
		map[string]string{"export_presets.cfg": presets, "build/.keep": ""})
	return dir, sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
}

func structured[T any](t *testing.T, res *sdktest.Result) T {
	t.Helper()
	var out T
	if res.Err != nil || res.IsError {
		t.Fatalf("%v %s", res.Err, res.Text())
	}
	if err := res.Structured(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestListPresets(t *testing.T) {
	_, h := project(t)
	out := structured[listResult](t, h.Call(context.Background(), "list_presets", map[string]any{}))
	if len(out.Presets) != 2 || out.Presets[0].Name != "Linux/X11" || !out.Presets[0].Runnable ||
		out.Presets[0].ExportPath != "build/game.x86_64" || out.Presets[1].Platform != "HTML5" {
		t.Fatalf("%+v", out)
	}
	empty := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir()})
	out = structured[listResult](t, empty.Call(context.Background(), "list_presets", map[string]any{}))
	if len(out.Presets) != 0 || !strings.Contains(out.Note, "Project > Export") {
		t.Fatalf("%+v", out)
	}
}

func TestGetExportInfo(t *testing.T) {
	godottest.RequireGodot3(t)
	_, h := project(t)
	out := structured[infoResult](t, h.Call(context.Background(), "get_info", map[string]any{"preset": "Linux/X11"}))
	if out.Options["binary_format/64_bits"] != "true" || out.Settings["script_export_mode"] != "1" || out.Preset.Index != 0 {
		t.Fatalf("%+v", out)
	}
	if !strings.HasSuffix(out.TemplatesDir, filepath.Join("godot", "templates", "3.2.3.stable")) || out.TemplatesPresent == nil {
		t.Fatalf("templates %q %v", out.TemplatesDir, out.TemplatesPresent)
	}
	res := h.Call(context.Background(), "get_info", map[string]any{"preset": "Android"})
	if res.ErrorCode != sdk.CodeNotFound || !strings.Contains(res.Error.Hint, `"Linux/X11"`) {
		t.Fatalf("%+v", res.Error)
	}
}

func TestExportPack(t *testing.T) {
	godottest.RequireGodot3(t)
	dir, h := project(t)
	// dry_run: the command, nothing written.
	out := structured[exportResult](t, h.Call(context.Background(), "project",
		map[string]any{"preset": "Linux/X11", "mode": "pack"}, sdktest.DryRun()))
	if !out.DryRun || out.OutputFile != "res://build/game.pck" || !strings.Contains(strings.Join(out.Command, " "), "--export-pack Linux/X11 ") {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "game.pck")); err == nil {
		t.Fatal("dry run wrote the file")
	}
	out = structured[exportResult](t, h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "mode": "pack"}))
	if !out.Exported || out.OutputSize == 0 {
		t.Fatalf("%+v", out)
	}
	if st, err := os.Stat(filepath.Join(dir, "build", "game.pck")); err != nil || st.Size() != out.OutputSize {
		t.Fatalf("pck: %v", err)
	}
}

// Without export templates a release export fails, and says why.
func TestExportReleaseWithoutTemplates(t *testing.T) {
	godottest.RequireGodot3(t)
	dir, h := project(t)
	b, err := (&godotrun.Finder{}).Find(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(templatesDir(b)); err == nil && st.IsDir() {
		t.Skip("export templates are installed here; this test checks the failure without them")
	}
	out := structured[exportResult](t, h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11"}))
	if out.Exported || len(out.Errors) == 0 || !strings.Contains(out.Summary, "templates are missing") {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "game.x86_64")); err == nil {
		t.Fatal("a binary appeared without templates")
	}
}

// fakeProject is project with the fake exporting Godot as the binary: the
// export's rules about where it writes need no real Godot.
func fakeProject(t *testing.T, extra map[string]string) (string, *sdktest.Host) {
	t.Helper()
	t.Setenv(godotrun.EnvBin, godottest.ExportingGodot(t))
	files := map[string]string{"export_presets.cfg": presets + evilPreset}
	for k, v := range extra {
		files[k] = v
	}
	dir := godottest.Godot3Project(t, "extends Node\n", files)
	return dir, sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
}

// evilPreset names project.godot as its export path.
const evilPreset = `
[preset.2]

name="Evil"
platform="Linux/X11"
runnable=false
export_path="project.godot"
`

func TestExportArguments(t *testing.T) {
	_, h := fakeProject(t, nil)
	for args, code := range map[string]string{
		`{"preset":"Linux/X11","mode":"fast"}`:                   sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"../../escape.pck"}`:     sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"/tmp/escape.pck"}`:      sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"res://nodir/game.pck"}`: sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"res://build"}`:          sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"res://build/"}`:         sdk.CodeInvalidArgument,
		`{"preset":"Web"}`:  sdk.CodeInvalidArgument,
		`{"preset":"Nope"}`: sdk.CodeNotFound,
		`{"preset":"Linux/X11","timeout_seconds":999999}`: sdk.CodeInvalidArgument,
	} {
		res := h.Call(context.Background(), "project", []byte(args))
		if res.ErrorCode != code {
			t.Errorf("%s: got %s %s", args, res.ErrorCode, res.Text())
		}
	}
}

// TestExportNeverWritesProjectFiles: project.godot, a script, a scene and
// a file that Godot would import are refused as outputs, named directly or
// through a preset's export_path, in dry runs too, and stay as they were.
func TestExportNeverWritesProjectFiles(t *testing.T) {
	dir, h := fakeProject(t, nil)
	before := snapshot(t, dir)
	for _, tc := range []struct {
		args     map[string]any
		dryRun   bool
		fragment string
	}{
		{map[string]any{"preset": "Linux/X11", "output": "res://project.godot"}, false, "outside the export folder res://build/"},
		{map[string]any{"preset": "Linux/X11", "output": "res://project.godot", "overwrite": true}, true, "outside the export folder"},
		{map[string]any{"preset": "Linux/X11", "output": "main.gd", "mode": "pack"}, false, "outside the export folder"},
		{map[string]any{"preset": "Linux/X11", "output": "res://build/level.tscn"}, false, "extension of a Godot project file"},
		{map[string]any{"preset": "Linux/X11", "output": "res://build/project.godot"}, false, "extension of a Godot project file"},
		{map[string]any{"preset": "Evil"}, false, "res://build/project.godot has the extension of a Godot project file"},
		{map[string]any{"preset": "Linux/X11", "output": "res://build/.godot-mcp-exports.json"}, false, "keeps for itself"},
	} {
		var opts []sdktest.CallOption
		if tc.dryRun {
			opts = append(opts, sdktest.DryRun())
		}
		res := h.Call(context.Background(), "project", tc.args, opts...)
		if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Text(), tc.fragment) ||
			!strings.HasPrefix(res.Text(), "INVALID_ARGUMENT: ") || res.Error.Hint == "" {
			t.Errorf("%v: %s %s", tc.args, res.ErrorCode, res.Text())
		}
	}
	if after := snapshot(t, dir); !maps.Equal(before, after) {
		t.Fatalf("the project changed:\nbefore %v\nafter  %v", before, after)
	}
}

// TestExportNeverThroughALink: a link at the output, or at the export
// folder, to a file or directory outside the project is refused before
// Godot runs, and the outside file is untouched.
func TestExportNeverThroughALink(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		link   string // relative to the project
		target string
		output string
	}{
		{"output is a link to a file", "build/game.pck", victim, "res://build/game.pck"},
		{"export folder is a link", "build", outside, "res://build/victim.txt"},
		{"subfolder is a link", "build/web", outside, "res://build/web/victim.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, h := fakeProject(t, nil)
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tc.target, filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			for _, overwrite := range []bool{false, true} {
				res := h.Call(context.Background(), "project",
					map[string]any{"preset": "Linux/X11", "mode": "pack", "output": tc.output, "overwrite": overwrite})
				if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Text(), "is a symbolic link") {
					t.Fatalf("%s %s", res.ErrorCode, res.Text())
				}
			}
			if data, _ := os.ReadFile(victim); string(data) != "precious" {
				t.Fatalf("the outside file now holds %q", data)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 1 {
				t.Fatalf("files appeared outside: %v", ents)
			}
		})
	}
}

// TestExportFolder: the first export creates res://build/ with a
// .gdignore and records what it wrote; a second export of the same file
// needs overwrite=true; a file the export did not write is never replaced.
func TestExportFolder(t *testing.T) {
	dir, h := fakeProject(t, nil)
	pack := map[string]any{"preset": "Linux/X11", "mode": "pack"}
	out := structured[exportResult](t, h.Call(context.Background(), "project", pack))
	if !out.Exported || out.OutputFile != "res://build/game.pck" || !slices.Equal(out.Files, []string{"res://build/game.pck"}) {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", ".gdignore")); err != nil {
		t.Fatalf("no .gdignore: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "build", "game.pck")); err != nil || string(data) != "pack of Linux/X11\n" {
		t.Fatalf("%q %v", data, err)
	}
	res := h.Call(context.Background(), "project", pack)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "overwrite" || !strings.Contains(res.Error.Hint, "overwrite=true") {
		t.Fatalf("%s %s", res.ErrorCode, res.Text())
	}
	out = structured[exportResult](t, h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "mode": "pack", "overwrite": true}))
	if !out.Exported {
		t.Fatalf("%+v", out)
	}
	// A release export writes the binary and its .pck: both placed and
	// recorded, so the .pck the pack export wrote may be replaced.
	out = structured[exportResult](t, h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "overwrite": true}))
	if !out.Exported || !slices.Equal(out.Files, []string{"res://build/game.pck", "res://build/game.x86_64"}) {
		t.Fatalf("%+v", out)
	}
	// Not an earlier export: refused even with overwrite, and kept.
	mine := filepath.Join(dir, "build", "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "mode": "pack", "output": "res://build/notes.txt", "overwrite": true})
	if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "was not written by godot_export_project") {
		t.Fatalf("%s %s", res.ErrorCode, res.Text())
	}
	// An earlier export changed by someone else is not ours any more.
	if err := os.WriteFile(filepath.Join(dir, "build", "game.x86_64"), []byte("edited by hand"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "overwrite": true})
	if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "or changed since") {
		t.Fatalf("%s %s", res.ErrorCode, res.Text())
	}
	if data, _ := os.ReadFile(mine); string(data) != "mine" {
		t.Fatalf("notes.txt now holds %q", data)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "build")); len(ents) != 5 { // .gdignore, manifest, game.pck, game.x86_64, notes.txt
		t.Fatalf("export folder: %v", ents)
	}
}

// An existing res://build/ with scenes in it and no .gdignore is not taken
// over: the .gdignore would hide the scenes from Godot.
func TestExportFolderWithSourcesIsRefused(t *testing.T) {
	dir, h := fakeProject(t, map[string]string{"build/level.tscn": "[gd_scene format=2]\n"})
	res := h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "mode": "pack"})
	if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "res://build/level.tscn") {
		t.Fatalf("%s %s", res.ErrorCode, res.Text())
	}
	if _, err := os.Lstat(filepath.Join(dir, "build", ".gdignore")); err == nil {
		t.Fatal("a .gdignore now hides the scene")
	}
}

// snapshot maps every file under dir to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// With an editor attached the export still runs its own headless Godot on
// the files, so its dry run sends the editor nothing at all.
func TestExportDryRunWithEditorSendsNothing(t *testing.T) {
	dir, _ := fakeProject(t, nil)
	ed := sdktest.NewEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3", Editor: ed.Serve})
	res := h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "mode": "pack"}, sdktest.DryRun())
	type preview struct {
		exportResult
		Preview struct {
			Mode string `json:"mode"`
		} `json:"preview"`
	}
	out := structured[preview](t, res)
	if !out.DryRun || out.Preview.Mode != "editor" || out.OutputFile != "res://build/game.pck" {
		t.Fatalf("%+v", out)
	}
	if calls := ed.Calls(); len(calls) != 0 {
		t.Fatalf("the dry run reached the editor: %+v", calls)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "game.pck")); err == nil {
		t.Fatal("dry run wrote the file")
	}
}

// A prompt written for the addon's own server says output_path and
// debug=true, and may leave get_info's preset out when there is one.
func TestReferenceSpellings(t *testing.T) {
	dir, h := fakeProject(t, nil)
	out := structured[exportResult](t, h.Call(context.Background(), "project",
		map[string]any{"preset": "Linux/X11", "output_path": "res://build/ref.pck", "debug": true}))
	if !out.Exported || out.OutputFile != "res://build/ref.pck" || out.Mode != "debug" {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "ref.pck")); err != nil {
		t.Fatal(err)
	}
	res := h.Call(context.Background(), "project", map[string]any{"preset": "Linux/X11", "debug": true, "mode": "pack"})
	if res.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("debug with mode pack: %s %s", res.ErrorCode, res.Text())
	}
	// With several presets, one must be named; the error lists them.
	res = h.Call(context.Background(), "get_info", nil)
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Hint, `"Linux/X11"`) {
		t.Errorf("get_info without preset: %s %s", res.ErrorCode, res.Text())
	}
}
