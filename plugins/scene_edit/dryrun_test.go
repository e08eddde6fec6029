package main

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// dryRunCase is one call of a mutating or destructive tool, with arguments
// that pass validation in both modes on openDryRunProject's project.
type dryRunCase struct {
	tool string
	args map[string]any
	cmd  string // the addon command the real run sends; "" when a dry run sends none and records none
}

var dryRunCases = []dryRunCase{
	{"create_scene", map[string]any{"scene_path": "res://fresh.tscn", "root_type": "Node2D"}, "cmd_create_scene"},
	{"open_scene", map[string]any{"scene_path": pong}, ""},
	{"close_scene", map[string]any{}, "cmd_close_scene"},
	{"reload_scene", map[string]any{"scene_path": pong}, "cmd_reload_scene"},
	{"save_scene", map[string]any{"scene": pong}, "cmd_save_scene"},
	{"save_all_scenes", map[string]any{}, "cmd_save_all_scenes"},
	{"create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "Left", "scene": pong}, "cmd_create_node"},
	{"rename_node", map[string]any{"node_path": "Ball", "new_name": "Puck"}, "cmd_rename_node"},
	{"set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": []any{3, 4}}, "cmd_set_node_property"},
	{"delete_node", map[string]any{"node_path": "Separator"}, "cmd_delete_node"},
	{"duplicate_node", map[string]any{"node_path": "Ball"}, "cmd_duplicate_node"},
	{"move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Left"}, "cmd_move_node"},
	{"instance_scene", map[string]any{"scene_path": "res://token.tscn"}, "cmd_instance_scene"},
	{"attach_script", map[string]any{"node_path": "Separator", "script_path": "res://hit.gd"}, "cmd_attach_script"},
	{"set_editable_children", map[string]any{"node_path": "Token"}, "cmd_set_editable_children"},
	{"extract_scene", map[string]any{"node_path": "Ball", "scene_path": "res://ball_scene.tscn"}, "cmd_extract_scene"},
	{"connect_signal", map[string]any{"source_path": "Left", "signal_name": "area_exited", "target_path": "Right", "method_name": "queue_free"}, "cmd_connect_signal"},
	{"disconnect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": "Left", "method_name": "_on_area_entered"}, "cmd_disconnect_signal"},
	{"add_to_group", map[string]any{"node_path": "Left", "group": "paddles"}, "cmd_add_to_group"},
	{"remove_from_group", map[string]any{"node_path": "Left", "group": "paddles"}, "cmd_remove_from_group"},
}

// openDryRunProject is 2d-pong with pong open and what the cases need: a
// scene to instance (instanced once as Token), a script to attach, Left in
// the group paddles.
func openDryRunProject(t *testing.T) (string, *sdktest.Host) {
	t.Helper()
	dir, h := openPong(t)
	plugintest.WriteFile(t, dir, "token.tscn", "[gd_scene format=3]\n\n[node name=\"Token\" type=\"Node2D\"]\n")
	plugintest.WriteFile(t, dir, "hit.gd", "extends Node\n")
	plugintest.Call(t, h, "instance_scene", map[string]any{"scene_path": "res://token.tscn"})
	plugintest.Call(t, h, "add_to_group", map[string]any{"node_path": "Left", "group": "paddles"})
	return dir, h
}

// dryRunEditor answers every command of the cases, and the queries and the
// navigation a dry run may send.
func dryRunEditor() *sdktest.Editor {
	ok := func(p map[string]any) (any, *sdk.Error) { return map[string]any{"ok": true}, nil }
	ed := sdktest.NewEditor().
		Result("cmd_node_persistence", map[string]any{"persisted": true}).
		Result("cmd_list_open_scenes", map[string]any{"scenes": []any{map[string]any{"path": pong}}}).
		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": pong}).
		Result("cmd_list_signal_connections", map[string]any{"connections": []any{}}).
		On("cmd_open_scene", ok).
		On("cmd_extract_scene", func(p map[string]any) (any, *sdk.Error) {
			return map[string]any{"node_path": p["node_path"], "scene_path": p["scene_path"], "extracted": false}, nil
		})
	for _, c := range dryRunCases {
		if editorcmd.Lookup(c.cmd).Kind == editorcmd.Mutating {
			ed.On(c.cmd, ok)
		}
	}
	return ed
}

// Every mutating and destructive tool, dry run, editor attached: nothing
// that changes the editor reaches it (sdktest fails the test if it does,
// and this checks each command sent), and the preview names the command
// the real run would send.
func TestEditorDryRunSendsNoEdit(t *testing.T) {
	ctx := context.Background()
	ed := dryRunEditor()
	h := editorHost(t, ed)
	tested := map[string]bool{}
	for _, c := range dryRunCases {
		opens := len(ed.Calls("cmd_open_scene"))
		res := h.Call(ctx, c.tool, c.args, sdktest.DryRun())
		if res.IsError {
			t.Fatalf("%s dry run: %s", c.tool, res.Text())
		}
		var out map[string]any
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
		if out["dry_run"] != true || previewCommand(out) != c.cmd {
			t.Errorf("%s: preview %v, want %s in it", c.tool, out, c.cmd)
		}
		if c.tool == "open_scene" && len(ed.Calls("cmd_open_scene")) != opens {
			t.Errorf("open_scene's dry run switched the editor's tab")
		}
		tested[c.tool] = true
	}
	for _, call := range ed.Calls() {
		switch editorcmd.Lookup(call.Command).Kind {
		case editorcmd.Mutating:
			t.Errorf("a dry run sent %s %v", call.Command, call.Params)
		case editorcmd.Preview:
			if call.Params["preview"] != true && call.Params["dry_run"] != true {
				t.Errorf("a dry run sent %s without its preview flag: %v", call.Command, call.Params)
			}
		}
	}
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range m.Tools {
		if c := tool.SafetyClass; (c == sdk.Mutating || c == sdk.Destructive) && !tested[tool.Name] {
			t.Errorf("tool %s has no dry-run case", tool.Name)
		}
	}
}

// A dry run answers in the same shape in both modes: dry_run, a preview
// naming its mode, and the same fields of the tool's own answer, with the
// "it happened" flags false; only the mode-only fields differ.
func TestDryRunShapeSameInBothModes(t *testing.T) {
	_, headlessHost := openDryRunProject(t)
	dir := fixture(t, "2d-pong")
	plugintest.WriteFile(t, dir, "token.tscn", "[gd_scene format=3]\n\n[node name=\"Token\" type=\"Node2D\"]\n")
	editor := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: dryRunEditor().Serve})
	// modeOnly are the fields one mode alone answers: headless, the diff
	// of the edit made in memory; in the editor, the addon's reason and
	// hint when a change would not survive a save.
	modeOnly := map[string]bool{"diff": true, "reason": true, "hint": true}
	// except are the tools whose fields differ, and why.
	except := map[string]string{
		"save_scene":      "headless has nothing to save and says so (pending_changes: false, note); the editor's tab may hold unsaved changes a dry run does not know",
		"save_all_scenes": "headless has nothing to save and says so (count, pending_changes: false, note); the editor's tabs may hold unsaved changes a dry run does not know",
		"duplicate_node":  "the copy's name (Ball2, Ball3, …) is settled by the editor when it copies, so an editor dry run names only source_path, not node_path",
		"extract_scene":   "the addon's own preview answers what it counts; headless answers node_count of the subtree it copied in memory",
	}
	for _, c := range dryRunCases {
		keys := map[sdk.Mode][]string{}
		answers := map[sdk.Mode]map[string]any{}
		for mode, h := range map[sdk.Mode]*sdktest.Host{sdk.ModeHeadless: headlessHost, sdk.ModeEditor: editor} {
			all := plugintest.DryRunIn(t, h, mode, c.tool, c.args)
			answers[mode] = all
			for k := range all {
				if !modeOnly[k] {
					keys[mode] = append(keys[mode], k)
				}
			}
			slices.Sort(keys[mode])
		}
		same := slices.Equal(keys[sdk.ModeHeadless], keys[sdk.ModeEditor])
		if why, ok := except[c.tool]; ok {
			if same {
				t.Errorf("%s is excepted (%s) but answers the same fields in both modes", c.tool, why)
			}
			continue
		}
		if !same {
			t.Errorf("%s: headless answers %v, editor %v", c.tool, keys[sdk.ModeHeadless], keys[sdk.ModeEditor])
		}
		// node_path may differ: a name clash (Sprite2D2) is settled when
		// the node is made.
		for _, k := range []string{"scene_path", "path", "created", "moved", "deleted", "renamed", "set", "attached", "connected", "disconnected", "changed", "already_connected"} {
			hv, hok := answers[sdk.ModeHeadless][k]
			ev, eok := answers[sdk.ModeEditor][k]
			if hok && eok && fmt.Sprint(hv) != fmt.Sprint(ev) {
				t.Errorf("%s: %s is %v headless, %v in the editor", c.tool, k, hv, ev)
			}
		}
	}
}

// The reference server's previews: create_node {node_path, created:false},
// move_node {node_path, moved:false}, in both modes.
func TestDryRunAnswersLikeTheReference(t *testing.T) {
	_, headlessHost := openDryRunProject(t)
	editor := editorHost(t, dryRunEditor())
	for mode, h := range map[sdk.Mode]*sdktest.Host{sdk.ModeHeadless: headlessHost, sdk.ModeEditor: editor} {
		out := plugintest.DryRunIn(t, h, mode, "create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "Left", "node_name": "Glow", "scene": pong})
		if out["node_path"] != "Left/Glow" || out["created"] != false || out["scene_path"] != pong {
			t.Errorf("%s create_node dry run: %v", mode, out)
		}
		out = plugintest.DryRunIn(t, h, mode, "move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Left"})
		if out["node_path"] != "Left/Ball" || out["moved"] != false {
			t.Errorf("%s move_node dry run: %v", mode, out)
		}
	}
}
