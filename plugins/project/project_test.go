package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.CheckLeaks) }

// newProject builds a small Godot project, plus a directory outside it that
// an escaping symlink points to.
func newProject(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir, outside = filepath.Join(base, "game"), filepath.Join(base, "secrets")
	files := map[string]string{
		"game/project.godot":             "config_version=5\n",
		"game/icon.svg":                  "<svg/>",
		"game/scenes/main.tscn":          "[gd_scene format=3]\n[node name=\"Main\" type=\"Node2D\"]\n",
		"game/scenes/levels/level1.tscn": "[gd_scene format=3]\n",
		"game/scripts/player.gd":         "extends CharacterBody2D\nconst SPEED = 300.0\nfunc _physics_process(delta):\n\tpass\n",
		"game/scripts/enemy.gd":          "extends Node2D\n# speed tuned by hand\n",
		"game/.godot/imported/x.gd":      "const SPEED = 1\n",
		"game/.hidden/notes.txt":         "SPEED\n",
		"game/assets/big.bin":            strings.Repeat("SPEED ", 400),
		"secrets/key.gd":                 "const SPEED = 'secret'\n",
	}
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"game/escape":         outside,                          // a directory outside
		"game/scripts/key.gd": filepath.Join(outside, "key.gd"), // a file outside
		"game/scripts/alias":  filepath.Join(dir, "scenes"),     // inside: listed, not followed
		"game/scripts/loop":   "..",                             // inside (relative): listed, not followed
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(name))); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return dir, outside
}

func call[T any](t *testing.T, h *sdktest.Host, tool string, args any) (T, *sdktest.Result) {
	t.Helper()
	res := h.Call(context.Background(), tool, args, sdktest.ConfirmDestructive())
	if res.Err != nil {
		t.Fatalf("%s: %v", tool, res.Err)
	}
	var out T
	if !res.IsError {
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
	}
	return out, res
}

func TestFilesystemTree(t *testing.T) {
	dir, outside := newProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	out, res := call[treeResult](t, h, "get_filesystem_tree", nil)
	if res.IsError {
		t.Fatal(res.Text())
	}
	var got []string
	for _, e := range out.Entries {
		s := fmt.Sprintf("%s %s", e.Type, e.Path)
		if e.Target != "" {
			s += " -> " + e.Target
		}
		if e.Size > 0 {
			s += fmt.Sprintf(" %d", e.Size)
		}
		got = append(got, s)
	}
	want := []string{
		"dir res://assets",
		"file res://assets/big.bin 2400",
		"dir res://scenes",
		"dir res://scenes/levels",
		"file res://scenes/levels/level1.tscn 20",
		"file res://scenes/main.tscn 53",
		"dir res://scripts",
		"link res://scripts/alias -> res://scenes",
		"file res://scripts/enemy.gd 37",
		"link res://scripts/loop -> res://",
		"file res://scripts/player.gd 80",
		"file res://icon.svg 6",
		"file res://project.godot 17",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if text := res.Text(); strings.Contains(text, "secrets") || strings.Contains(text, outside) || !strings.Contains(text, "player.gd") {
		t.Errorf("text rendering:\n%s", text)
	}

	tests := []struct {
		name    string
		args    map[string]any
		entries int
		check   func(treeResult) bool
	}{
		{"depth 1", map[string]any{"depth": 1}, 5, func(r treeResult) bool { return r.Entries[0].Unlisted && r.Dirs == 3 }},
		{"limit", map[string]any{"limit": 2}, 2, func(r treeResult) bool { return r.Truncated }},
		{"sub directory", map[string]any{"path": "res://scenes"}, 3, func(r treeResult) bool { return r.Root == "res://scenes" }},
		{"hidden on request", map[string]any{"include_hidden": true, "depth": 1}, 6, func(r treeResult) bool { return r.Entries[0].Path == "res://.hidden" }},
		{"inside link as path", map[string]any{"path": "res://scripts/alias"}, 3, func(r treeResult) bool { return r.Root == "res://scenes" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, res := call[treeResult](t, h, "get_filesystem_tree", tt.args)
			if res.IsError || len(out.Entries) != tt.entries || !tt.check(out) {
				t.Errorf("got %d entries %+v (%s)", len(out.Entries), out, res.Text())
			}
		})
	}
}

func TestPathConfinement(t *testing.T) {
	dir, _ := newProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	tests := []struct {
		tool, path, code, msg string
	}{
		{"get_filesystem_tree", "../secrets", sdk.CodeInvalidArgument, `path "../secrets" leaves the project`},
		{"get_filesystem_tree", "res://scenes/../../secrets", sdk.CodeInvalidArgument, "leaves the project"},
		{"get_filesystem_tree", "/etc", sdk.CodeInvalidArgument, "leaves the project"},
		{"get_filesystem_tree", "res://escape", sdk.CodeInvalidArgument, "symbolic link"},
		{"get_filesystem_tree", "user://saves", sdk.CodeInvalidArgument, "not a res:// path"},
		{"get_filesystem_tree", "res://nope", sdk.CodeNotFound, "does not exist"},
		{"get_filesystem_tree", "res://icon.svg", sdk.CodeInvalidArgument, "not a directory"},
		{"search_files", "res://escape", sdk.CodeInvalidArgument, "symbolic link"},
		{"search_files", "../", sdk.CodeInvalidArgument, "leaves the project"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.path, func(t *testing.T) {
			args := map[string]any{"path": tt.path}
			if tt.tool == "search_files" {
				args["pattern"] = "*"
			}
			res := h.Call(context.Background(), tt.tool, args)
			if res.ErrorCode != tt.code || !strings.Contains(res.Error.Message, tt.msg) || res.Error.Hint == "" {
				t.Fatalf("got %q %q, want %q %q", res.ErrorCode, res.Text(), tt.code, tt.msg)
			}
		})
	}

	t.Run("no project", func(t *testing.T) {
		h := sdktest.New(t, Toolset(), sdktest.Options{})
		res := h.Call(context.Background(), "search_files", map[string]any{"pattern": "*"})
		if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "project_dir" {
			t.Fatalf("got %+v", res.Error)
		}
	})
}

func TestSearchFiles(t *testing.T) {
	dir, _ := newProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	tests := []struct {
		name  string
		args  map[string]any
		want  []string // path[:line]
		check func(searchResult) bool
	}{
		{"glob on name", map[string]any{"pattern": "*.tscn"}, []string{"res://scenes/levels/level1.tscn", "res://scenes/main.tscn"}, nil},
		{"glob on path", map[string]any{"pattern": "scenes/*.tscn"}, []string{"res://scenes/main.tscn"}, nil},
		{"double star", map[string]any{"pattern": "res://scenes/**/*.tscn"}, []string{"res://scenes/levels/level1.tscn", "res://scenes/main.tscn"}, nil},
		{"name substring", map[string]any{"name_contains": "PLAY"}, []string{"res://scripts/player.gd"}, nil},
		{"content", map[string]any{"content": "SPEED", "pattern": "*.gd"}, []string{"res://scripts/player.gd:2"}, nil},
		{"content ignoring case", map[string]any{"content": "SPEED", "pattern": "*.gd", "ignore_case": true},
			[]string{"res://scripts/enemy.gd:2", "res://scripts/player.gd:2"}, nil},
		{"max file size", map[string]any{"content": "SPEED", "max_file_size": 1000}, []string{"res://scripts/player.gd:2"},
			func(r searchResult) bool { return r.SkippedLarge == 1 }},
		{"limit", map[string]any{"pattern": "*", "limit": 1}, []string{"res://assets/big.bin"},
			func(r searchResult) bool { return r.Truncated }},
		{"under a path", map[string]any{"pattern": "*.gd", "path": "res://scripts"}, []string{"res://scripts/enemy.gd", "res://scripts/player.gd"}, nil},
		{"hidden on request", map[string]any{"content": "SPEED", "include_hidden": true, "pattern": "*.txt"}, []string{"res://.hidden/notes.txt:1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, res := call[searchResult](t, h, "search_files", tt.args)
			if res.IsError {
				t.Fatal(res.Text())
			}
			var got []string
			for _, m := range out.Matches {
				s := m.Path
				if m.Line > 0 {
					s += fmt.Sprintf(":%d", m.Line)
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || (tt.check != nil && !tt.check(out)) {
				t.Errorf("got %v %+v, want %v", got, out, tt.want)
			}
			if strings.Contains(res.Text(), "secret") {
				t.Errorf("search left the project:\n%s", res.Text())
			}
		})
	}

	for name, args := range map[string]map[string]any{
		"nothing to search": {},
		"bad pattern":       {"pattern": "[a-"},
		"negative limit":    {"pattern": "*", "limit": -1},
	} {
		t.Run(name, func(t *testing.T) {
			res := h.Call(context.Background(), "search_files", args)
			if res.ErrorCode != sdk.CodeInvalidArgument || res.Error.Hint == "" {
				t.Fatalf("got %q %s", res.ErrorCode, res.Text())
			}
		})
	}
}

func TestManifest(t *testing.T) {
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.Godot != ">= 4.0" {
		t.Errorf("godot constraint %q", m.Godot)
	}
	want := map[string]sdk.SafetyClass{
		"get_filesystem_tree": sdk.ReadOnly, "search_files": sdk.ReadOnly, "get_setting": sdk.ReadOnly,
		"set_setting": sdk.Mutating, "resolve_uid": sdk.ReadOnly, "path_to_uid": sdk.ReadOnly,
		"delete_resource_file": sdk.Destructive, "move_file": sdk.Mutating,
	}
	if len(m.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(m.Tools), len(want))
	}
	for _, tool := range m.Tools {
		if tool.SafetyClass != want[tool.Name] {
			t.Errorf("tool %s: class %q, want %q", tool.Name, tool.SafetyClass, want[tool.Name])
		}
		if (tool.Name == "get_filesystem_tree" || tool.Name == "search_files") && len(tool.OutputSchema) == 0 {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
	}
}
