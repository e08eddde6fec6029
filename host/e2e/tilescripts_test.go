package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// TestTilemapAndScriptsThroughTheHost drives the real tilemap and scripts
// plugins through the real host over MCP, headless, on a copy of a real
// tile map project: a paint, the host's confirm gate on clear, a script
// write with a syntax error reported, and godot_undo reverting it all.
func TestTilemapAndScriptsThroughTheHost(t *testing.T) {
	dir := hexagonalMap(t)
	orig, _ := readFile(t, filepath.Join(dir, "map.tscn"))
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_GODOT_BIN=" + filepath.Join(dir, "no-godot"), "GODOT_MCP_WEB_RUNTIME=" + filepath.Join(dir, "no-runtime")},
		"--plugins-dir", projectPluginsDir, "--project", dir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"tilemap", "scripts"}}, nil)

	var set map[string]any
	s.ok(t, "godot_tilemap_set_cell", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer",
		"coords": []int{100, 100}, "source_id": 0}, &set)
	var cell map[string]any
	s.ok(t, "godot_tilemap_get_cell", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer", "coords": []int{100, 100}}, &cell)
	if cell["empty"] != false {
		t.Fatalf("get_cell after set_cell = %v", cell)
	}
	// clear is mutating, as the reference's: no confirm, one undo step.
	s.ok(t, "godot_tilemap_clear", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer"}, nil)
	s.ok(t, "godot_tilemap_get_cell", map[string]any{"scene_path": "res://map.tscn", "node_path": "TileMapLayer", "coords": []int{100, 100}}, &cell)
	if cell["empty"] != true {
		t.Fatalf("get_cell after clear = %v", cell)
	}
	var w map[string]any
	s.ok(t, "godot_scripts_write", map[string]any{"script_path": "res://troll.gd", "content": "extends Node\nfunc f()\n\tpass\n", "confirm": true}, &w)
	if !strings.Contains(w["warning"].(string), "line 3") {
		t.Fatalf("write of a broken script = %v", w)
	}
	var pe map[string]any
	s.ok(t, "godot_scripts_get_parse_errors", nil, &pe)
	if pe["checker"] != "builtin-gdscript-syntax" || pe["files_with_errors"].(float64) != 1 {
		t.Fatalf("get_parse_errors = %v", pe)
	}
	s.ok(t, "godot_undo", map[string]any{"count": 3}, nil)
	if now, _ := readFile(t, filepath.Join(dir, "map.tscn")); now != orig {
		t.Fatal("undo did not restore map.tscn")
	}
	if _, ok := readFile(t, filepath.Join(dir, "troll.gd")); ok {
		t.Fatal("undo left troll.gd behind")
	}
}

// TestScriptsKeepTheUsersEdits is issue 23's scenario through the real host:
// the agent reads a script, the user edits it on disk, and the agent's
// write is refused with the user's edit as a diff (forced, it is written);
// an undo of the agent's line 1 keeps the user's line 10, and an undo that
// would lose the user's line is refused, naming it.
func TestScriptsKeepTheUsersEdits(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "project.godot"), "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.6\")\n")
	text := func(first, tenth string) string {
		return "extends Node\n" + first + "\n\n\n\n\n\n\n\n" + tenth + "\n"
	}
	writeFile(t, filepath.Join(dir, "a.gd"), text("var a = 1", "var j = 1"))
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_GODOT_BIN=" + filepath.Join(dir, "no-godot")},
		"--plugins-dir", projectPluginsDir, "--project", dir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scripts"}}, nil)

	var r map[string]any
	s.ok(t, "godot_scripts_read", map[string]any{"script_path": "res://a.gd"}, &r)
	writeFile(t, filepath.Join(dir, "a.gd"), text("var a = 1", "var j = 2 # user"))
	write := map[string]any{"script_path": "res://a.gd", "content": text("var a = 2 # agent", "var j = 1"), "confirm": true}
	e := toolError(t, s.call(t, "godot_scripts_write", write))
	if e.Code != "CONFLICT" || !strings.Contains(e.Message, "+var j = 2 # user") {
		t.Fatalf("write over the user's edit: %+v", e)
	}
	// The agent re-applies its change to the new text, based on its version.
	s.ok(t, "godot_scripts_read", map[string]any{"script_path": "res://a.gd"}, &r)
	s.ok(t, "godot_scripts_write", map[string]any{"script_path": "res://a.gd", "content": text("var a = 2 # agent", "var j = 2 # user"),
		"expected_version": r["version"], "confirm": true}, nil)
	writeFile(t, filepath.Join(dir, "a.gd"), text("var a = 2 # agent", "var j = 3 # user again"))
	s.ok(t, "godot_undo", nil, nil)
	if now, _ := readFile(t, filepath.Join(dir, "a.gd")); now != text("var a = 1", "var j = 3 # user again") {
		t.Fatalf("undo as revert: %q", now)
	}
	s.ok(t, "godot_redo", nil, nil)
	writeFile(t, filepath.Join(dir, "a.gd"), text("var a = 3 # user", "var j = 3 # user again"))
	e = toolError(t, s.call(t, "godot_undo", nil))
	if e.Code != "CONFLICT" || !strings.Contains(e.Message, "both changed line 2") {
		t.Fatalf("overlapping undo: %+v", e)
	}
	// Forced, the write replaces whatever is there.
	s.ok(t, "godot_scripts_write", map[string]any{"script_path": "res://a.gd", "content": "extends Node\n", "force": true, "confirm": true}, nil)
	if now, _ := readFile(t, filepath.Join(dir, "a.gd")); now != "extends Node\n" {
		t.Fatalf("forced write: %q", now)
	}
}

// hexagonalMap copies the hexagonal map demo's project, scene and TileSet
// into a new directory.
func hexagonalMap(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "godot4", "2d-hexagonal_map")
	if _, err := os.Stat(src); err != nil {
		testenv.Missing(t, "fixture project 2d-hexagonal_map", "check out the shared fixtures beside the repository")
	}
	dir := t.TempDir()
	for _, f := range []string{"project.godot", "map.tscn", "tileset.tres"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, f), string(b))
	}
	return dir
}
