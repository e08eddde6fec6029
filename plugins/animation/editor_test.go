package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorProject is the engine test's scene with a "walk" animation (a
// position track) and both kinds of tree, made headless.
func editorProject(t *testing.T) string {
	t.Helper()
	dir := plugintest.Project(t, map[string]string{"project.godot": engineProject, "anim.tscn": engineScene})
	h := headless(t, dir)
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://anim.tscn", "node_path": "AnimationPlayer", "name": "walk"})
	plugintest.Call(t, h, "add_track", map[string]any{"scene": "res://anim.tscn", "node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:position"})
	plugintest.Call(t, h, "add_track", map[string]any{"scene": "res://anim.tscn", "node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:rotation", "track_type": "bezier"})
	plugintest.Call(t, h, "create_tree", map[string]any{"scene": "res://anim.tscn", "parent_path": ".", "name": "Machine"})
	plugintest.Call(t, h, "create_tree", map[string]any{"scene": "res://anim.tscn", "parent_path": ".", "name": "Blend", "root_type": "AnimationNodeBlendTree"})
	plugintest.Call(t, h, "add_state_machine_state", map[string]any{"scene": "res://anim.tscn", "tree_path": "Machine", "state_name": "idle"})
	return dir
}

func editorHost(t *testing.T, dir string, ed *sdktest.Editor) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})
}

// TestEditorForwarding checks that each tool sends its addon command with
// exactly the addon's params (after opening the scene's tab), and answers
// the addon's result unchanged.
func TestEditorForwarding(t *testing.T) {
	dir := editorProject(t)
	reply := map[string]any{"from": "addon", "persisted": false, "reason": "r"}
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": "res://anim.tscn", "name": "anim.tscn"})
	for _, c := range []string{"cmd_create_animation", "cmd_add_animation_track", "cmd_insert_keyframe", "cmd_get_animation", "cmd_list_animations",
		"cmd_create_animation_tree", "cmd_add_state_machine_state", "cmd_set_blend_tree_node"} {
		ed.Result(c, reply)
	}
	h := editorHost(t, dir, ed)
	sc := "res://anim.tscn"
	cases := []struct {
		tool   string
		args   map[string]any
		cmd    string
		params map[string]any
	}{
		{"create", map[string]any{"node_path": "AnimationPlayer", "name": "run", "scene": sc},
			"cmd_create_animation", map[string]any{"node_path": "AnimationPlayer", "name": "run", "length": 1.0}},
		{"create", map[string]any{"node_path": "AnimationPlayer", "name": "run", "length": 2.5},
			"cmd_create_animation", map[string]any{"node_path": "AnimationPlayer", "name": "run", "length": 2.5}},
		{"add_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:modulate", "scene": sc},
			"cmd_add_animation_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:modulate", "track_type": "value"}},
		{"add_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Mesh", "track_type": "rotation_3d"},
			"cmd_add_animation_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Mesh", "track_type": "rotation_3d"}},
		// The addon parses strings as Godot text and passes JSON objects
		// as they are: a value whose type the saved scene tells goes as
		// its Godot text.
		{"insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0, "time": 0.5, "value": map[string]any{"x": 10, "y": 20}, "scene": sc},
			"cmd_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0.0, "time": 0.5, "value": "Vector2(10, 20)", "easing": 1.0}},
		{"insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0, "time": 1, "value": "Vector2(1, 2)", "easing": 0.5},
			"cmd_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0.0, "time": 1.0, "value": "Vector2(1, 2)", "easing": 0.5}},
		{"insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 1, "time": 1, "value": map[string]any{"value": 2, "in_handle": []float64{-0.25, 0}}},
			"cmd_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 1.0, "time": 1.0, "value": []any{2.0, -0.25, 0.0, 0.0, 0.0}, "easing": 1.0}},
		{"insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0, "time": 1, "value": 3, "transition": 2},
			"cmd_insert_keyframe", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track": 0.0, "time": 1.0, "value": 3.0, "easing": 2.0}},
		{"get", map[string]any{"node_path": "AnimationPlayer", "animation_name": "walk", "scene": sc},
			"cmd_get_animation", map[string]any{"node_path": "AnimationPlayer", "animation_name": "walk"}},
		{"list_animations", map[string]any{"node_path": "AnimationPlayer"},
			"cmd_list_animations", map[string]any{"node_path": "AnimationPlayer"}},
		{"create_tree", map[string]any{"parent_path": "."},
			"cmd_create_animation_tree", map[string]any{"parent_path": ".", "name": "AnimationTree", "root_type": "AnimationNodeStateMachine"}},
		{"create_tree", map[string]any{"parent_path": ".", "name": "T", "anim_player": "../AnimationPlayer", "root_type": "AnimationNodeBlendTree"},
			"cmd_create_animation_tree", map[string]any{"parent_path": ".", "name": "T", "anim_player": "../AnimationPlayer", "root_type": "AnimationNodeBlendTree"}},
		{"add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "walk", "animation": "walk"},
			"cmd_add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "walk", "animation": "walk"}},
		{"add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "walk"},
			"cmd_add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "walk"}},
		{"set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "mix", "node_type": "AnimationNodeBlend2"},
			"cmd_set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "mix", "node_type": "AnimationNodeBlend2"}},
	}
	for _, c := range cases {
		before := len(ed.Calls(c.cmd))
		out := plugintest.Call(t, h, c.tool, c.args)
		calls := ed.Calls(c.cmd)
		if len(calls) != before+1 {
			t.Errorf("%s %v: sent %d %s", c.tool, c.args, len(calls)-before, c.cmd)
			continue
		}
		if got := calls[len(calls)-1].Params; !reflect.DeepEqual(got, c.params) {
			t.Errorf("%s %v: %s params\n got %v\nwant %v", c.tool, c.args, c.cmd, got, c.params)
		}
		if out["from"] != "addon" || out["persisted"] != false || out["reason"] != "r" {
			t.Errorf("%s: the addon's answer is not passed through: %v", c.tool, out)
		}
	}
	if n := len(ed.Calls("cmd_open_scene")); n != 4 {
		t.Errorf("cmd_open_scene sent %d times, want once per call with scene (4)", n)
	}
	// The scene file is untouched: the editor did the edits.
	if src, _ := os.ReadFile(filepath.Join(dir, "anim.tscn")); strings.Contains(string(src), `"run"`) {
		t.Error("an editor-mode call wrote the scene file")
	}
}

// TestEditorRefusesBeforeSending: a track path the saved scene shows to be
// wrong is refused before the addon sees it, with the same code as
// headless.
func TestEditorRefusesBeforeSending(t *testing.T) {
	dir := editorProject(t)
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": "res://anim.tscn", "name": "anim.tscn"})
	h := editorHost(t, dir, ed)
	plugintest.Refused(t, h, "add_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:postion"}, sdk.CodeInvalidArgument, `"position"`)
	plugintest.Refused(t, h, "add_track", map[string]any{"node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D", "track_type": "scale_3d"}, sdk.CodeInvalidArgument, "Node3D")
	plugintest.Refused(t, h, "create", map[string]any{"node_path": "AnimationPlayer", "name": "a:b"}, sdk.CodeInvalidArgument, "does not allow")
	if n := len(ed.Calls("cmd_add_animation_track")) + len(ed.Calls("cmd_create_animation")); n != 0 {
		t.Fatalf("refused calls reached the addon (%d)", n)
	}
	// An addon error comes back with the host's code.
	ed.Fail("cmd_get_animation", "RESOURCE_NOT_FOUND", "No animation 'x' on the AnimationPlayer.", "")
	plugintest.Refused(t, h, "get", map[string]any{"node_path": "AnimationPlayer", "animation_name": "x"}, sdk.CodeNotFound, "No animation")
}

// TestEditorBeyondTheAddon: what the addon's commands cannot carry (a
// named library, loop mode, a .tres, a transition, a connected blend
// node) is written to the scene file through the workspace, in editor
// mode too, and nothing is sent to the addon.
func TestEditorBeyondTheAddon(t *testing.T) {
	dir := editorProject(t)
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true})
	h := editorHost(t, dir, ed)
	plugintest.Call(t, h, "create", map[string]any{"scene": "res://anim.tscn", "node_path": "AnimationPlayer", "name": "jump", "library": "moves", "loop_mode": "pingpong"})
	plugintest.Call(t, h, "create", map[string]any{"name": "bob", "resource_path": "res://bob.tres"})
	plugintest.Call(t, h, "add_state_machine_transition", map[string]any{"scene": "res://anim.tscn", "tree_path": "Machine", "from": "Start", "to": "idle"})
	plugintest.Call(t, h, "set_blend_tree_node", map[string]any{"scene": "res://anim.tscn", "tree_path": "Blend", "node_name": "w", "node_type": "AnimationNodeAnimation", "animation": "walk", "connect_to": "output"})
	src, _ := os.ReadFile(filepath.Join(dir, "anim.tscn"))
	for _, want := range []string{"libraries/moves = SubResource(", "loop_mode = 2", `transitions = ["Start", "idle"`, `node_connections = [&"output", 0, &"w"]`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the scene lacks %q:\n%s", want, src)
		}
	}
	bob, err := os.ReadFile(filepath.Join(dir, "bob.tres"))
	if err != nil {
		t.Fatal(err)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(engineProject), "anim.tscn": src, "bob.tres": bob})
	for _, c := range ed.Calls() {
		if c.Command != "cmd_open_scene" {
			t.Errorf("sent %s %v", c.Command, c.Params)
		}
	}
}

// TestDryRuns: every mutating tool previews in both modes, and an editor
// dry run sends nothing that changes the editor.
func TestDryRuns(t *testing.T) {
	dir := editorProject(t)
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_node_persistence", map[string]any{"persisted": false, "reason": "instanced", "hint": "make it editable"})
	h := editorHost(t, dir, ed)
	args := dryRunArgs()
	plugintest.EditorDryRuns(t, h, ed, args)
	out := plugintest.Call(t, h, "insert_keyframe", args["insert_keyframe"], sdktest.DryRun())
	if out["persisted"] != false || out["hint"] != "make it editable" {
		t.Errorf("the editor dry run does not carry the persistence verdict: %v", out)
	}
	probes := ed.Calls("cmd_node_persistence")
	if len(probes) == 0 {
		t.Fatal("no persistence probe")
	}
	if p := probes[len(probes)-1].Params; p["node_path"] != "AnimationPlayer" || p["animation"] != "walk" {
		t.Errorf("probe params %v, want the player and the animation", p)
	}

	before, _ := os.ReadFile(filepath.Join(dir, "anim.tscn"))
	hh := headless(t, dir)
	for tool, a := range args {
		res := plugintest.DryRunIn(t, hh, sdk.ModeHeadless, tool, a)
		if _, ok := res["diff"]; !ok && res["changes"] == nil {
			b, _ := json.Marshal(res)
			t.Errorf("%s headless dry run shows no change: %s", tool, b)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "anim.tscn")); string(after) != string(before) {
		t.Fatal("a dry run wrote the scene")
	}
	if _, err := os.Stat(filepath.Join(dir, "dry.tres")); !os.IsNotExist(err) {
		t.Fatal("a dry run created a file")
	}
}

// dryRunArgs are arguments for every mutating tool on editorProject's
// scene.
func dryRunArgs() map[string]any {
	sc := "res://anim.tscn"
	return map[string]any{
		"create":                       map[string]any{"scene": sc, "node_path": "AnimationPlayer", "name": "run"},
		"add_track":                    map[string]any{"scene": sc, "node_path": "AnimationPlayer", "animation": "walk", "track_path": "Sprite2D:scale"},
		"insert_keyframe":              map[string]any{"scene": sc, "node_path": "AnimationPlayer", "animation": "walk", "track": 0, "time": 0.5, "value": []float64{1, 2}},
		"create_tree":                  map[string]any{"scene": sc, "parent_path": ".", "anim_player": "../AnimationPlayer"},
		"add_state_machine_state":      map[string]any{"scene": sc, "tree_path": "Machine", "state_name": "walk", "animation": "walk"},
		"add_state_machine_transition": map[string]any{"scene": sc, "tree_path": "Machine", "from": "Start", "to": "idle"},
		"set_blend_tree_node":          map[string]any{"scene": sc, "tree_path": "Blend", "node_name": "w", "node_type": "AnimationNodeAnimation"},
	}
}
