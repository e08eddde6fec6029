package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.CheckLeaks) }

const mainScene = `[gd_scene format=3 uid="uid://c0main"]

[node name="Main" type="Node2D"]

[node name="Player" type="Sprite2D" parent="."]
`

func project(t *testing.T) string {
	t.Helper()
	return plugintest.Project(t, map[string]string{
		"project.godot":    "config_version=5\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn":        mainScene,
		"scripts/enemy.gd": "extends CharacterBody2D\n\nfunc _on_hit() -> void:\n\tpass\n",
		"shapes/box.tres":  "[gd_resource type=\"RectangleShape2D\" format=3]\n\n[resource]\nsize = Vector2(16, 16)\n",
	})
}

func read(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "main.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHeadlessComposite(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	ctx := context.Background()
	scene := "res://main.tscn"

	// compose_node: one node, its script, properties and children.
	depth := h.Workspace().History().Depth
	c := plugintest.CallAs[composeResult](t, h, "compose_node", map[string]any{
		"scene": scene, "node_type": "CharacterBody2D", "node_name": "Enemy", "script_path": "res://scripts/enemy.gd",
		"properties": map[string]any{"position": []any{100, 50}, "motion_mode": "MOTION_MODE_FLOATING"},
		"children": []any{
			map[string]any{"node_type": "CollisionShape2D", "node_name": "Shape", "properties": map[string]any{"shape": "res://shapes/box.tres"}},
			map[string]any{"node_type": "Sprite2D", "properties": map[string]any{"modulate": map[string]any{"r": 1, "g": 0.5, "b": 0}}},
		},
	})
	if c.NodePath != "Enemy" || len(c.Children) != 2 || !c.ScriptAttached || len(c.PropertiesSet) != 2 || len(c.Files) != 1 {
		t.Errorf("compose: %+v", c)
	}
	if d := h.Workspace().History().Depth; d != depth+1 {
		t.Errorf("compose made %d actions", d-depth)
	}
	got := read(t, dir)
	for _, want := range []string{
		`[node name="Enemy" type="CharacterBody2D" parent="."]`, `position = Vector2(100, 50)`, `motion_mode = 1`,
		`[node name="Shape" type="CollisionShape2D" parent="Enemy"]`, `[node name="Sprite2D" type="Sprite2D" parent="Enemy"]`,
		`modulate = Color(1, 0.5, 0, 1)`, `path="res://scripts/enemy.gd"`, `path="res://shapes/box.tres"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tscn lacks %q:\n%s", want, got)
		}
	}

	// An unknown property fails the whole compose; nothing is written.
	before := read(t, dir)
	bad := h.Call(ctx, "compose_node", map[string]any{"scene": scene, "node_type": "Node2D", "node_name": "X",
		"children": []any{map[string]any{"node_type": "Sprite2D", "properties": map[string]any{"texure": "res://a.png"}}}})
	if !bad.IsError || !strings.Contains(bad.Text(), `did you mean "texture"?`) || read(t, dir) != before {
		t.Errorf("bad compose: %s", bad.Text())
	}

	// batch_create_nodes, dry run first.
	dry := plugintest.CallAs[batchCreateResult](t, h, "batch_create_nodes", map[string]any{"scene": scene, "node_type": "Marker2D", "names": []string{"A", "B", "C"}}, sdktest.DryRun())
	if dry.Count != 3 || len(dry.Created) != 0 || !dry.DryRun || read(t, dir) != before {
		t.Errorf("dry batch create: %+v", dry)
	}
	bc := plugintest.CallAs[batchCreateResult](t, h, "batch_create_nodes", map[string]any{"scene": scene, "node_type": "Marker2D", "names": []string{"A", "B", "C"}, "properties": map[string]any{"gizmo_extents": 4}})
	if bc.Count != 3 || strings.Join(bc.Created, ",") != "A,B,C" {
		t.Errorf("batch create: %+v", bc)
	}

	// apply_node_edits: unknown properties skipped, a missing node is an error.
	ap := plugintest.CallAs[applyResult](t, h, "apply_node_edits", map[string]any{"scene": scene, "edits": []any{
		map[string]any{"node_path": "A", "properties": map[string]any{"position": "Vector2(1, 2)", "nope": 1}},
		map[string]any{"node_path": "Player", "properties": map[string]any{"flip_h": true}},
	}})
	if ap.Count != 2 || len(ap.Skipped) != 1 || ap.Skipped[0].Property != "nope" || len(ap.Edited) != 2 {
		t.Errorf("apply: %+v", ap)
	}
	miss := h.Call(ctx, "apply_node_edits", map[string]any{"scene": scene, "edits": []any{map[string]any{"node_path": "Ghost", "properties": map[string]any{"visible": false}}}})
	if !miss.IsError || !strings.Contains(miss.Text(), "NOT_FOUND") {
		t.Errorf("missing node: %s", miss.Text())
	}

	// run_commands with stop_on_error: all or nothing.
	before = read(t, dir)
	cmds := []any{
		map[string]any{"command": "create_node", "params": map[string]any{"node_type": "Timer", "node_name": "Clock"}},
		map[string]any{"command": "godot_scene_edit_set_node_property", "params": map[string]any{"node_path": "Clock", "property": "wait_time", "value": 2}},
		map[string]any{"command": "cmd_set_node_property", "params": map[string]any{"node_path": "Nobody", "property": "visible", "value": false}},
		map[string]any{"command": "cmd_delete_node", "params": map[string]any{"node_path": "B"}},
	}
	r := plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": scene, "commands": cmds})
	if r.OKAll || r.AbortedAt == nil || *r.AbortedAt != 2 || r.SkippedCount != 1 || r.Count != 3 || r.Results[2].Error != "NOT_FOUND" {
		t.Errorf("stop on error: %+v", r)
	}
	if read(t, dir) != before {
		t.Error("an aborted run_commands wrote the scene")
	}
	// Without stop_on_error the good commands are kept, as one action.
	depth = h.Workspace().History().Depth
	r = plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": scene, "commands": cmds, "stop_on_error": false})
	if r.OKAll || r.AbortedAt != nil || r.Count != 4 || !r.Results[3].OK || r.Results[2].OK {
		t.Errorf("keep going: %+v", r)
	}
	got = read(t, dir)
	if !strings.Contains(got, `[node name="Clock" type="Timer" parent="."]`) || !strings.Contains(got, "wait_time = 2.0") || strings.Contains(got, `name="B"`) {
		t.Errorf("after run_commands:\n%s", got)
	}
	if d := h.Workspace().History().Depth; d != depth+1 {
		t.Errorf("run_commands made %d actions", d-depth)
	}
	// One undo reverts the whole list.
	if _, err := h.Workspace().Undo(ctx, 1, false); err != nil {
		t.Fatal(err)
	}
	if read(t, dir) != before {
		t.Error("undo did not revert run_commands")
	}
	plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": scene, "commands": cmds, "stop_on_error": false})
	plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"scene": scene, "commands": []any{
		map[string]any{"command": "connect_signal", "params": map[string]any{"source_path": "Clock", "signal_name": "timeout", "target_path": "Enemy", "method_name": "_on_hit"}},
		map[string]any{"command": "godot_batch_set_property", "params": map[string]any{"type": "Marker2D", "property": "gizmo_extents", "value": 8}},
	}})
	if got := read(t, dir); strings.Count(got, "gizmo_extents = 8.0") != 2 { // A and C (B was deleted)
		t.Errorf("batch_set_property in run_commands:\n%s", got)
	}

	enginecheck.Project(t, dir)
}

func TestEditorForwarding(t *testing.T) {
	dir := project(t)
	ed := sdktest.NewEditor().
		Result("cmd_compose_node", map[string]any{"node_path": "Enemy", "created": true, "children": []any{"Shape"}, "script_attached": false, "properties_set": []any{}, "saved": false, "persisted": true}).
		Result("cmd_run_commands", map[string]any{"results": []any{map[string]any{"command": "cmd_create_node", "ok": true, "result": map[string]any{"node_path": "T"}}}, "ok_all": true, "count": 1})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	plugintest.CallAs[composeResult](t, h, "compose_node", map[string]any{"node_type": "CharacterBody2D", "node_name": "Enemy",
		"children": []any{map[string]any{"node_type": "CollisionShape2D", "node_name": "Shape"}}})
	r := plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"commands": []any{
		map[string]any{"command": "godot_scene_edit_create_node", "params": map[string]any{"node_type": "Timer", "node_name": "T"}}}})
	if !r.OKAll || r.Count != 1 {
		t.Errorf("run: %+v", r)
	}
	calls := ed.Calls()
	if len(calls) != 2 {
		t.Fatalf("calls %+v", calls)
	}
	p := calls[0].Params
	kids, _ := p["children"].([]any)
	if p["name"] != "Enemy" || p["parent_path"] != "." || len(kids) != 1 || kids[0].(map[string]any)["name"] != "Shape" {
		t.Errorf("compose params %+v", p)
	}
	// Without names the node and its children are named after their
	// classes, as headless names them; the addon would leave them empty.
	plugintest.CallAs[composeResult](t, h, "compose_node", map[string]any{"node_type": "Area2D",
		"children": []any{map[string]any{"node_type": "CollisionShape2D"}}})
	if c := ed.Calls(); len(c) != 3 || c[2].Params["name"] != "Area2D" || c[2].Params["children"].([]any)[0].(map[string]any)["name"] != "CollisionShape2D" {
		t.Errorf("compose without names: %+v", c[len(c)-1].Params)
	}
	sub := calls[1].Params["commands"].([]any)[0].(map[string]any)
	if sub["command"] != "cmd_create_node" || sub["params"].(map[string]any)["name"] != "T" || calls[1].Params["stop_on_error"] != true {
		t.Errorf("run_commands params %+v", calls[1].Params)
	}
	if _, err := os.Stat(filepath.Join(dir, "main.tscn")); err != nil || read(t, dir) != mainScene {
		t.Error("editor mode touched the file")
	}

	// A failed sub-command carries the code a headless run gives it
	// (RESOURCE_NOT_FOUND is NOT_FOUND, as in TestHeadless), not the
	// addon's, with the addon's words kept.
	ed.Result("cmd_run_commands", map[string]any{"results": []any{
		map[string]any{"command": "cmd_set_node_property", "ok": false, "error": "RESOURCE_NOT_FOUND", "hint": "No node at 'Nobody'."},
		map[string]any{"command": "cmd_frobnicate", "ok": false, "error": "VALIDATION_ERROR", "hint": "Unknown command 'cmd_frobnicate'."},
	}, "ok_all": false, "count": 2, "aborted_at": 0})
	r = plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"commands": []any{
		map[string]any{"command": "cmd_set_node_property", "params": map[string]any{"node_path": "Nobody", "property": "visible", "value": false}}}})
	if len(r.Results) != 2 || r.Results[0].Error != sdk.CodeNotFound || !strings.Contains(r.Results[0].Hint, "No node at 'Nobody'.") ||
		r.Results[1].Error != sdk.CodePreconditionFailed || r.Results[1].Required != "addon_command" {
		t.Errorf("editor sub-results: %+v", r.Results)
	}
}

// TestResolveCommandNames: an operation reaches the addon under the
// command the addon registers, whatever name it was given: the host hands
// every operation under its tool's exposed name, and the addon's names
// are not "cmd_" + the tool's (godot_scripts_read is cmd_read_script).
func TestResolveCommandNames(t *testing.T) {
	for name, want := range map[string]string{
		"godot_scripts_read":                      "cmd_read_script",
		"godot_project_resolve_uid":               "cmd_uid_to_path",
		"godot_tilemap_create_tileset":            "cmd_create_tileset",
		"godot_tilemap_set_cell":                  "cmd_tilemap_set_cell",
		"godot_input_map_add_action":              "cmd_add_input_action",
		"godot_resources_edit_read_resource_file": "cmd_read_resource",
		"godot_batch_set_property":                "cmd_batch_set_property",
		"godot_composite_batch_create_nodes":      "cmd_batch_create_nodes",
		"godot_project_get_setting":               "cmd_get_setting",
		"scene_edit_create_node":                  "cmd_create_node",
		"create_node":                             "cmd_create_node",
		"set_property":                            "cmd_batch_set_property",
		"read_resource_file":                      "cmd_read_resource",
		"cmd_frobnicate":                          "cmd_frobnicate", // the addon's own name passes as is
	} {
		if got, err := resolveCommand(name); err != nil || got != want {
			t.Errorf("resolveCommand(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for name, want := range map[string]string{
		"godot_runtime_run_and_capture": "call godot_runtime_run_and_capture directly",
		"set_layers":                    "godot_navigation_set_layers, godot_physics_set_layers",
		"frobnicate":                    "no single editor command",
	} {
		_, err := resolveCommand(name)
		if err == nil || err.Code != sdk.CodeInvalidArgument || !strings.Contains(err.Message+err.Hint, want) {
			t.Errorf("resolveCommand(%q): %v, want INVALID_ARGUMENT saying %q", name, err, want)
		}
	}
}

// compositeDryRuns are calls of every composite tool with arguments that
// pass validation in both modes on project().
var compositeDryRuns = []struct {
	tool string
	args map[string]any
	cmd  string // the addon command the editor path sends or records
}{
	{"compose_node", map[string]any{"scene": "res://main.tscn", "node_type": "CharacterBody2D", "node_name": "Enemy",
		"children": []any{map[string]any{"node_type": "CollisionShape2D", "node_name": "Shape"}}}, "cmd_compose_node"},
	{"batch_create_nodes", map[string]any{"scene": "res://main.tscn", "node_type": "Marker2D", "names": []string{"A", "B"}}, "cmd_batch_create_nodes"},
	{"apply_node_edits", map[string]any{"scene": "res://main.tscn", "edits": []any{
		map[string]any{"node_path": "Player", "properties": map[string]any{"flip_h": true}}}}, "cmd_apply_node_edits"},
	{"run_commands", map[string]any{"scene": "res://main.tscn", "commands": []any{
		map[string]any{"command": "create_node", "params": map[string]any{"node_type": "Timer", "node_name": "Clock"}}}}, "cmd_run_commands"},
}

// compositeEditor answers what the dry runs may send: the tab switch, the
// commands that preview themselves, and (for a real run) the rest.
func compositeEditor() *sdktest.Editor {
	ok := func(p map[string]any) (any, *sdk.Error) { return map[string]any{}, nil }
	return sdktest.NewEditor().
		On("cmd_open_scene", ok).
		Result("cmd_compose_node", map[string]any{"node_path": "Enemy", "created": true, "children": []any{"Shape"}}).
		On("cmd_batch_create_nodes", func(p map[string]any) (any, *sdk.Error) {
			return map[string]any{"created": []any{}, "count": 2, "saved": false, "undoable": true}, nil
		}).
		On("cmd_apply_node_edits", func(p map[string]any) (any, *sdk.Error) {
			return map[string]any{"edited": []any{"Player"}, "skipped": []any{}, "count": 1}, nil
		}).
		Result("cmd_run_commands", map[string]any{"results": []any{}, "ok_all": true, "count": 0}).
		Result("cmd_node_exists", map[string]any{"exists": true})
}

// With an editor attached, a dry run of any composite tool changes nothing
// in the user's scene: compose_node and run_commands are recorded, the
// commands that preview themselves are sent with dry_run set. compose_node
// used to create the node.
func TestEditorDryRunSendsNoEdit(t *testing.T) {
	ctx := context.Background()
	dir := project(t)
	ed := compositeEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	for _, c := range compositeDryRuns {
		res := h.Call(ctx, c.tool, c.args, sdktest.DryRun())
		if res.IsError {
			t.Fatalf("%s dry run: %s", c.tool, res.Text())
		}
		var out struct {
			DryRun  bool `json:"dry_run"`
			Preview struct {
				Commands []struct {
					Command   string `json:"command"`
					Previewed bool   `json:"previewed"`
				} `json:"commands"`
			} `json:"preview"`
		}
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
		if !out.DryRun || len(out.Preview.Commands) != 1 || out.Preview.Commands[0].Command != c.cmd {
			t.Errorf("%s: preview %s", c.tool, res.Text())
		}
	}
	if n := len(ed.Calls("cmd_compose_node", "cmd_run_commands")); n != 0 {
		t.Errorf("a dry run sent %d mutating commands: %+v", n, ed.Calls())
	}
	for _, call := range ed.Calls("cmd_batch_create_nodes", "cmd_apply_node_edits") {
		if call.Params["dry_run"] != true {
			t.Errorf("%s sent without dry_run: %v", call.Command, call.Params)
		}
	}
	if opens := ed.Calls("cmd_open_scene"); len(opens) != len(compositeDryRuns) || opens[0].Params["scene_path"] != "res://main.tscn" {
		t.Errorf("the scene was not opened first: %+v", opens)
	}
	if read(t, dir) != mainScene {
		t.Error("an editor dry run touched the file")
	}

	// A list of reads only runs in a dry run too, read by read: the host
	// lets no cmd_run_commands through during one.
	r := plugintest.CallAs[runResult](t, h, "run_commands", map[string]any{"commands": []any{
		map[string]any{"command": "node_exists", "params": map[string]any{"node_path": "Player"}}}}, sdktest.DryRun())
	if !r.OKAll || r.Count != 1 || r.Results[0].Result["exists"] != true || len(ed.Calls("cmd_run_commands")) != 0 {
		t.Errorf("read-only run_commands dry run: %+v; calls %+v", r, ed.Calls())
	}
}

// With an editor attached and a scene named, the tools edit that scene in
// the editor (opened first), not its file behind the editor's back.
func TestEditorSceneArgumentOpensTheScene(t *testing.T) {
	dir := project(t)
	ed := compositeEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	plugintest.CallAs[composeResult](t, h, "compose_node", compositeDryRuns[0].args)
	calls := ed.Calls()
	if len(calls) != 2 || calls[0].Command != "cmd_open_scene" || calls[0].Params["scene_path"] != "res://main.tscn" || calls[1].Command != "cmd_compose_node" {
		t.Fatalf("sent %+v", calls)
	}
	if read(t, dir) != mainScene {
		t.Error("compose_node with a scene edited the file behind the editor's back")
	}
}

// A dry run answers in the same shape in both modes.
func TestDryRunShapeSameInBothModes(t *testing.T) {
	headless := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t)})
	defer headless.Close()
	editor := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t), Editor: compositeEditor().Serve})
	defer editor.Close()
	for _, c := range compositeDryRuns {
		for mode, h := range map[sdk.Mode]*sdktest.Host{sdk.ModeHeadless: headless, sdk.ModeEditor: editor} {
			plugintest.DryRunIn(t, h, mode, c.tool, c.args)
		}
	}
}

// The addon's compose and batch-create builds drop a res:// path given
// for a resource property; such values are set after the build with
// cmd_set_node_property, which loads them. Other values stay in the build.
func TestEditorResourcePathsSetAfterTheBuild(t *testing.T) {
	dir := project(t)
	ed := sdktest.NewEditor().
		Result("cmd_compose_node", map[string]any{"node_path": "Coin", "created": true, "children": []any{"Sprite2D"}, "properties_set": []any{"visible"}}).
		Result("cmd_batch_create_nodes", map[string]any{"created": []any{"A", "B"}, "count": 2}).
		Result("cmd_apply_node_edits", map[string]any{"edited": []any{"A"}, "count": 1, "skipped": []any{}}).
		Result("cmd_set_node_property", map[string]any{"property": "texture", "persisted": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	out := plugintest.CallAs[composeResult](t, h, "compose_node", map[string]any{"node_type": "Area2D", "node_name": "Coin",
		"properties": map[string]any{"visible": true},
		"children":   []any{map[string]any{"node_type": "Sprite2D", "properties": map[string]any{"texture": "res://icon.png", "centered": false}}}})
	plugintest.CallAs[batchCreateResult](t, h, "batch_create_nodes", map[string]any{"node_type": "Sprite2D", "names": []any{"A", "B"},
		"properties": map[string]any{"texture": "uid://cicon", "centered": true}})
	// apply_node_edits does not know the nodes' classes: every path goes
	// to cmd_set_node_property, and an edit left with nothing else is not
	// sent to cmd_apply_node_edits.
	edited := plugintest.CallAs[applyResult](t, h, "apply_node_edits", map[string]any{"edits": []any{
		map[string]any{"node_path": "A", "properties": map[string]any{"texture": "res://icon.png", "flip_h": true}},
		map[string]any{"node_path": "B", "properties": map[string]any{"texture": "res://icon.png"}}}})
	var got []string
	for _, c := range ed.Calls() {
		got = append(got, c.Command+" "+fmtJSON(t, c.Params))
	}
	want := []string{
		`cmd_compose_node {"children":[{"name":"Sprite2D","node_type":"Sprite2D","properties":{"centered":false}}],"name":"Coin","node_type":"Area2D","parent_path":".","properties":{"visible":true}}`,
		`cmd_set_node_property {"node_path":"Coin/Sprite2D","property":"texture","value":"res://icon.png"}`,
		`cmd_batch_create_nodes {"names":["A","B"],"node_type":"Sprite2D","parent_path":".","properties":{"centered":true},"save":false}`,
		`cmd_set_node_property {"node_path":"A","property":"texture","value":"uid://cicon"}`,
		`cmd_set_node_property {"node_path":"B","property":"texture","value":"uid://cicon"}`,
		`cmd_apply_node_edits {"edits":[{"node_path":"A","properties":{"flip_h":true}}],"save":false}`,
		`cmd_set_node_property {"node_path":"A","property":"texture","value":"res://icon.png"}`,
		`cmd_set_node_property {"node_path":"B","property":"texture","value":"res://icon.png"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the editor got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if out.NodePath != "Coin" {
		t.Errorf("compose answer %+v", out)
	}
	if !slices.Equal(edited.Edited, []string{"A", "B"}) || edited.Count != 3 {
		t.Errorf("apply answer %+v", edited)
	}
}

func fmtJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
