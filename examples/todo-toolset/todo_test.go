package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// project writes files (path → content) into a fresh project directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["project.godot"] = "config_version=5\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const player = `extends CharacterBody2D
# TODO: add double jump
var color = "#ff0000" # FIXME(ann): use the theme colour
var doc = """
# TODO not a comment, inside a string
"""
func _ready():
	pass ## HACK work around the physics bug
	# todo lower-case is prose, not a tag
	# XXX
`

func callList(t *testing.T, h *sdktest.Host, args any) (listResult, *sdktest.Result) {
	t.Helper()
	res := h.Call(context.Background(), "list", args)
	if res.Err != nil {
		t.Fatalf("call: %v", res.Err)
	}
	var out listResult
	if !res.IsError {
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
	}
	return out, res
}

func TestList(t *testing.T) {
	dir := project(t, map[string]string{
		"player.gd":               player,
		"enemies/slime.gd":        "# TODO: split\n",
		"addons/tool/plugin.gd":   "# TODO: addon\n",
		".godot/editor/cache.gd":  "# TODO: cache\n",
		"ignored/.gdignore":       "",
		"ignored/old.gd":          "# TODO: ignored\n",
		"notes.txt":               "# TODO: not a script\n",
		"enemies/boss/boss_ai.gd": "func f():\n\treturn 1 # HACK: magic number\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	out, _ := callList(t, h, nil)
	want := []Item{
		{"res://enemies/boss/boss_ai.gd", 2, "HACK", "magic number"},
		{"res://enemies/slime.gd", 1, "TODO", "split"},
		{"res://player.gd", 2, "TODO", "add double jump"},
		{"res://player.gd", 3, "FIXME", "use the theme colour"},
		{"res://player.gd", 8, "HACK", "work around the physics bug"},
		{"res://player.gd", 10, "XXX", ""},
	}
	if fmt.Sprint(out.Items) != fmt.Sprint(want) {
		t.Errorf("items\n got %v\nwant %v", out.Items, want)
	}
	if out.FilesScanned != 3 || out.Truncated {
		t.Errorf("scanned %d truncated %v", out.FilesScanned, out.Truncated)
	}

	tests := []struct {
		name  string
		args  map[string]any
		files []string // "file:line" of the expected items
		trunc bool
	}{
		{"tag filter", map[string]any{"tags": []string{"hack"}}, []string{"res://enemies/boss/boss_ai.gd:2", "res://player.gd:8"}, false},
		{"path prefix", map[string]any{"path": "res://enemies/boss"}, []string{"res://enemies/boss/boss_ai.gd:2"}, false},
		{"plain relative path", map[string]any{"path": "enemies/slime.gd"}, []string{"res://enemies/slime.gd:1"}, false},
		{"limit", map[string]any{"limit": 2}, []string{"res://enemies/boss/boss_ai.gd:2", "res://enemies/slime.gd:1"}, true},
		{"addons on request", map[string]any{"path": "res://addons", "include_addons": true}, []string{"res://addons/tool/plugin.gd:1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, res := callList(t, h, tt.args)
			if res.IsError {
				t.Fatalf("error: %s", res.Text())
			}
			var got []string
			for _, it := range out.Items {
				got = append(got, fmt.Sprintf("%s:%d", it.File, it.Line))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.files) || out.Truncated != tt.trunc {
				t.Errorf("got %v truncated=%v, want %v truncated=%v", got, out.Truncated, tt.files, tt.trunc)
			}
		})
	}
}

// list reads the files in both modes: the manifest says so, and with a
// Godot editor attached it answers the same and sends the editor nothing.
func TestListInBothModes(t *testing.T) {
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if tool, _ := m.Tool("list"); !tool.Supports(sdk.ModeHeadless) || !tool.Supports(sdk.ModeEditor) || tool.EditorPath != "files" {
		t.Fatalf("list: modes %v, editor path %q", tool.Modes, tool.EditorPath)
	}
	dir := project(t, map[string]string{"a.gd": "# TODO: a\n"})
	ed := sdktest.NewEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	out, res := callList(t, h, map[string]any{"path": "a.gd"})
	if res.IsError || len(out.Items) != 1 || out.Items[0].File != "res://a.gd" {
		t.Fatalf("with an editor attached: %+v %s", out, res.Text())
	}
	if calls := ed.Calls(); len(calls) != 0 {
		t.Errorf("list sent the editor %v", calls)
	}
}

func TestListErrors(t *testing.T) {
	dir := project(t, map[string]string{"a.gd": "# TODO: a\n"})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	tests := []struct {
		name string
		args map[string]any
		code string
	}{
		{"escape", map[string]any{"path": "res://../secrets"}, sdk.CodeInvalidArgument},
		{"absolute", map[string]any{"path": "/etc"}, sdk.CodeInvalidArgument},
		{"missing", map[string]any{"path": "res://nope"}, sdk.CodeNotFound},
		{"unknown tag", map[string]any{"tags": []string{"NOTE"}}, sdk.CodeInvalidArgument},
		{"negative limit", map[string]any{"limit": -1}, sdk.CodeInvalidArgument},
		{"unknown argument", map[string]any{"recursive": true}, sdk.CodeInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := callList(t, h, tt.args)
			if res.ErrorCode != tt.code || res.Error.Hint == "" {
				t.Fatalf("code %q, want %q (%s)", res.ErrorCode, tt.code, res.Text())
			}
		})
	}

	t.Run("no project", func(t *testing.T) {
		h := sdktest.New(t, Toolset(), sdktest.Options{})
		_, res := callList(t, h, nil)
		if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "project_dir" {
			t.Fatalf("got %+v", res.Error)
		}
	})
}

func TestListSkipsSymlinks(t *testing.T) {
	outside := project(t, map[string]string{"secret.gd": "# TODO: outside\n"})
	dir := project(t, map[string]string{"a.gd": "# TODO: inside\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.gd"), filepath.Join(dir, "b.gd")); err != nil {
		t.Fatal(err)
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	out, _ := callList(t, h, nil)
	if len(out.Items) != 1 || out.Items[0].Text != "inside" {
		t.Errorf("items %v", out.Items)
	}
	if _, res := callList(t, h, map[string]any{"path": "res://linked"}); res.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("walking into a symlink: %q %s", res.ErrorCode, res.Text())
	}
}

func TestListProgress(t *testing.T) {
	files := map[string]string{}
	for i := range 2*progressEvery + 10 {
		files[fmt.Sprintf("gen/s%03d.gd", i)] = "pass\n"
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t, files)})
	res := h.Call(context.Background(), "list", nil)
	if res.IsError || len(res.Progress) != 2 || res.Progress[1].Done != 2*progressEvery {
		t.Fatalf("progress %+v (%s)", res.Progress, res.Text())
	}
}
