package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// TestHeadlessTrees edits the AnimationTree of the 2d-skeleton demo (a
// blend tree) and adds a state machine tree beside it: exact text, the
// refusals, the engine's load check, a clean round trip and undo.
func TestHeadlessTrees(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-skeleton")
	h := headless(t, dir)
	scene := filepath.Join(dir, "player/player.tscn")
	orig := read(t, scene)
	in := func(args map[string]any) map[string]any {
		args["scene"] = "res://player/player.tscn"
		return args
	}

	plugintest.Call(t, h, "set_blend_tree_node", in(map[string]any{"tree_path": "AnimationTree", "node_name": "mix", "node_type": "AnimationNodeBlend2", "position": []float64{1700, 300}}))
	r := plugintest.Call(t, h, "set_blend_tree_node", in(map[string]any{"tree_path": "AnimationTree", "node_name": "wave", "node_type": "AnimationNodeAnimation",
		"animation": "idle", "connect_to": "mix", "to_port": 1}))
	if r["node"] != "wave" || r["connected_to"].(map[string]any)["node"] != "mix" {
		t.Fatalf("set_blend_tree_node = %v", r)
	}
	src := read(t, scene)
	f, err := godot.ParseFile("player.tscn", src)
	if err != nil {
		t.Fatal(err)
	}
	root := f.SubResource("23")
	conns, _ := root.Get("node_connections")
	if got := godot.FormatValue(conns); !strings.HasSuffix(got, `&"walk_timescale", 0, &"walk_animation", &"mix", 1, &"wave"]`) {
		t.Fatalf("node_connections = %s", got)
	}
	mixRef, _ := root.Get("nodes/mix/node")
	waveRef, _ := root.Get("nodes/wave/node")
	if f.SubResource(mixRef.(godot.SubResource).ID).Type() != "AnimationNodeBlend2" {
		t.Fatal("nodes/mix/node is not a Blend2")
	}
	if got := section(t, src, `id="`+waveRef.(godot.SubResource).ID+`"]`); !strings.Contains(got, "animation = &\"idle\"") {
		t.Fatalf("wave node:\n%s", got)
	}
	if pos, _ := root.Get("nodes/mix/position"); godot.FormatValue(pos) != "Vector2(1700, 300)" {
		t.Fatalf("nodes/mix/position = %v", pos)
	}
	keys := root.Keys()
	if keys[len(keys)-1] != "node_connections" {
		t.Fatalf("the new nodes are not written before node_connections: %v", keys)
	}
	if v, ok := f.Node("AnimationTree").Get("parameters/mix/blend_amount"); !ok || godot.FormatValue(v) != "0.0" {
		t.Fatalf("the tree has no parameters/mix/blend_amount = 0.0 (%v)", v)
	}

	// A state machine tree beside it.
	ct := plugintest.Call(t, h, "create_tree", in(map[string]any{"parent_path": ".", "name": "Machine", "anim_player": "../AnimationPlayer"}))
	if ct["node_path"] != "Machine" || ct["root_type"] != "AnimationNodeStateMachine" {
		t.Fatalf("create_tree = %v", ct)
	}
	plugintest.Call(t, h, "add_state_machine_state", in(map[string]any{"tree_path": "Machine", "state_name": "idle", "animation": "idle"}))
	plugintest.Call(t, h, "add_state_machine_state", in(map[string]any{"tree_path": "Machine", "state_name": "run", "animation": "run", "position": []float64{400, 100}}))
	plugintest.Call(t, h, "add_state_machine_transition", in(map[string]any{"tree_path": "Machine", "from": "Start", "to": "idle"}))
	tr := plugintest.Call(t, h, "add_state_machine_transition", in(map[string]any{"tree_path": "Machine", "from": "idle", "to": "run",
		"switch_mode": "at_end", "advance_condition": "running", "xfade_time": 0.2}))
	if tr["advance_mode"] != "enabled" || tr["condition_parameter"] != "parameters/conditions/running" {
		t.Fatalf("add_state_machine_transition = %v", tr)
	}
	src = read(t, scene)
	f, _ = godot.ParseFile("player.tscn", src)
	machine := f.Node("Machine")
	if machine == nil || machine.ParentPath() != "." {
		t.Fatal("no Machine node")
	}
	if got := section(t, src, `[node name="Machine"`); !strings.Contains(got, "tree_root = SubResource(\"AnimationNodeStateMachine_") ||
		!strings.Contains(got, "anim_player = NodePath(\"../AnimationPlayer\")\nparameters/conditions/running = false\n") {
		t.Fatalf("Machine:\n%s", got)
	}
	smRef, _ := machine.Get("tree_root")
	sm := section(t, src, `id="`+smRef.(godot.SubResource).ID+`"]`)
	lines := strings.Split(strings.TrimSpace(sm), "\n")
	want := []string{
		`states/idle/node = SubResource("AnimationNodeAnimation_`,
		`states/idle/position = Vector2(200, 100)`,
		`states/run/node = SubResource("AnimationNodeAnimation_`,
		`states/run/position = Vector2(400, 100)`,
		`transitions = ["Start", "idle", SubResource("AnimationNodeStateMachineTransition_`,
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("state machine:\n%s", sm)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i+1], w) {
			t.Fatalf("state machine line %d = %q, want %q…\n%s", i+1, lines[i+1], w, sm)
		}
	}
	trans, _ := f.SubResource(smRef.(godot.SubResource).ID).Get("transitions")
	items := trans.(godot.Array).Items
	if len(items) != 6 {
		t.Fatalf("transitions = %s", godot.FormatValue(trans))
	}
	start := section(t, src, `id="`+items[2].(godot.SubResource).ID+`"]`)
	second := section(t, src, `id="`+items[5].(godot.SubResource).ID+`"]`)
	if !strings.HasSuffix(strings.TrimSpace(start), "]\nadvance_mode = 2") ||
		!strings.HasSuffix(strings.TrimSpace(second), "]\nxfade_time = 0.2\nswitch_mode = 2\nadvance_condition = &\"running\"") {
		t.Fatalf("transitions:\n%s\n%s", start, second)
	}

	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"add_state_machine_state", map[string]any{"tree_path": "AnimationTree", "state_name": "x"}, sdk.CodeInvalidArgument, "state-machine root"},
		{"set_blend_tree_node", map[string]any{"tree_path": "Machine", "node_name": "x", "node_type": "AnimationNodeBlend2"}, sdk.CodeInvalidArgument, "blend-tree root"},
		{"set_blend_tree_node", map[string]any{"tree_path": "AnimationTree", "node_name": "mix", "node_type": "AnimationNodeBlend2"}, sdk.CodeInvalidArgument, "already"},
		{"set_blend_tree_node", map[string]any{"tree_path": "AnimationTree", "node_name": "y", "node_type": "AnimationNodeBlend"}, sdk.CodeInvalidArgument, "not an AnimationNode"},
		{"set_blend_tree_node", map[string]any{"tree_path": "AnimationTree", "node_name": "y", "node_type": "AnimationNodeAnimation", "animation": "nope"}, sdk.CodeInvalidArgument, `"walk"`},
		{"add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "idle"}, sdk.CodeInvalidArgument, "already"},
		{"add_state_machine_transition", map[string]any{"tree_path": "Machine", "from": "idle", "to": "fly"}, sdk.CodeInvalidArgument, "no state \"fly\""},
		{"add_state_machine_transition", map[string]any{"tree_path": "Machine", "from": "Start", "to": "idle"}, sdk.CodeInvalidArgument, "already"},
		{"create_tree", map[string]any{"parent_path": ".", "root_type": "AnimationNodeBlend2"}, sdk.CodeInvalidArgument, "not an AnimationRootNode"},
		{"create_tree", map[string]any{"parent_path": ".", "anim_player": "AnimationPlayer"}, sdk.CodeInvalidArgument, "does not lead"},
		{"create_tree", map[string]any{"parent_path": "Nope"}, sdk.CodeNotFound, "Nope"},
	} {
		plugintest.Refused(t, h, c.tool, in(c.args), c.code, c.text)
	}

	projfixture.Roundtrip(t, dir, "player/player.tscn")
	enginecheck.Project(t, dir)
	if _, err := h.Workspace().Undo(context.Background(), h.Workspace().History().Depth, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, scene), orig) {
		t.Fatal("undo did not restore the scene byte for byte")
	}
}
