package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// genProject writes a project of n files in directories of 50: a third
// scenes that use a shared theme (an ext_resource each), a third scripts
// that preload it every tenth file, a third resources that do not refer
// to it.
func genProject(b *testing.B, n int) (string, int) {
	b.Helper()
	dir := b.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"bench\"\n")
	write("ui/theme.tres", "[gd_resource type=\"Theme\" format=3 uid=\"uid://bc4kpaija14nv\"]\n\n[resource]\ndefault_font_size = 18\n")
	refs := 0
	for i := range n {
		d := fmt.Sprintf("area%02d/part%03d", i/500, i/50)
		switch i % 3 {
		case 0:
			refs++
			write(fmt.Sprintf("%s/scene%d.tscn", d, i), fmt.Sprintf("[gd_scene format=3 uid=\"uid://scene%d\"]\n\n[ext_resource type=\"Theme\" uid=\"uid://bc4kpaija14nv\" path=\"res://ui/theme.tres\" id=\"1_t\"]\n\n[node name=\"Root%d\" type=\"Control\"]\ntheme = ExtResource(\"1_t\")\n\n[node name=\"Label\" type=\"Label\" parent=\".\"]\ntext = \"Hello %d\"\n", i, i, i))
		case 1:
			body := "extends Node\n\nfunc _ready() -> void:\n\tpass\n"
			if i%10 == 1 {
				refs++
				body = "extends Node\nconst THEME = preload(\"res://ui/theme.tres\")\n\nfunc _ready() -> void:\n\tpass\n"
			}
			write(fmt.Sprintf("%s/script%d.gd", d, i), body)
		default:
			write(fmt.Sprintf("%s/res%d.tres", d, i), "[gd_resource type=\"Gradient\" format=3]\n\n[resource]\ncolors = PackedColorArray(1, 0, 0, 1, 0, 0, 1, 1)\n")
		}
	}
	return dir, refs
}

// BenchmarkSearchLargeTree: name and content search over 3,000 files.
func BenchmarkSearchLargeTree(b *testing.B) {
	dir, _ := genProject(b, 3000)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir})
	ctx := context.Background()
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"name", map[string]any{"pattern": "**/*.tscn", "limit": 2000}},
		{"content", map[string]any{"content": "theme.tres", "limit": 2000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if res := h.Call(ctx, "search_files", c.args); res.Err != nil || res.IsError {
					b.Fatal(res.Err, res.Text())
				}
			}
		})
	}
}

// BenchmarkMoveResourceFile: moving a theme used by ~1,100 of 3,000 files
// rewrites every reference in one workspace action (and back, so each
// iteration starts from the same project). The preview (dry run) is the
// scan and rewrite without the commit.
func BenchmarkMoveResourceFile(b *testing.B) {
	dir, refs := genProject(b, 3000)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir})
	ctx := context.Background()
	b.Logf("%d references", refs)
	b.Run("preview", func(b *testing.B) {
		for b.Loop() {
			res := h.Call(ctx, "move_file", map[string]any{"path": "res://ui/theme.tres", "new_path": "res://gui/theme.tres"}, sdktest.DryRun())
			if res.Err != nil || res.IsError {
				b.Fatal(res.Err, res.Text())
			}
		}
	})
	b.Run("move", func(b *testing.B) {
		from, to := "res://ui/theme.tres", "res://gui/theme.tres"
		for b.Loop() {
			res := h.Call(ctx, "move_file", map[string]any{"path": from, "new_path": to})
			if res.Err != nil || res.IsError {
				b.Fatal(res.Err, res.Text())
			}
			from, to = to, from
		}
	})
}
