//go:build unix

package main

import (
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A named pipe as import_asset's source is refused at once, naming what
// it is: the source used to be opened before its type was checked, and
// opening a FIFO waits for a writer, so the call hung.
func TestImportAssetRefusesANamedPipe(t *testing.T) {
	allowed := t.TempDir()
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	t.Setenv(AllowEnv, allowed)
	fifo := plugintest.Mkfifo(t, filepath.Join(allowed, "pipe.png"))

	res := plugintest.CallWithin(t, h, []string{fifo}, "asset", map[string]any{"source": fifo, "target_path": "res://pipe.png"})
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Text(), "named pipe") || !strings.Contains(res.Text(), "Hint:") {
		t.Fatalf("a named pipe as source: %s, want INVALID_ARGUMENT naming it, with a hint", res.Text())
	}
	if exists(dir, "res://pipe.png") {
		t.Fatal("the refused import wrote res://pipe.png")
	}
}

// get_status reads an asset, its .import file and the editor's .md5
// record; a named pipe in any of those places answers (the asset is
// stale) instead of hanging the call.
func TestGetStatusSurvivesNamedPipes(t *testing.T) {
	tex, _ := importfile.For("x.png")
	dir := plugintest.Project(t, map[string]string{
		"project.godot": projectGodot,
		"a.png":         string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
		"b.png.import":  string(importfile.Build("res://b.png", tex, "uid://b1234567")),
		strings.TrimPrefix(importfile.MD5Path("res://b.png"), "res://"): "source_md5=\"0\"\ndest_md5=\"0\"\n",
		"c.png":        string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
		"c.png.import": string(importfile.Build("res://c.png", tex, "uid://c1234567")),
	})
	fifos := []string{
		plugintest.Mkfifo(t, filepath.Join(dir, "a.png.import")),
		plugintest.Mkfifo(t, filepath.Join(dir, "b.png")),
		plugintest.Mkfifo(t, filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(importfile.MD5Path("res://c.png"), "res://")))),
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, res := range []string{"res://a.png", "res://b.png", "res://c.png"} {
		r := plugintest.CallWithin(t, h, fifos, "get_status", map[string]any{"target_path": res})
		var out statusOut
		if err := r.Structured(&out); err != nil {
			t.Fatalf("%s: %v (%s)", res, err, r.Text())
		}
		if out.Imported == nil || *out.Imported || len(out.Items) != 1 {
			t.Fatalf("%s: %s, want it reported not imported", res, r.Text())
		}
	}
	plugintest.CallWithin(t, h, fifos, "get_status", map[string]any{"include_ok": true})
}
