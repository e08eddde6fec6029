package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
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
	out := structured[infoResult](t, h.Call(context.Background(), "get_export_info", map[string]any{"preset": "Linux/X11"}))
	if out.Options["binary_format/64_bits"] != "true" || out.Settings["script_export_mode"] != "1" || out.Preset.Index != 0 {
		t.Fatalf("%+v", out)
	}
	if !strings.HasSuffix(out.TemplatesDir, filepath.Join("godot", "templates", "3.2.3.stable")) || out.TemplatesPresent == nil {
		t.Fatalf("templates %q %v", out.TemplatesDir, out.TemplatesPresent)
	}
	res := h.Call(context.Background(), "get_export_info", map[string]any{"preset": "Android"})
	if res.ErrorCode != sdk.CodeNotFound || !strings.Contains(res.Error.Hint, `"Linux/X11"`) {
		t.Fatalf("%+v", res.Error)
	}
}

func TestExportPack(t *testing.T) {
	godottest.RequireGodot3(t)
	dir, h := project(t)
	// dry_run: the command, nothing written.
	out := structured[exportResult](t, h.Call(context.Background(), "export_project",
		map[string]any{"preset": "Linux/X11", "mode": "pack"}, sdktest.DryRun()))
	if !out.DryRun || out.OutputFile != "res://build/game.pck" || !strings.Contains(strings.Join(out.Command, " "), "--export-pack Linux/X11 ") {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "game.pck")); err == nil {
		t.Fatal("dry run wrote the file")
	}
	out = structured[exportResult](t, h.Call(context.Background(), "export_project", map[string]any{"preset": "Linux/X11", "mode": "pack"}))
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
	out := structured[exportResult](t, h.Call(context.Background(), "export_project", map[string]any{"preset": "Linux/X11"}))
	if out.Exported || len(out.Errors) == 0 || !strings.Contains(out.Summary, "templates are missing") {
		t.Fatalf("%+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "game.x86_64")); err == nil {
		t.Fatal("a binary appeared without templates")
	}
}

func TestExportArguments(t *testing.T) {
	godottest.RequireGodot3(t)
	_, h := project(t)
	for args, code := range map[string]string{
		`{"preset":"Linux/X11","mode":"fast"}`:                   sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"../../escape.pck"}`:     sdk.CodeInvalidArgument,
		`{"preset":"Linux/X11","output":"res://nodir/game.pck"}`: sdk.CodeNotFound,
		`{"preset":"Linux/X11","output":"res://build"}`:          sdk.CodeInvalidArgument,
		`{"preset":"Web"}`:  sdk.CodeInvalidArgument,
		`{"preset":"Nope"}`: sdk.CodeNotFound,
		`{"preset":"Linux/X11","timeout_seconds":999999}`: sdk.CodeInvalidArgument,
	} {
		res := h.Call(context.Background(), "export_project", []byte(args))
		if res.ErrorCode != code {
			t.Errorf("%s: got %s %s", args, res.ErrorCode, res.Text())
		}
	}
}
