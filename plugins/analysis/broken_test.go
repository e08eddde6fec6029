package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// edit replaces old (which must occur once) in a project file.
func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	abs := filepath.Join(dir, rel)
	b, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), old) != 1 {
		t.Fatalf("%s: %q occurs %d times", rel, old, strings.Count(string(b), old))
	}
	if err := os.WriteFile(abs, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineOf returns the 1-based line of the first line of rel containing s.
func lineOf(t *testing.T, dir, rel, s string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", rel, s)
	return 0
}

// A real project broken on purpose in known ways: each break is reported
// exactly once, at its file and line, and nothing else is reported.
func TestBrokenProjectFindings(t *testing.T) {
	dir := copyProject(t, "2d-dodge_the_creeps")

	// 1. A deleted sound: its ext_resource leads nowhere.
	if err := os.Remove(filepath.Join(dir, "art", "gameover.wav")); err != nil {
		t.Fatal(err)
	}
	// 2. A node whose parent does not exist.
	edit(t, dir, "main.tscn", `[node name="DeathSound" type="AudioStreamPlayer" parent="."`, `[node name="DeathSound" type="AudioStreamPlayer" parent="Nowhere"`)
	// 3. A duplicate node name.
	edit(t, dir, "main.tscn", "[connection signal=\"hit\"", "[node name=\"ScoreTimer\" type=\"Timer\" parent=\".\"]\n\n[connection signal=\"hit\"")
	// 4. A connection from a node that does not exist.
	edit(t, dir, "main.tscn", `[connection signal="start_game"`, "[connection signal=\"timeout\" from=\"GhostTimer\" to=\".\" method=\"_on_ghost\"]\n[connection signal=\"start_game\"")
	// 5. A reference to a sub_resource that is not declared.
	edit(t, dir, "hud.tscn", `[node name="ScoreLabel" type="Label" parent="." unique_id=1314826100]`, "[node name=\"ScoreLabel\" type=\"Label\" parent=\".\" unique_id=1314826100]\nlabel_settings = SubResource(\"gone\")")
	// 6. A scene moved without updating the path: its uid still finds it.
	if err := os.MkdirAll(filepath.Join(dir, "enemies"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "mob.tscn"), filepath.Join(dir, "enemies", "mob.tscn")); err != nil {
		t.Fatal(err)
	}
	// 7. A script preloading a file that does not exist.
	plugintest.WriteFile(t, dir, "main.gd", "extends Node\n\nconst Boss = preload(\"res://boss.tscn\")\n")

	want := []string{
		fmt.Sprintf("res://hud.tscn:%d MISSING_SUB_RESOURCE", lineOf(t, dir, "hud.tscn", `SubResource("gone")`)),
		"res://main.gd:3 BROKEN_PRELOAD",
		fmt.Sprintf("res://main.tscn:%d STALE_PATH", lineOf(t, dir, "main.tscn", `path="res://mob.tscn"`)),
		fmt.Sprintf("res://main.tscn:%d BROKEN_EXT_RESOURCE", lineOf(t, dir, "main.tscn", "gameover.wav")),
		fmt.Sprintf("res://main.tscn:%d BAD_PARENT", lineOf(t, dir, "main.tscn", `parent="Nowhere"`)),
		fmt.Sprintf("res://main.tscn:%d DUPLICATE_NAME", lineOf(t, dir, "main.tscn", `[node name="ScoreTimer" type="Timer" parent="."]`)),
		fmt.Sprintf("res://main.tscn:%d CONNECTION_MISSING_NODE", lineOf(t, dir, "main.tscn", "GhostTimer")),
	}
	sort.Strings(want)

	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	got := call[integrityResult](t, h, "validate_scene_integrity", map[string]any{"include_scripts": true})
	var have []string
	for _, f := range got.Findings {
		have = append(have, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Code))
		if f.Hint == "" || f.Message == "" {
			t.Errorf("finding without message or hint: %+v", f)
		}
	}
	sort.Strings(have)
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\nfull: %+v", strings.Join(have, "\n"), strings.Join(want, "\n"), got.Findings)
	}
	if got.Errors != 6 || got.Warnings != 1 {
		t.Errorf("errors %d warnings %d, want 6 and 1", got.Errors, got.Warnings)
	}
	// The stale path's hint names where the uid leads.
	for _, f := range got.Findings {
		if f.Code == "STALE_PATH" && !strings.Contains(f.Hint, "res://enemies/mob.tscn") {
			t.Errorf("stale path hint %q does not name the new place", f.Hint)
		}
	}
	// Only one scene: the findings of that file only.
	one := call[integrityResult](t, h, "validate_scene_integrity", map[string]any{"scene": "res://hud.tscn"})
	if len(one.Findings) != 1 || one.Findings[0].Code != "MISSING_SUB_RESOURCE" || one.Checked != 1 {
		t.Errorf("hud.tscn alone: %+v", one)
	}
	// Paging: two per page, every finding once over the pages.
	var paged []string
	for off := 0; ; {
		p := call[integrityResult](t, h, "validate_scene_integrity", map[string]any{"include_scripts": true, "limit": 2, "offset": off})
		for _, f := range p.Findings {
			paged = append(paged, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Code))
		}
		if !p.Truncated {
			break
		}
		off = p.NextOffset
	}
	sort.Strings(paged)
	if strings.Join(paged, "\n") != strings.Join(want, "\n") {
		t.Errorf("paged findings differ: %v", paged)
	}
}
