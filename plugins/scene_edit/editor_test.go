package main

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// editorHost runs the toolset in editor mode against a scripted addon.
func editorHost(t *testing.T, ed *sdktest.Editor) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: fixture(t, "2d-pong"), Editor: ed.Serve})
}

// TestEditorForwarding checks that every tool sends its addon command with
// the contract's params, and returns the addon's result unchanged.
func TestEditorForwarding(t *testing.T) {
	cases := []struct {
		tool   string
		args   map[string]any
		cmd    string
		params map[string]any
	}{
		{"create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "/root/Left", "node_name": "Icon"},
			"cmd_create_node", map[string]any{"node_type": "Sprite2D", "parent_path": "Left", "name": "Icon"}},
		{"create_node", map[string]any{"node_type": "Node2D"},
			"cmd_create_node", map[string]any{"node_type": "Node2D", "parent_path": "."}},
		{"rename_node", map[string]any{"node_path": "Left", "new_name": "P1"},
			"cmd_rename_node", map[string]any{"node_path": "Left", "new_name": "P1"}},
		{"set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": map[string]any{"x": 1, "y": 2}},
			"cmd_set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": map[string]any{"x": 1.0, "y": 2.0}}},
		{"delete_node", map[string]any{"node_path": "Left"},
			"cmd_delete_node", map[string]any{"node_path": "Left", "confirm": true}},
		{"duplicate_node", map[string]any{"node_path": "Left"},
			"cmd_duplicate_node", map[string]any{"node_path": "Left"}},
		{"move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Left"},
			"cmd_move_node", map[string]any{"node_path": "Ball", "new_parent_path": "Left", "index": -1.0}},
		{"instance_scene", map[string]any{"scene_path": "res://ball.tscn"},
			"cmd_instance_scene", map[string]any{"parent_path": ".", "scene_path": "res://ball.tscn"}},
		{"attach_script", map[string]any{"node_path": "Left", "script_path": "res://logic/paddle.gd"},
			"cmd_attach_script", map[string]any{"node_path": "Left", "script_path": "res://logic/paddle.gd"}},
		{"connect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": ".", "method_name": "hit"},
			"cmd_connect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": ".", "method_name": "hit"}},
		{"disconnect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": ".", "method_name": "hit"},
			"cmd_disconnect_signal", map[string]any{"source_path": "Left", "signal_name": "area_entered", "target_path": ".", "method_name": "hit"}},
		{"list_signal_connections", map[string]any{"node_path": "Left"},
			"cmd_list_signal_connections", map[string]any{"node_path": "Left"}},
		{"add_to_group", map[string]any{"node_path": "Left", "group": "g"},
			"cmd_add_to_group", map[string]any{"node_path": "Left", "group": "g"}},
		{"remove_from_group", map[string]any{"node_path": "Left", "group": "g"},
			"cmd_remove_from_group", map[string]any{"node_path": "Left", "group": "g"}},
		{"select_nodes", map[string]any{"node_paths": []string{"Left", "/root/Right"}},
			"cmd_select_nodes", map[string]any{"node_paths": []any{"Left", "Right"}}},
		{"set_editable_children", map[string]any{"node_path": "Left"},
			"cmd_set_editable_children", map[string]any{"node_path": "Left", "editable": true}},
		// Nodes of instanced scenes: the addon resolves their paths itself
		// (get_node through the instance), so they go as given.
		{"set_node_property", map[string]any{"node_path": "/root/Coins/Coin1/Sprite2D", "property": "visible", "value": false},
			"cmd_set_node_property", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "property": "visible", "value": false}},
		{"create_node", map[string]any{"node_type": "PointLight2D", "parent_path": "Coins/Coin1/Sprite2D", "node_name": "Glow"},
			"cmd_create_node", map[string]any{"node_type": "PointLight2D", "parent_path": "Coins/Coin1/Sprite2D", "name": "Glow"}},
		{"set_editable_children", map[string]any{"node_path": "Coins/Coin1", "editable": false},
			"cmd_set_editable_children", map[string]any{"node_path": "Coins/Coin1", "editable": false}},
		{"add_to_group", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "group": "g"},
			"cmd_add_to_group", map[string]any{"node_path": "Coins/Coin1/Sprite2D", "group": "g"}},
		{"extract_scene", map[string]any{"node_path": "Left", "scene_path": "res://paddle.tscn"},
			"cmd_extract_scene", map[string]any{"node_path": "Left", "scene_path": "res://paddle.tscn", "replace_with_instance": false, "save_current": false, "preview": false}},
		{"create_scene", map[string]any{"scene_path": "res://new.tscn", "root_type": "Node3D"},
			"cmd_create_scene", map[string]any{"scene_path": "res://new.tscn", "root_type": "Node3D"}},
		{"open_scene", map[string]any{"scene_path": "res://pong.tscn"},
			"cmd_open_scene", map[string]any{"scene_path": "res://pong.tscn"}},
		{"close_scene", map[string]any{},
			"cmd_close_scene", map[string]any{"confirm": true}},
		{"reload_scene", map[string]any{"scene_path": "res://pong.tscn"},
			"cmd_reload_scene", map[string]any{"scene_path": "res://pong.tscn", "confirm": true}},
		{"save_scene", map[string]any{}, "cmd_save_scene", map[string]any{}},
		{"save_all_scenes", map[string]any{}, "cmd_save_all_scenes", map[string]any{}},
		{"list_open_scenes", map[string]any{}, "cmd_list_open_scenes", map[string]any{}},
		{"rescan_filesystem", map[string]any{}, "cmd_rescan_filesystem", map[string]any{}},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			reply := map[string]any{"echo": c.cmd, "persisted": false, "reason": "node_not_owned"}
			ed := sdktest.NewEditor().Result(c.cmd, reply)
			h := editorHost(t, ed)
			out := plugintest.Call(t, h, c.tool, c.args)
			want := maps.Clone(reply)
			if op, ok := groupOps[c.tool]; ok {
				// The reference's GroupResult, built on the addon's reply
				// (TestEditorGroupResult).
				want["node_path"], want["group"] = c.params["node_path"], c.params["group"]
				want["in_group"], want["changed"], want[op] = c.tool == "add_to_group", false, false
			}
			if !reflect.DeepEqual(out, want) {
				t.Fatalf("result not passed through: %v", out)
			}
			calls := ed.Calls()
			if len(calls) != 1 || calls[0].Command != c.cmd || !reflect.DeepEqual(calls[0].Params, c.params) {
				t.Fatalf("sent %+v, want one %s %v", calls, c.cmd, c.params)
			}
		})
		seen[c.tool] = true
	}
	for _, tool := range Toolset().Tools {
		if !seen[tool.Name()] {
			t.Errorf("tool %s has no editor-mode case", tool.Name())
		}
	}
}

var groupOps = map[string]string{"add_to_group": "added", "remove_from_group": "removed"}

// TestEditorGroupResult: add_to_group and remove_from_group answer the
// reference server's GroupResult {node_path, group, in_group, changed, …}
// built from the addon's {added|removed, persisted…}, as headless does.
func TestEditorGroupResult(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_add_to_group", map[string]any{"node_path": "Left", "group": "g", "added": true, "persisted": true}).
		Result("cmd_remove_from_group", map[string]any{"node_path": "Left", "group": "g", "removed": false, "persisted": true})
	h := editorHost(t, ed)
	out := plugintest.Call(t, h, "add_to_group", map[string]any{"node_path": "/root/Left", "group": "g"})
	want := map[string]any{"node_path": "Left", "group": "g", "in_group": true, "changed": true, "added": true, "persisted": true}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("add_to_group: %v", out)
	}
	out = plugintest.Call(t, h, "remove_from_group", map[string]any{"node_path": "Left", "group": "g"})
	want = map[string]any{"node_path": "Left", "group": "g", "in_group": false, "changed": false, "removed": false, "persisted": true}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("remove_from_group: %v", out)
	}
	// A dry run changes nothing: the preview says so in the same shape.
	ed.Result("cmd_node_persistence", map[string]any{"node_path": "Left", "persisted": true})
	out = plugintest.Call(t, h, "add_to_group", map[string]any{"node_path": "Left", "group": "g"}, sdktest.DryRun())
	if out["dry_run"] != true || out["in_group"] != true || out["changed"] != false || out["node_path"] != "Left" || out["group"] != "g" {
		t.Errorf("dry run: %v", out)
	}
}

// A scene argument opens that scene first: the addon edits the active tab.
func TestEditorSceneArgumentOpensFirst(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"scene_path": "res://pong.tscn", "opened": true, "already_open": true}).
		Result("cmd_create_node", map[string]any{"node_path": "Node2D", "created": true})
	h := editorHost(t, ed)
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "scene": "res://pong.tscn"})
	calls := ed.Calls()
	if len(calls) != 2 || calls[0].Command != "cmd_open_scene" || calls[0].Params["scene_path"] != "res://pong.tscn" || calls[1].Command != "cmd_create_node" {
		t.Fatalf("sent %+v", calls)
	}
}

// A dry run in editor mode never sends the edit: it asks the addon for the
// persistence verdict the real run would get, and the SDK's preview names
// the command it would have sent.
func TestEditorDryRunProbes(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_node_persistence", map[string]any{"node_path": "Left", "persisted": false, "reason": "instanced_child_not_editable", "hint": "enable editable children"}).
		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": pong})
	h := editorHost(t, ed)
	out := plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "parent_path": "Left"}, sdktest.DryRun())
	if out["dry_run"] != true || out["persisted"] != false || out["reason"] != "instanced_child_not_editable" ||
		previewCommand(out) != "cmd_create_node" {
		t.Fatalf("dry run: %v", out)
	}
	// The answer names what headless names: the node, the scene (the
	// active tab, asked for), and created false.
	if out["node_path"] != "Left/Node2D" || out["scene_path"] != pong || out["created"] != false {
		t.Errorf("dry run answer: %v", out)
	}
	probes := func() []sdktest.EditorCall { return ed.Calls("cmd_node_persistence") }
	calls := ed.Calls()
	want := map[string]any{"node_path": "Left", "probe_parent": true}
	if len(calls) != 2 || calls[0].Command != "cmd_node_persistence" || !reflect.DeepEqual(calls[0].Params, want) ||
		calls[1].Command != "cmd_get_active_scene" {
		t.Fatalf("sent %+v", calls)
	}
	plugintest.Call(t, h, "duplicate_node", map[string]any{"node_path": "Left"}, sdktest.DryRun())
	if c := probes()[1]; !reflect.DeepEqual(c.Params, map[string]any{"node_path": "Left", "probe_parent_of": true}) {
		t.Fatalf("duplicate probe: %+v", c)
	}
	plugintest.Call(t, h, "remove_from_group", map[string]any{"node_path": "Left", "group": "g"}, sdktest.DryRun())
	if c := probes()[2]; !reflect.DeepEqual(c.Params, map[string]any{"node_path": "Left", "group": "g"}) {
		t.Fatalf("group probe: %+v", c)
	}
}

// previewCommand is the first command in a dry run's preview ("" none).
func previewCommand(out map[string]any) string {
	p, _ := out["preview"].(map[string]any)
	cmds, _ := p["commands"].([]any)
	if len(cmds) == 0 {
		return ""
	}
	c, _ := cmds[0].(map[string]any)
	s, _ := c["command"].(string)
	return s
}

// The addon's refusals come back with the code headless mode gives for the
// same mistake (the host's one rule, sdk/addonerr), its words and required.
func TestEditorRefusalPassesThrough(t *testing.T) {
	ed := sdktest.NewEditor().Fail("cmd_rename_node", "VALIDATION_ERROR", "Node 'Player/Sprite' belongs to res://player.tscn.", "node_path")
	h := editorHost(t, ed)
	r := h.Call(context.Background(), "rename_node", map[string]any{"node_path": "Player/Sprite", "new_name": "X"})
	if !r.IsError || r.ErrorCode != sdk.CodeInvalidArgument || r.Error.Required != "node_path" ||
		!strings.Contains(r.Error.Message, "belongs to res://player.tscn") {
		t.Fatalf("got %s", r.Text())
	}
	// create_scene refuses an existing file before the addon would overwrite it.
	r = h.Call(context.Background(), "create_scene", map[string]any{"scene_path": "res://pong.tscn", "root_type": "Node2D"})
	if !r.IsError || r.ErrorCode != sdk.CodeInvalidArgument || len(ed.Calls("cmd_create_scene")) != 0 {
		t.Fatalf("got %s", r.Text())
	}
}

// In editor mode a resource path goes to the addon, which
// cmd_set_node_property loads (res:// or uid://). An inline resource or a
// {"sub_resource": id}, which the addon cannot build, is written to the
// scene's file instead: the editor saves the scene (and the host has it
// save again under the commit's lock), the file gets the [sub_resource]
// as a headless edit writes it, and the editor reloads the scene; nothing
// is sent as cmd_set_node_property.
func TestEditorInlineResourceOnTheFile(t *testing.T) {
	dir := fixture(t, "2d-pong")
	ed := sdktest.NewEditor().Result("cmd_set_node_property", map[string]any{"set": true}).ActiveScene("res://pong.tscn")
	scenes := sdktest.NewOpenScenes("res://pong.tscn")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve, WorkspaceEditor: scenes})
	before := string(mustRead(t, dir, "pong.tscn"))

	// A dry run sends nothing that changes the editor and writes nothing;
	// its preview has the save it would send and the file's diff.
	shape := map[string]any{"type": "CapsuleShape2D", "properties": map[string]any{"radius": 3, "height": 20}}
	out := plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape", "value": shape, "dry_run": true})
	prev, _ := out["preview"].(map[string]any)
	if cmds := prev["commands"]; !reflect.DeepEqual(cmds, []any{map[string]any{"command": "cmd_save_scene", "params": map[string]any{}}}) ||
		!strings.Contains(fmt.Sprint(prev["files"]), "CapsuleShape2D") {
		t.Errorf("dry run preview: %v", out)
	}
	if got := string(mustRead(t, dir, "pong.tscn")); got != before || len(scenes.Saved()) != 0 || len(ed.Calls("cmd_save_scene")) != 0 {
		t.Fatalf("the dry run saved %v / %v or wrote", scenes.Saved(), ed.Calls("cmd_save_scene"))
	}

	out = plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape", "value": shape})
	if on, _ := out["on_file"].(string); !strings.Contains(on, "res://pong.tscn was saved, edited on its file and reloaded") {
		t.Errorf("answer: %v", out)
	}
	got := string(mustRead(t, dir, "pong.tscn"))
	for _, w := range []string{`[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_`, "radius = 3.0\n", "height = 20.0\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("pong.tscn lacks %s:\n%s", w, got)
		}
	}
	if !strings.Contains(got, "shape = SubResource(\"CapsuleShape2D_") {
		t.Errorf("Left/Collision does not use the new sub-resource:\n%s", got)
	}
	if n := len(ed.Calls("cmd_set_node_property")); n != 0 {
		t.Errorf("the inline value reached the addon %d times", n)
	}
	if s := ed.Calls("cmd_save_scene"); len(s) != 1 {
		t.Errorf("the tool saved %d times", len(s))
	}
	if !slices.Equal(scenes.Saved(), []string{"res://pong.tscn"}) || !slices.Contains(scenes.Reloaded(), "res://pong.tscn") {
		t.Errorf("the host saved %v and reloaded %v", scenes.Saved(), scenes.Reloaded())
	}

	// A sub-resource the scene has is shared the same way, here sent as
	// JSON text, as a client bound to the value's string type sends it.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Right/Collision", "property": "shape", "value": `{"sub_resource": "2"}`})
	if got := string(mustRead(t, dir, "pong.tscn")); strings.Count(got, `shape = SubResource("2")`) != 2 || strings.Contains(got, `SubResource("1")`) {
		t.Errorf("the shared sub-resource:\n%s", got)
	}

	// Paths still go to the addon.
	for _, p := range []string{"res://shapes/paddle.tres", "uid://c7paddle0001"} {
		plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape", "value": p})
	}
	calls := ed.Calls("cmd_set_node_property")
	if len(calls) != 2 || calls[0].Params["value"] != "res://shapes/paddle.tres" || calls[1].Params["value"] != "uid://c7paddle0001" {
		t.Fatalf("paths sent as %+v", calls)
	}
}

// With no scene open in the editor, or one never saved, an inline
// resource has no file to go to: the refusal says what to do.
func TestEditorInlineResourceNeedsASavedScene(t *testing.T) {
	for _, c := range []struct {
		active   map[string]any
		required string
	}{
		{map[string]any{"is_open": false}, "active_scene"},
		{map[string]any{"is_open": true, "path": ""}, "scene_path"},
	} {
		ed := sdktest.NewEditor().Result("cmd_get_active_scene", c.active)
		h := editorHost(t, ed)
		r := h.Call(context.Background(), "set_node_property", map[string]any{"node_path": "Left/Collision", "property": "shape",
			"value": map[string]any{"type": "RectangleShape2D"}})
		if !r.IsError || r.ErrorCode != sdk.CodePreconditionFailed || r.Error.Required != c.required || r.Error.Hint == "" {
			t.Errorf("%v: %s", c.active, r.Text())
		}
		if n := len(ed.Calls("cmd_save_scene", "cmd_set_node_property")); n != 0 {
			t.Errorf("%v: %d commands sent", c.active, n)
		}
	}
}
