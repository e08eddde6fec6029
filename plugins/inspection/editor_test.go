package main

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// addon scripts an editor with dodge_the_creeps' main.tscn open, answering
// as the godot-mcp addon does (ADDON-PROTOCOL §5.1).
func addon() *sdktest.Editor {
	mobTimer := obj{"node_path": "MobTimer", "type": "Timer", "script": nil, "properties": obj{}, "children": []any{}}
	return sdktest.NewEditor().
		Result("cmd_get_project_info", obj{"name": "Dodge the Creeps", "godot_version": "4.6.1.stable", "main_scene": "res://main.tscn",
			"project_path": "/home/u/dodge", "autoloads": obj{}, "input_actions": []any{"move_left", "ui_accept"},
			"csharp_supported": false, "csharp_project": false}).
		Result("cmd_get_active_scene", obj{"is_open": true, "path": "res://main.tscn", "name": "main.tscn"}).
		Result("cmd_list_scenes", obj{"main_scene": "res://main.tscn", "scenes": []any{
			obj{"path": "res://main.tscn", "is_main": true, "is_open": true, "is_active": true}}}).
		On("cmd_get_scene_tree", func(p map[string]any) (any, *sdk.Error) {
			root := obj{"name": "Main", "type": "Node", "path": ".", "children": []any{
				obj{"name": "Player", "type": "Area2D", "path": "Player", "children": []any{
					obj{"name": "AnimatedSprite2D", "type": "AnimatedSprite2D", "path": "Player/AnimatedSprite2D", "owner": "res://player.tscn", "children": []any{}},
				}},
			}}
			if p["lightweight"] != true {
				root["script"] = "res://main.gd"
				root["children"].([]any)[0].(obj)["script"] = "res://player.gd"
				root["children"].([]any)[0].(obj)["children"].([]any)[0].(obj)["script"] = nil
			}
			if p["max_depth"] == float64(0) {
				root["children"] = []any{}
			}
			return obj{"tree": root}, nil
		}).
		Result("cmd_get_selected_node", obj{"selected": mobTimer}).
		On("cmd_get_node_properties", func(p map[string]any) (any, *sdk.Error) {
			if p["node_path"] != "MobTimer" {
				return nil, &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "No node at '" + p["node_path"].(string) + "'."}
			}
			return mobTimer, nil
		}).
		Result("cmd_get_node_property", obj{"node_path": "MobTimer", "property": "wait_time", "value": 0.5, "exists": true}).
		Result("cmd_get_node_property_list", obj{"node_path": "MobTimer", "type": "Timer", "properties": []any{"Timer", "process_callback", "wait_time"}}).
		Result("cmd_get_node_groups", obj{"node_path": "MobTimer", "groups": []any{}}).
		On("cmd_snapshot_subtree", func(p map[string]any) (any, *sdk.Error) {
			// The addon returns the requested names the node has: MobTimer's
			// live values, all engine defaults but wait_time.
			props := obj{}
			names, _ := p["properties"].([]any)
			for _, n := range names {
				if n == "wait_time" {
					props["wait_time"] = 0.5
				} else if d, ok := db.DefaultValue("Timer", n.(string)); ok {
					props[n.(string)] = godot.ToJSON(d)
				}
			}
			return obj{"node_path": p["node_path"], "snapshot": obj{"name": "MobTimer", "type": "Timer", "path": "MobTimer",
				"script": nil, "properties": props, "groups": []any{}, "children": []any{}}}, nil
		})
}

func TestEditorForwards(t *testing.T) {
	ed := addon()
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve, GodotVersion: "4.6"})
	cases := []struct {
		tool    string
		args    obj
		command string
		params  obj
	}{
		{"get_project_info", nil, "cmd_get_project_info", obj{}},
		{"get_active_scene", nil, "cmd_get_active_scene", obj{}},
		{"list_scenes", nil, "cmd_list_scenes", obj{}},
		{"get_scene_tree", nil, "cmd_get_scene_tree", obj{"max_depth": float64(10), "lightweight": false}},
		{"get_scene_tree", obj{"max_depth": 0, "lightweight": true}, "cmd_get_scene_tree", obj{"max_depth": float64(0), "lightweight": true}},
		{"get_selected_node", nil, "cmd_get_selected_node", obj{}},
		{"get_node_property", obj{"node_path": "MobTimer", "property": "wait_time"}, "cmd_get_node_property", obj{"node_path": "MobTimer", "property": "wait_time"}},
		{"get_node_property_list", obj{"node_path": "MobTimer"}, "cmd_get_node_property_list", obj{"node_path": "MobTimer"}},
		{"get_node_groups", obj{"node_path": "MobTimer"}, "cmd_get_node_groups", obj{"node_path": "MobTimer"}},
		{"snapshot_subtree", nil, "cmd_snapshot_subtree", obj{"node_path": ".", "properties": []any{}, "max_depth": float64(-1)}},
		{"snapshot_subtree", obj{"node_path": "MobTimer", "properties": []string{"wait_time"}, "max_depth": 2}, "cmd_snapshot_subtree",
			obj{"node_path": "MobTimer", "properties": []any{"wait_time"}, "max_depth": float64(2)}},
	}
	for _, c := range cases {
		before := len(ed.Calls())
		plugintest.Call(t, h, c.tool, c.args)
		got := ed.Calls()[before:]
		if len(got) != 1 || got[0].Command != c.command || !reflect.DeepEqual(got[0].Params, map[string]any(c.params)) {
			t.Errorf("%s %v sent %+v, want %s %v", c.tool, c.args, got, c.command, c.params)
		}
	}

	// get_node_properties reads the node, then its engine properties.
	before := len(ed.Calls())
	np := plugintest.Call(t, h, "get_node_properties", obj{"node_path": "MobTimer"})
	got := ed.Calls()[before:]
	if len(got) != 2 || got[0].Command != "cmd_get_node_properties" || got[1].Command != "cmd_snapshot_subtree" ||
		got[1].Params["node_path"] != "MobTimer" || got[1].Params["max_depth"] != float64(0) {
		t.Fatalf("get_node_properties sent %+v", got)
	}
	asked := got[1].Params["properties"].([]any)
	if !slices.Contains(asked, any("wait_time")) || !slices.Contains(asked, any("process_mode")) || slices.Contains(asked, any("script")) {
		t.Errorf("asked for %v", asked)
	}
	if np["builtin"].(obj)["wait_time"] != 0.5 || !jsonEqual(np["overridden"], []any{"wait_time"}) {
		t.Errorf("editor node properties: %v", np)
	}
}

func TestEditorRefusals(t *testing.T) {
	ed := addon()
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	// The addon's RESOURCE_NOT_FOUND is the SDK's NOT_FOUND (the host's one
	// rule, sdk/addonerr), its words kept in the message.
	e := fails(t, h, "get_node_properties", obj{"node_path": "Nope"}, sdk.CodeNotFound)
	if !strings.Contains(e.Message, "No node at 'Nope'.") || e.Hint == "" {
		t.Errorf("not found: %+v", e)
	}
	// Another scene than the editor's active one is refused before any
	// scene command is sent.
	before := len(ed.Calls())
	e = fails(t, h, "get_scene_tree", obj{"scene": "res://hud.tscn"}, sdk.CodePreconditionFailed)
	if e.Required != "active_scene" || !strings.Contains(e.Hint, "godot_scene_edit_open_scene") {
		t.Errorf("other scene: %+v", e)
	}
	if calls := ed.Calls()[before:]; len(calls) != 1 || calls[0].Command != "cmd_get_active_scene" {
		t.Errorf("sent %+v", calls)
	}
	// The active scene named explicitly is fine.
	plugintest.Call(t, h, "get_scene_tree", obj{"scene": "res://main.tscn"})

	// No scene open: the addon's null tree is answered as the reference
	// answers it (tree null, with a note on how to open one), as headless
	// does; its PRECONDITION_FAILED stays the refusal headless gives.
	ed.Result("cmd_get_scene_tree", obj{"tree": nil}).
		Fail("cmd_get_node_groups", "PRECONDITION_FAILED", "No scene is open.", "active_scene")
	if tr := plugintest.Call(t, h, "get_scene_tree", nil); tr["tree"] != nil || len(tr) != 2 ||
		!strings.Contains(tr["note"].(string), `godot_scene_edit_open_scene {"scene_path"`) {
		t.Errorf("no scene tree: %v", tr)
	}
	e = fails(t, h, "get_node_groups", obj{"node_path": "."}, sdk.CodePreconditionFailed)
	if e.Required != "active_scene" || !strings.Contains(e.Hint, "godot_scene_edit_open_scene") {
		t.Errorf("get_node_groups: %+v", e)
	}
	// No editor at all would be the host's job (it only sets editor mode
	// with an editor attached); a lost editor mid-call is its error.
	// An addon older than a command: a clear refusal, and
	// get_node_properties still answers without its builtin part.
	ed2 := sdktest.NewEditor().Result("cmd_get_node_properties",
		obj{"node_path": "MobTimer", "type": "Timer", "script": nil, "properties": obj{}, "children": []any{}})
	old := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed2.Serve})
	e = fails(t, old, "snapshot_subtree", nil, sdk.CodePreconditionFailed)
	if e.Required != "addon_command" || !strings.Contains(e.Hint, "update the godot-mcp addon") {
		t.Errorf("old addon: %+v", e)
	}
	np := plugintest.Call(t, old, "get_node_properties", obj{"node_path": "MobTimer"})
	if np["type"] != "Timer" || len(np["builtin"].(obj)) != 0 || !strings.Contains(np["note"].(string), "cmd_snapshot_subtree") {
		t.Errorf("old addon node properties: %v", np)
	}
	ed.Fail("cmd_get_node_property", sdk.CodeBridgeDisconnected, "reconnect", "bridge_connected")
	fails(t, h, "get_node_property", obj{"node_path": ".", "property": "x"}, sdk.CodeBridgeDisconnected)
}

// TestSameShapes: every tool answers with the same keys in both modes, so
// an agent's code does not depend on whether an editor is attached.
func TestSameShapes(t *testing.T) {
	hl, _ := headless(t, "2d-dodge_the_creeps", "res://main.tscn")
	ed := addon()
	he := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	cases := []struct {
		tool string
		args obj
	}{
		{"get_project_info", nil},
		{"get_active_scene", nil},
		{"list_scenes", nil},
		{"get_scene_tree", nil},
		{"get_node_properties", obj{"node_path": "MobTimer"}},
		{"get_node_property", obj{"node_path": "MobTimer", "property": "wait_time"}},
		{"get_node_property_list", obj{"node_path": "MobTimer"}},
		{"get_node_groups", obj{"node_path": "MobTimer"}},
		{"snapshot_subtree", obj{"node_path": "MobTimer", "properties": []string{"wait_time"}}},
	}
	for _, c := range cases {
		a, b := plugintest.Call(t, hl, c.tool, c.args), plugintest.Call(t, he, c.tool, c.args)
		if !reflect.DeepEqual(keys(a), keys(b)) {
			t.Errorf("%s: headless keys %v, editor keys %v", c.tool, keys(a), keys(b))
		}
		switch c.tool {
		case "get_scene_tree":
			ta, tb := a["tree"].(obj), b["tree"].(obj)
			if !reflect.DeepEqual(keys(ta), keys(tb)) {
				t.Errorf("tree node keys: %v vs %v", keys(ta), keys(tb))
			}
			sa := child(t, child(t, ta, "Player"), "AnimatedSprite2D")
			sb := child(t, child(t, tb, "Player"), "AnimatedSprite2D")
			if !reflect.DeepEqual(sa, sb) {
				t.Errorf("instance child: headless %v, editor %v", sa, sb)
			}
		case "get_node_properties", "get_node_property":
			if !jsonEqual(a, b) {
				t.Errorf("%s: headless %v\neditor %v", c.tool, a, b)
			}
		case "snapshot_subtree":
			sa, sb := a["snapshot"].(obj), b["snapshot"].(obj)
			if !reflect.DeepEqual(keys(sa), keys(sb)) || !jsonEqual(sa["properties"], sb["properties"]) {
				t.Errorf("snapshot: headless %v, editor %v", sa, sb)
			}
		}
	}
}

// TestEditorDiffSnapshots: diff_snapshots has no addon command; it
// re-sends the first snapshot's command and params and compares.
func TestEditorDiffSnapshots(t *testing.T) {
	x := 100.0
	ed := sdktest.NewEditor().On("cmd_snapshot_subtree", func(p map[string]any) (any, *sdk.Error) {
		kids := []any{obj{"name": "Sprite", "type": "Sprite2D", "path": "Player/Sprite", "script": nil,
			"properties": obj{"position": obj{"x": x, "y": 0}}, "groups": []any{}, "children": []any{}}}
		if x > 100 {
			kids = append(kids, obj{"name": "Gun", "type": "Node2D", "path": "Player/Gun", "script": nil,
				"properties": obj{}, "groups": []any{}, "children": []any{}})
		}
		return obj{"node_path": p["node_path"], "snapshot": obj{"name": "Player", "type": "Area2D", "path": "Player", "script": nil,
			"properties": obj{}, "groups": []any{"players"}, "children": kids}}, nil
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	s := plugintest.Call(t, h, "snapshot_subtree", obj{"node_path": "Player", "properties": []string{"modulate"}})
	x = 150
	d := plugintest.Call(t, h, "diff_snapshots", obj{"before": s["snapshot_id"]})
	calls := ed.Calls("cmd_snapshot_subtree")
	if len(calls) != 2 || !reflect.DeepEqual(calls[0].Params, calls[1].Params) {
		t.Fatalf("snapshots sent %+v", calls)
	}
	ch := d["changed"].([]any)
	if d["unchanged"] != false || !jsonEqual(d["added"], []any{"Player/Gun"}) || len(ch) != 1 ||
		ch[0].(obj)["field"] != "properties.position" || !jsonEqual(ch[0].(obj)["before"], obj{"x": 100, "y": 0}) {
		t.Errorf("diff %v", d)
	}
}

// TestEditorTruncation: the editor is asked once, to the depth asked for,
// and its answer is cut to max_nodes breadth first, with a marker on every
// node whose children were left out.
func TestEditorTruncation(t *testing.T) {
	ed := addon()
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	out := plugintest.Call(t, h, "get_scene_tree", obj{"max_nodes": 2})
	var sent []string
	for _, c := range ed.Calls("cmd_get_scene_tree") {
		sent = append(sent, fmt.Sprintf("d=%v lw=%v", c.Params["max_depth"], c.Params["lightweight"]))
	}
	if strings.Join(sent, ",") != "d=10 lw=false" {
		t.Errorf("asked %v", sent)
	}
	tree := out["tree"].(obj)
	player := children(tree)[0]
	if out["truncated"] != true || out["nodes"] != float64(2) || out["total_nodes"] != float64(3) ||
		len(children(player)) != 0 || player["children_omitted"] != float64(1) || !strings.Contains(out["hint"].(string), "max_nodes") {
		t.Errorf("truncated answer %v", out)
	}
}
