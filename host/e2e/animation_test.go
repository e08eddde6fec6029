package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// The animation toolset through the real host, headless, on a copy of a
// real project: an animation with keys and a state machine tree on the
// 2d-platformer player, read back through the tools; every call is one
// step of the workspace's history, and godot_undo, step by step, puts
// back the exact bytes each step found.
func TestAnimationHeadlessThroughTheHost(t *testing.T) {
	dir := corpusProject(t, "2d-platformer")
	s := stdioHost(t, sessionless, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"animation"}}, nil)
	scene := filepath.Join(dir, "player", "player.tscn")
	read := func() []byte {
		b, err := os.ReadFile(scene)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sc, ap := "res://player/player.tscn", "AnimationPlayer"
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"godot_animation_create", map[string]any{"scene": sc, "node_path": ap, "name": "wave", "length": 0.5}},
		{"godot_animation_add_track", map[string]any{"scene": sc, "node_path": ap, "animation": "wave", "track_path": "Sprite2D:position"}},
		{"godot_animation_insert_keyframe", map[string]any{"scene": sc, "node_path": ap, "animation": "wave", "track": 0, "time": 0.5, "value": []float64{4, 8}}},
		{"godot_animation_insert_keyframe", map[string]any{"scene": sc, "node_path": ap, "animation": "wave", "track": 0, "time": 0, "value": map[string]any{"x": 0, "y": 0}}},
		{"godot_animation_create_tree", map[string]any{"scene": sc, "parent_path": ".", "anim_player": "../AnimationPlayer"}},
		{"godot_animation_add_state_machine_state", map[string]any{"scene": sc, "tree_path": "AnimationTree", "state_name": "idle", "animation": "idle"}},
		{"godot_animation_add_state_machine_state", map[string]any{"scene": sc, "tree_path": "AnimationTree", "state_name": "wave", "animation": "wave"}},
		{"godot_animation_add_state_machine_transition", map[string]any{"scene": sc, "tree_path": "AnimationTree", "from": "Start", "to": "idle"}},
	}
	states := [][]byte{read()}
	for _, st := range steps {
		s.ok(t, st.tool, st.args, nil)
		if now := read(); bytes.Equal(now, states[len(states)-1]) {
			t.Fatalf("%s changed nothing", st.tool)
		} else {
			states = append(states, now)
		}
	}
	var got struct {
		Name   string `json:"name"`
		Length float64
		Tracks []struct {
			Type, Path string
			Keys       []struct {
				Time  float64
				Value map[string]float64
			}
		}
	}
	s.ok(t, "godot_animation_get", map[string]any{"scene": sc, "node_path": ap, "animation_name": "wave"}, &got)
	if got.Length != 0.5 || len(got.Tracks) != 1 || got.Tracks[0].Path != "Sprite2D:position" || len(got.Tracks[0].Keys) != 2 ||
		got.Tracks[0].Keys[1].Time != 0.5 || got.Tracks[0].Keys[1].Value["y"] != 8 {
		t.Fatalf("get = %+v", got)
	}
	var list struct{ Animations []string }
	s.ok(t, "godot_animation_list_animations", map[string]any{"scene": sc, "node_path": ap}, &list)
	if len(list.Animations) != 11 || !strings.Contains(strings.Join(list.Animations, ","), "wave") {
		t.Fatalf("list_animations = %v", list)
	}
	for i := len(steps); i > 0; i-- {
		s.ok(t, "godot_undo", nil, nil)
		if !bytes.Equal(read(), states[i-1]) {
			t.Fatalf("undoing %s did not restore the bytes it found", steps[i-1].tool)
		}
	}
}

// With the fake addon attached, the tools forward the addon's commands
// with exactly its params through the real host and bridge.
func TestAnimationForwardedToTheEditor(t *testing.T) {
	url := bridgeURL(t)
	dir := corpusProject(t, "2d-platformer")
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + url},
		"--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"animation"}}, nil)
	echo := func(p map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"echo": true}) }
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, GodotVersion: "4.6.1-stable", ProjectPath: dir + "/",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_create_animation": echo, "cmd_add_animation_track": echo, "cmd_insert_keyframe": echo,
			"cmd_list_animations": echo, "cmd_get_animation": echo, "cmd_create_animation_tree": echo,
			"cmd_add_state_machine_state": echo, "cmd_set_blend_tree_node": echo,
			"cmd_get_active_scene": func(map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"is_open": true, "path": "res://player/player.tscn", "name": "player.tscn"})
			},
		}})
	before, _ := os.ReadFile(filepath.Join(dir, "player", "player.tscn"))
	cases := []struct {
		tool   string
		args   map[string]any
		cmd    string
		params map[string]any
	}{
		{"godot_animation_create", map[string]any{"node_path": "AnimationPlayer", "name": "wave"},
			"cmd_create_animation", map[string]any{"node_path": "AnimationPlayer", "name": "wave", "length": 1.0}},
		{"godot_animation_add_track", map[string]any{"node_path": "AnimationPlayer", "animation": "idle", "track_path": "Sprite2D:position"},
			"cmd_add_animation_track", map[string]any{"node_path": "AnimationPlayer", "animation": "idle", "track_path": "Sprite2D:position", "track_type": "value"}},
		{"godot_animation_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "idle", "track": 0, "time": 0.25, "value": 7},
			"cmd_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "idle", "track": 0.0, "time": 0.25, "value": 7.0, "easing": 1.0}},
		{"godot_animation_list_animations", map[string]any{"node_path": "AnimationPlayer"},
			"cmd_list_animations", map[string]any{"node_path": "AnimationPlayer"}},
		{"godot_animation_get", map[string]any{"node_path": "AnimationPlayer", "animation_name": "idle"},
			"cmd_get_animation", map[string]any{"node_path": "AnimationPlayer", "animation_name": "idle"}},
		{"godot_animation_create_tree", map[string]any{"parent_path": ".", "anim_player": "../AnimationPlayer"},
			"cmd_create_animation_tree", map[string]any{"parent_path": ".", "name": "AnimationTree", "root_type": "AnimationNodeStateMachine", "anim_player": "../AnimationPlayer"}},
		{"godot_animation_add_state_machine_state", map[string]any{"tree_path": "AnimationTree", "state_name": "idle", "animation": "idle"},
			"cmd_add_state_machine_state", map[string]any{"tree_path": "AnimationTree", "state_name": "idle", "animation": "idle"}},
		{"godot_animation_set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "a", "node_type": "AnimationNodeAnimation"},
			"cmd_set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "a", "node_type": "AnimationNodeAnimation"}},
	}
	for _, c := range cases {
		var out map[string]any
		s.ok(t, c.tool, c.args, &out)
		calls := ed.Calls(c.cmd)
		if len(calls) != 1 || !reflect.DeepEqual(calls[0].Params, c.params) {
			t.Errorf("%s sent %v, want one %s %v", c.tool, calls, c.cmd, c.params)
		}
		if out["echo"] != true {
			t.Errorf("%s did not pass the addon's answer through: %v", c.tool, out)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "player", "player.tscn")); !bytes.Equal(after, before) {
		t.Error("forwarded calls wrote the scene file")
	}
}
