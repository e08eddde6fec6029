package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.CheckLeaks) }

const mainScene = `[gd_scene format=3 uid="uid://b1main"]

[node name="Main" type="Node2D"]

[node name="Player" type="Sprite2D" parent="."]
position = Vector2(10, 20)

[node name="Enemy" type="Sprite2D" parent="."]

[node name="Label" type="Label" parent="."]
text = "hi"

[node name="Timer" type="Timer" parent="Label"]
wait_time = 0.5
`

const hudScene = `[gd_scene format=3 uid="uid://b1hud"]

[node name="HUD" type="CanvasLayer"]

[node name="Score" type="Label" parent="."]
text = "0"

[node name="Icon" type="Sprite2D" parent="."]
`

func project(t *testing.T) string {
	t.Helper()
	return plugintest.Project(t, map[string]string{
		"project.godot":   "config_version=5\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn":       mainScene,
		"ui/hud.tscn":     hudScene,
		"scripts/hero.gd": "extends Sprite2D\n",
	})
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFindNodesByType(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	one := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Sprite2D", "scene": "res://main.tscn"})
	if one.Count != 2 || one.Nodes[0].Path != "Player" || one.Nodes[0].Line != 5 || one.Nodes[1].Path != "Enemy" {
		t.Errorf("one scene: %+v", one)
	}
	// Subclasses count: Label and Sprite2D are CanvasItems; the root Node2D too.
	all := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "CanvasItem", "all_scenes": true})
	if all.Count != 6 {
		t.Errorf("all scenes CanvasItem: %+v", all)
	}
	exact := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Label", "all_scenes": true, "exact": true})
	if exact.Count != 2 || exact.Nodes[0].Scene != "res://main.tscn" || exact.Nodes[1].Scene != "res://ui/hud.tscn" || exact.Nodes[1].Line != 5 {
		t.Errorf("exact Label: %+v", exact)
	}
	sub := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Node", "scene": "res://main.tscn", "parent_path": "Label", "recursive": false})
	if sub.Count != 2 { // Label itself and its child Timer
		t.Errorf("under Label: %+v", sub)
	}
	res := h.Call(context.Background(), "find_nodes_by_type", map[string]any{"type": "Sprite2D"})
	if !res.IsError || !strings.Contains(res.Text(), "PRECONDITION_FAILED") {
		t.Errorf("no scene and none active: %s", res.Text())
	}
}

func TestSetPropertyAndCrossScene(t *testing.T) {
	dir := project(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()

	set := plugintest.CallAs[setResult](t, h, "set_property", map[string]any{"scene": "res://main.tscn", "type": "Sprite2D", "property": "position", "value": []any{1, 2}})
	if set.Count != 2 || len(set.Changes) != 2 || set.Changes[0].Line != 6 || set.Changes[0].Old != "Vector2(10, 20)" || set.Changes[1].Line != 8 {
		t.Errorf("set: %+v", set)
	}
	if got := read(t, dir, "main.tscn"); strings.Count(got, "position = Vector2(1, 2)") != 2 {
		t.Errorf("file:\n%s", got)
	}
	// Unknown properties are skipped; bad values are refused and change nothing.
	skip := plugintest.CallAs[setResult](t, h, "set_property", map[string]any{"scene": "res://main.tscn", "node_paths": []string{"Label", "Label/Timer"}, "property": "wait_time", "value": 2})
	if skip.Count != 1 || len(skip.Skipped) != 1 || skip.Skipped[0].Path != "Label" {
		t.Errorf("skip: %+v", skip)
	}
	before := read(t, dir, "main.tscn")
	bad := h.Call(context.Background(), "set_property", map[string]any{"scene": "res://main.tscn", "node_paths": []string{"Player"}, "property": "position", "value": "left"})
	if !bad.IsError || !strings.Contains(bad.Text(), "INVALID_ARGUMENT") || read(t, dir, "main.tscn") != before {
		t.Errorf("bad value: %s", bad.Text())
	}
	// A three-number Vector2 is refused, naming the property, the value and
	// the shapes accepted, not cut to two numbers.
	arity := h.Call(context.Background(), "set_property", map[string]any{"scene": "res://main.tscn", "node_paths": []string{"Player"}, "property": "position", "value": []any{1, 2, 3}})
	if !arity.IsError || arity.Error == nil || arity.Error.Code != sdk.CodeInvalidArgument || arity.Error.Required != "value" ||
		!strings.Contains(arity.Text(), `Setting 'position' failed: [1,2,3] is not a Vector2 (3 numbers; a Vector2 has 2)`) ||
		!strings.Contains(arity.Error.Hint, `[x, y]`) || read(t, dir, "main.tscn") != before {
		t.Errorf("three numbers for a Vector2: %s", arity.Text())
	}
	// Colours take the addon's HTML form and Godot's names.
	for value, want := range map[string]string{"#ff0000": "Color(1, 0, 0, 1)", "cornflower_blue": "Color(0.39215687, 0.58431375, 0.92941177, 1)"} {
		c := plugintest.CallAs[setResult](t, h, "set_property", map[string]any{"scene": "res://main.tscn", "node_paths": []string{"Player"}, "property": "modulate", "value": value}, sdktest.DryRun())
		if len(c.Changes) != 1 || c.Changes[0].New != want {
			t.Errorf("modulate = %q: %+v", value, c)
		}
	}

	// Across scenes: a dry run lists every file and line and writes nothing.
	args := map[string]any{"scenes": []string{"res://main.tscn", "res://ui/hud.tscn"}, "type": "CanvasItem", "property": "modulate", "value": map[string]any{"r": 1, "g": 0, "b": 0}}
	dry := plugintest.CallAs[crossResult](t, h, "cross_scene_set_property", args, sdktest.DryRun())
	if !dry.DryRun || dry.TotalModified != 6 || len(dry.Changes) != 6 || len(dry.Files) != 2 {
		t.Errorf("dry run: %+v", dry)
	}
	for _, c := range dry.Changes {
		if c.Line == 0 || c.Scene == "" || c.New != "Color(1, 0, 0, 1)" {
			t.Errorf("dry-run change without place or value: %+v", c)
		}
	}
	if read(t, dir, "main.tscn") != before {
		t.Error("dry run wrote main.tscn")
	}
	depth := h.Workspace().History().Depth
	real := plugintest.CallAs[crossResult](t, h, "cross_scene_set_property", args)
	if real.TotalModified != 6 || real.ActionID == 0 || len(real.Files) != 2 {
		t.Errorf("cross scene: %+v", real)
	}
	if d := h.Workspace().History().Depth; d != depth+1 {
		t.Errorf("journal depth %d → %d, want one action", depth, d)
	}
	if !strings.Contains(read(t, dir, "ui/hud.tscn"), "modulate = Color(1, 0, 0, 1)") {
		t.Error("hud.tscn not changed")
	}
	// One undo reverts both scenes.
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "main.tscn") != before || read(t, dir, "ui/hud.tscn") != hudScene {
		t.Error("undo did not restore both scenes")
	}
	plugintest.CallAs[crossResult](t, h, "cross_scene_set_property", args)

	deps := plugintest.CallAs[depsResult](t, h, "get_dependencies", map[string]any{"path": "res://project.godot"})
	if deps.Count != 1 || deps.Dependencies[0].Path != "res://main.tscn" || !deps.Dependencies[0].Resolved {
		t.Errorf("deps: %+v", deps)
	}
	missing := h.Call(context.Background(), "get_dependencies", map[string]any{"path": "res://nope.tscn"})
	if !missing.IsError || !strings.Contains(missing.Text(), "NOT_FOUND") {
		t.Errorf("missing: %s", missing.Text())
	}

	// The engine loads what the tools wrote.
	enginecheck.Project(t, dir)
}

// With an editor attached, the edited scene's tools forward to the addon's
// batch commands with its parameter names.
func TestEditorForwarding(t *testing.T) {
	dir := project(t)
	ed := sdktest.NewEditor().
		Result("cmd_find_nodes_by_type", map[string]any{"type": "Sprite2D", "nodes": []any{map[string]any{"path": "Player", "name": "Player", "type": "Sprite2D"}}, "count": 1}).
		Result("cmd_batch_set_property", map[string]any{"property": "visible", "applied": []any{"Player"}, "skipped": []any{}, "count": 1, "dry_run": true, "undoable": true}).
		Result("cmd_get_dependencies", map[string]any{"path": "res://main.tscn", "dependencies": []any{map[string]any{"raw": "uid://x", "path": "res://a.png", "type": "Texture2D"}}, "count": 1})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	f := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Sprite2D"})
	if f.Count != 1 || f.Nodes[0].Path != "Player" {
		t.Errorf("find: %+v", f)
	}
	s := plugintest.CallAs[setResult](t, h, "set_property", map[string]any{"node_paths": []string{"Player"}, "property": "visible", "value": false}, sdktest.DryRun())
	if s.Count != 1 {
		t.Errorf("set: %+v", s)
	}
	d := plugintest.CallAs[depsResult](t, h, "get_dependencies", map[string]any{"path": "res://main.tscn"})
	if d.Count != 1 || !d.Dependencies[0].Resolved {
		t.Errorf("deps: %+v", d)
	}
	calls := ed.Calls()
	if len(calls) != 3 {
		t.Fatalf("editor calls %+v", calls)
	}
	if p := calls[1].Params; p["dry_run"] != true || p["property"] != "visible" || p["value"] != false {
		t.Errorf("batch_set_property params %+v", p)
	}
	if p := calls[0].Params; p["parent_path"] != "." || p["recursive"] != true {
		t.Errorf("find params %+v", p)
	}
	// A named scene is searched in its file even with an editor attached
	// (a search only reads; opening a tab would change what the user sees).
	plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Sprite2D", "scene": "res://main.tscn"})
	if len(ed.Calls()) != 3 {
		t.Error("a named scene went to the editor")
	}
	_ = sdk.CodeNotFound
}

// batchDryRuns are calls of every mutating batch tool with arguments that
// pass validation in both modes on project().
var batchDryRuns = []struct {
	tool string
	args map[string]any
}{
	{"set_property", map[string]any{"scene": "res://main.tscn", "node_paths": []string{"Player"}, "property": "visible", "value": false}},
	{"set_property", map[string]any{"type": "Sprite2D", "property": "flip_h", "value": true}},
	{"cross_scene_set_property", map[string]any{"scenes": []string{"res://main.tscn", "ui/hud.tscn"}, "type": "Sprite2D", "property": "flip_h", "value": true}},
}

func batchEditor() *sdktest.Editor {
	return sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": "res://main.tscn"}).
		On("cmd_batch_set_property", func(p map[string]any) (any, *sdk.Error) {
			return map[string]any{"property": p["property"], "applied": []any{"Player"}, "skipped": []any{}, "count": 1,
				"dry_run": p["dry_run"] == true, "undoable": true}, nil
		})
}

// With an editor attached, a dry run of every mutating tool reaches the
// editor only with what cannot change it: cmd_batch_set_property with its
// dry_run flag, set by the SDK, and the tab switch for a named scene.
func TestEditorDryRunSendsNoEdit(t *testing.T) {
	ctx := context.Background()
	dir := project(t)
	before := read(t, dir, "main.tscn")
	ed := batchEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	for _, c := range batchDryRuns {
		res := h.Call(ctx, c.tool, c.args, sdktest.DryRun())
		if res.IsError {
			t.Fatalf("%s dry run: %s", c.tool, res.Text())
		}
	}
	for _, call := range ed.Calls() {
		switch call.Command {
		case "cmd_open_scene", "cmd_get_active_scene":
		case "cmd_batch_set_property":
			if call.Params["dry_run"] != true {
				t.Errorf("cmd_batch_set_property sent without dry_run: %v", call.Params)
			}
		default:
			t.Errorf("a dry run sent %s %v", call.Command, call.Params)
		}
	}
	if n := len(ed.Calls("cmd_batch_set_property")); n != 2 {
		t.Errorf("cmd_batch_set_property sent %d times, want 2 (its own preview)", n)
	}
	if read(t, dir, "main.tscn") != before {
		t.Error("an editor dry run wrote main.tscn")
	}
}

// With an editor attached and a scene named, set_property edits that scene
// in the editor (opened first), not its file behind the editor's back.
func TestEditorSetPropertyOpensTheScene(t *testing.T) {
	dir := project(t)
	before := read(t, dir, "main.tscn")
	ed := batchEditor()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	defer h.Close()
	plugintest.CallAs[setResult](t, h, "set_property", batchDryRuns[0].args)
	calls := ed.Calls()
	if len(calls) != 2 || calls[0].Command != "cmd_open_scene" || calls[0].Params["scene_path"] != "res://main.tscn" ||
		calls[1].Command != "cmd_batch_set_property" || calls[1].Params["dry_run"] != nil {
		t.Fatalf("sent %+v", calls)
	}
	if read(t, dir, "main.tscn") != before {
		t.Error("set_property with a scene edited the file behind the editor's back")
	}
}

// A dry run answers in the same shape in both modes.
func TestDryRunShapeSameInBothModes(t *testing.T) {
	ctx := context.Background()
	headlessDir := project(t)
	headless := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: headlessDir})
	defer headless.Close()
	if _, err := headless.Workspace().SetActiveScene(ctx, "res://main.tscn"); err != nil {
		t.Fatal(err)
	}
	editor := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: project(t), Editor: batchEditor().Serve})
	defer editor.Close()
	for _, c := range batchDryRuns {
		for mode, h := range map[sdk.Mode]*sdktest.Host{sdk.ModeHeadless: headless, sdk.ModeEditor: editor} {
			plugintest.DryRunIn(t, h, mode, c.tool, c.args)
		}
	}
}

// A scene over the analysis size limit is not read by all_scenes or
// get_dependencies, and both say so.
func TestOversizedSceneIsReportedSkipped(t *testing.T) {
	dir := project(t)
	var b strings.Builder
	b.WriteString("[gd_scene format=3]\n\n[node name=\"Big\" type=\"Sprite2D\"]\n")
	for b.Len() <= deps.DefaultMaxFileSize {
		b.WriteString("[node name=\"N\" type=\"Sprite2D\" parent=\".\"]\nmetadata/pad = \"" + strings.Repeat("x", 4000) + "\"\n\n")
	}
	plugintest.WriteFile(t, dir, "big.tscn", b.String())
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	const msg = "skipped: res://big.tscn is 16.0 MB, over the 16 MB limit for analysis"
	all := plugintest.CallAs[findResult](t, h, "find_nodes_by_type", map[string]any{"type": "Sprite2D", "all_scenes": true})
	if all.Count != 3 || len(all.Skipped) != 1 || !strings.HasPrefix(all.Skipped[0].Message, msg) {
		t.Errorf("all scenes: count %d, skipped %+v", all.Count, all.Skipped)
	}
	d := plugintest.CallAs[depsResult](t, h, "get_dependencies", map[string]any{"path": "res://big.tscn"})
	if len(d.Skipped) != 1 || d.Skipped[0].Code != deps.CodeTooLarge {
		t.Errorf("dependencies of big.tscn: %+v", d)
	}
}

// The text of an answer costs about its own size to build: one line per
// changed node used to be appended to a string, which copied everything
// before it, so 100,000 nodes allocated 330 GB per call.
func TestAnswerTextIsLinear(t *testing.T) {
	const n = 5000
	set := setResult{Property: "position", Count: n}
	cross := crossResult{TotalModified: n, Scenes: 1}
	dr := depsResult{Path: "res://a.tscn", Count: n}
	for i := range n {
		c := change{Scene: "res://huge.tscn", Node: fmt.Sprint("W", i), Line: 3 * i, Old: "Vector2(0, 0)", New: "Vector2(1, 1)"}
		set.Changes = append(set.Changes, c)
		cross.Changes = append(cross.Changes, c)
		dr.Dependencies = append(dr.Dependencies, dependency{Line: i, Via: "ext_resource", Raw: "res://x.png", Resolved: true})
	}
	for name, r := range map[string]fmt.Stringer{"set_property": set, "cross_scene_set_property": cross, "get_dependencies": dr} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		text := r.String()
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 20*uint64(len(text)) {
			t.Errorf("%s: %d bytes allocated for a %d-byte text of %d lines", name, got, len(text), n)
		}
	}
}

// An edit of many nodes answers their count and the first maxListed of
// them, with a hint: the answer is bounded whatever the scene's size.
func TestSetPropertyAnswerIsBounded(t *testing.T) {
	const n = 1000
	var sb strings.Builder
	sb.WriteString("[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	for i := range n {
		fmt.Fprintf(&sb, "\n[node name=\"W%d\" type=\"Node2D\" parent=\".\"]\n", i)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"project.godot": "config_version=5\n", "huge.tscn": sb.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.4"})
	defer h.Close()
	res := h.Call(t.Context(), "set_property", map[string]any{"scene": "res://huge.tscn", "node_type": "Node2D", "property": "visible", "value": false})
	if res.IsError || res.Err != nil {
		t.Fatal(res.Text(), res.Err)
	}
	var out setResult
	if err := res.Structured(&out); err != nil {
		t.Fatal(err)
	}
	if out.Count != n+1 || out.Listed != maxListed || len(out.Applied) != maxListed || len(out.Changes) != maxListed || !strings.Contains(out.Hint, "first 200") {
		t.Errorf("count %d, listed %d, %d applied and %d changes listed, hint %q", out.Count, out.Listed, len(out.Applied), len(out.Changes), out.Hint)
	}
	if got := strings.Count(string(projfixture.Read(t, dir, "huge.tscn")), "visible = false"); got != n+1 {
		t.Errorf("%d nodes written, want every one of %d", got, n+1)
	}
	if len(res.Text()) > 40_000 {
		t.Errorf("answer text of %d bytes", len(res.Text()))
	}
}
