package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func call(t *testing.T, h *sdktest.Host, tool string, args any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	res := h.Call(context.Background(), tool, args, append(opts, sdktest.ConfirmDestructive())...)
	if res.Err != nil {
		t.Fatalf("%s: %v", tool, res.Err)
	}
	return res
}

// argsFor returns the add_event arguments that describe o, or false when
// o holds state the editor's dialog never records (a live-captured
// unicode, a pressed flag), which add_event cannot reproduce.
func argsFor(t *testing.T, action string, o godot.Object) (map[string]any, bool) {
	d, err := classDB()
	if err != nil {
		t.Fatal(err)
	}
	num := func(n string) int64 {
		switch v := prop(o, n).(type) {
		case godot.Int:
			return int64(v)
		case godot.Float:
			return int64(v)
		}
		return 0
	}
	if p := prop(o, "pressed"); p != nil && p != godot.Bool(false) {
		return nil, false
	}
	a := map[string]any{"action": action, "device": num("device")}
	for _, m := range []string{"shift", "ctrl", "alt", "meta"} {
		if prop(o, m+"_pressed") == godot.Bool(true) {
			a[m] = true
		}
	}
	switch o.Class {
	case "InputEventKey":
		if num("unicode") != 0 || num("key_label") != 0 || num("location") != 0 {
			return nil, false
		}
		code, typ := num("keycode"), "key"
		if code == 0 {
			code, typ = num("physical_keycode"), "physical_key"
		}
		name, found := d.KeyName(code)
		if !found {
			t.Fatalf("no key name for %d", code)
		}
		a["type"], a["key"] = typ, name
	case "InputEventMouseButton":
		a["type"], a["button"] = "mouse", mouseName(num("button_index"))
	case "InputEventJoypadButton":
		if prop(o, "pressure") != godot.Float(0) {
			return nil, false
		}
		a["type"], a["joy_button"] = "joypad_button", num("button_index")
	case "InputEventJoypadMotion":
		a["type"], a["axis"], a["axis_value"] = "joypad_motion", num("axis"), float64(prop(o, "axis_value").(godot.Float))
	default:
		return nil, false
	}
	return a, true
}

// The editor's own format: every action of real projects whose events the
// editor's dialog made is cleared and rebuilt through the tools, and
// project.godot comes out byte for byte as the editor wrote it.
func TestRebuiltActionsMatchTheEditor(t *testing.T) {
	projects := []string{"gui-input_mapping", "2d-platformer", "3d-squash_the_creeps", "2d-finite_state_machine", "2d-pong", "3d-waypoints", "2d-navigation_astar", "2d-kinematic_character"}
	rebuilt := map[string]int{}
	for _, name := range projects {
		dir := projfixture.Copy(t, name)
		orig := projfixture.Read(t, dir, "project.godot")
		p, err := godot.ParseProject("project.godot", orig)
		if err != nil {
			t.Fatal(err)
		}
		h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
		for _, a := range p.InputActions() {
			var all []map[string]any
			for _, ev := range a.Events {
				args, ok := argsFor(t, a.Name, ev)
				if !ok {
					all = nil
					break
				}
				all = append(all, args)
			}
			if len(all) == 0 {
				continue
			}
			plugintest.Must(t, h, "clear_action_events", map[string]any{"action": a.Name})
			for _, args := range all {
				plugintest.Must(t, h, "add_event", args)
				rebuilt[name]++
			}
		}
		got := projfixture.Read(t, dir, "project.godot")
		if !bytes.Equal(got, orig) {
			t.Errorf("%s: rebuilt project.godot differs from the editor's:\n%s", name, firstDiff(orig, got))
		}
		projfixture.Roundtrip(t, dir, "project.godot")
	}
	total := 0
	for _, n := range rebuilt {
		total += n
	}
	if total < 100 {
		t.Errorf("only %d events rebuilt (%v): the comparison covers too little", total, rebuilt)
	}
	t.Logf("events rebuilt per project: %v", rebuilt)
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n editor: " + al[i] + "\n    got: " + bl[i]
		}
	}
	return "lengths differ"
}

func itoa(n int) string { return strconv.Itoa(n) }

// A new action with one event of each kind: the lines are those the
// editor writes for the same bindings (taken from the corpus), dry run
// changes nothing, undo restores the file, and the engine loads the result.
func TestAddActionAndEvents(t *testing.T) {
	dir := projfixture.Copy(t, "loading-autoload")
	orig := projfixture.Read(t, dir, "project.godot")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	res := plugintest.Must(t, h, "add_action", map[string]any{"name": "fire"}, sdktest.DryRun())
	if !bytes.Equal(projfixture.Read(t, dir, "project.godot"), orig) {
		t.Fatal("dry run wrote the file")
	}
	if !strings.Contains(res.Text(), "+[input]") && !strings.Contains(res.Text(), "fire") {
		t.Errorf("dry run preview does not show the change: %s", res.Text())
	}
	plugintest.Must(t, h, "add_action", map[string]any{"name": "fire"})
	events := []struct {
		args map[string]any
		line string // what the editor wrote for the same binding
	}{
		{map[string]any{"type": "physical_key", "key": "Left"}, `Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":0,"physical_keycode":4194319,"key_label":0,"unicode":0,"location":0,"echo":false,"script":null)`},
		{map[string]any{"type": "key", "key": "escape"}, `Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":4194305,"physical_keycode":0,"key_label":0,"unicode":0,"location":0,"echo":false,"script":null)`},
		{map[string]any{"type": "key", "key": "Enter", "alt": true}, `Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":true,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":4194309,"physical_keycode":0,"key_label":0,"unicode":0,"location":0,"echo":false,"script":null)`},
		{map[string]any{"type": "mouse", "button": "right"}, `Object(InputEventMouseButton,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"button_mask":0,"position":Vector2(0, 0),"global_position":Vector2(0, 0),"factor":1.0,"button_index":2,"canceled":false,"pressed":false,"double_click":false,"script":null)`},
		{map[string]any{"type": "joypad_button", "joy_button": 0, "device": 0}, `Object(InputEventJoypadButton,"resource_local_to_scene":false,"resource_name":"","device":0,"button_index":0,"pressure":0.0,"pressed":false,"script":null)`},
		{map[string]any{"type": "joypad_motion", "axis": 1, "axis_value": -1, "device": 0}, `Object(InputEventJoypadMotion,"resource_local_to_scene":false,"resource_name":"","device":0,"axis":1,"axis_value":-1.0,"script":null)`},
	}
	corpus := corpusText(t)
	for _, e := range events {
		if !strings.Contains(corpus, e.line) {
			t.Fatalf("the corpus has no editor line %s", e.line)
		}
		e.args["action"] = "fire"
		plugintest.Must(t, h, "add_event", e.args)
		if got := string(projfixture.Read(t, dir, "project.godot")); !strings.Contains(got, e.line) {
			t.Errorf("after add_event(%v) project.godot lacks the editor's line %s", e.args, e.line)
		}
	}
	// The addon's own spellings bind the same events.
	plugintest.Must(t, h, "add_action", map[string]any{"name": "ref"})
	for _, args := range []map[string]any{
		{"action": "ref", "event_type": "key", "physical_keycode": "Left"},
		{"action": "ref", "event_type": "joypad_button", "joy_button_index": 0, "device": 0},
	} {
		plugintest.Must(t, h, "add_event", args)
	}
	if rp, err := godot.ParseProject("project.godot", projfixture.Read(t, dir, "project.godot")); err != nil {
		t.Fatal(err)
	} else if ref, ok := rp.InputAction("ref"); !ok || len(ref.Events) != 2 {
		t.Errorf("reference spellings: %+v", ref)
	}
	plugintest.Refused(t, h, "add_event", map[string]any{"action": "ref", "key": "A"}, sdk.CodeInvalidArgument, "event_type")
	plugintest.Must(t, h, "remove_action", map[string]any{"name": "ref"}, sdktest.Confirm())

	got := projfixture.Read(t, dir, "project.godot")
	p, err := godot.ParseProject("project.godot", got)
	if err != nil {
		t.Fatal(err)
	}
	a, found := p.InputAction("fire")
	if !found || len(a.Events) != len(events) || a.Deadzone != godot.DefaultDeadzone {
		t.Fatalf("action read back: %+v", a)
	}
	// Only the [input] section was added.
	if !bytes.HasPrefix(got, orig[:bytes.Index(orig, []byte("[rendering]"))]) || !bytes.HasSuffix(got, orig[bytes.Index(orig, []byte("[rendering]")):]) {
		t.Errorf("the file changed outside [input]:\n%s", got)
	}
	projfixture.Roundtrip(t, dir, "project.godot")

	// get_action_events describes them.
	var info actionInfo
	if err := plugintest.Must(t, h, "get_action_events", map[string]any{"action": "fire"}).Structured(&info); err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, e := range info.Events {
		desc = append(desc, e.Description)
	}
	want := "Left (physical)|Escape|Alt+Enter|mouse right|joypad button 0|joypad axis 1 -1"
	if strings.Join(desc, "|") != want {
		t.Errorf("descriptions %q, want %q", strings.Join(desc, "|"), want)
	}

	// Refusals.
	for _, tc := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"add_event", map[string]any{"action": "fire", "type": "key", "key": "Spcae"}, sdk.CodeInvalidArgument, `did you mean "Space"`},
		{"add_event", map[string]any{"action": "fire", "type": "key", "key": "Escape"}, sdk.CodeInvalidArgument, "already has this event"},
		{"add_event", map[string]any{"action": "nope", "type": "key", "key": "A"}, sdk.CodeNotFound, "fire"},
		{"add_event", map[string]any{"action": "fire", "type": "mouse", "button": "left", "key": "A"}, sdk.CodeInvalidArgument, "does not apply"},
		{"add_event", map[string]any{"action": "fire", "type": "joypad_motion", "axis": 0, "axis_value": 0.5}, sdk.CodeInvalidArgument, "not a direction"},
		{"add_action", map[string]any{"name": "fire"}, sdk.CodeInvalidArgument, "already exists"},
		{"add_action", map[string]any{"name": "bad name"}, sdk.CodeInvalidArgument, "contains"},
		{"remove_action", map[string]any{"name": "nope"}, sdk.CodeNotFound, "no input action"},
	} {
		before := projfixture.Read(t, dir, "project.godot")
		res := call(t, h, tc.tool, tc.args)
		if res.ErrorCode != tc.code || !strings.Contains(res.Text(), tc.text) || !strings.Contains(res.Text(), "Hint:") {
			t.Errorf("%s(%v): %s %s, want %s containing %q", tc.tool, tc.args, res.ErrorCode, res.Text(), tc.code, tc.text)
		}
		if !bytes.Equal(before, projfixture.Read(t, dir, "project.godot")) {
			t.Errorf("%s(%v) failed but changed the file", tc.tool, tc.args)
		}
	}

	// The engine loads the actions.
	enginecheck.Files(t, map[string][]byte{"project.godot": got, "global.gd": []byte("extends Node\n")})

	// clear then remove; undo brings everything back.
	plugintest.Must(t, h, "clear_action_events", map[string]any{"action": "fire"})
	if a, _ := mustProject(t, dir).InputAction("fire"); len(a.Events) != 0 {
		t.Errorf("clear left %d events", len(a.Events))
	}
	plugintest.Must(t, h, "remove_action", map[string]any{"name": "fire"})
	if _, found := mustProject(t, dir).InputAction("fire"); found {
		t.Error("remove_action left the action")
	}
	ctx := context.Background()
	if _, err := h.Workspace().Undo(ctx, 2, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(projfixture.Read(t, dir, "project.godot"), got) {
		t.Error("undo did not restore the actions")
	}
	if _, err := h.Workspace().Undo(ctx, 1+len(events)+4, false); err != nil { // +4: the reference-spelling actions
		t.Fatal(err)
	}
	if !bytes.Equal(projfixture.Read(t, dir, "project.godot"), orig) {
		t.Error("undoing everything did not restore the original file")
	}
}

func mustProject(t *testing.T, dir string) *godot.Project {
	t.Helper()
	p, err := godot.ParseProject("project.godot", projfixture.Read(t, dir, "project.godot"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func corpusText(t *testing.T) string {
	var all []byte
	matches, _ := filepath.Glob(filepath.Join(projfixture.Dir(t), "*", "project.godot"))
	for _, m := range matches {
		b, _ := os.ReadFile(m)
		all = append(all, b...)
	}
	return string(all)
}

// Editor mode: every tool sends the addon's command with its params.
func TestEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_add_input_action", map[string]any{"name": "jump", "added": true, "deadzone": 0.2}).
		Result("cmd_remove_input_action", map[string]any{"name": "jump", "removed": true}).
		Result("cmd_add_input_event", map[string]any{"action": "jump", "event_index": 0, "added": true}).
		Result("cmd_clear_input_action_events", map[string]any{"action": "jump", "cleared": true}).
		Result("cmd_get_input_action_events", map[string]any{"action": "jump", "deadzone": 0.2, "events": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	plugintest.Must(t, h, "add_action", map[string]any{"name": "jump"})
	plugintest.Must(t, h, "add_event", map[string]any{"action": "jump", "type": "physical_key", "key": "Space", "shift": true})
	plugintest.Must(t, h, "add_event", map[string]any{"action": "jump", "type": "mouse", "button": "Left"})
	plugintest.Must(t, h, "add_event", map[string]any{"action": "jump", "type": "joypad_motion", "axis": 1, "axis_value": -1})
	plugintest.Must(t, h, "clear_action_events", map[string]any{"action": "jump"})
	plugintest.Must(t, h, "remove_action", map[string]any{"name": "jump"})
	res := call(t, h, "add_event", map[string]any{"action": "jump", "type": "key", "key": "Nope"})
	if res.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("a bad key reached the editor: %s", res.Text())
	}
	// The addon refuses mouse buttons past wheel_down ("Unknown mouse
	// button"); the tool says so before sending, with what works.
	res = call(t, h, "add_event", map[string]any{"action": "jump", "type": "mouse", "button": "xbutton1"})
	if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "Input Map") || !strings.Contains(res.Text(), "without an editor") {
		t.Errorf("xbutton1 in editor mode: %s, want PRECONDITION_FAILED saying where it can be bound", res.Text())
	}

	base := map[string]any{"action": "jump", "keycode": "", "physical_keycode": "", "shift": false, "ctrl": false, "alt": false, "meta": false,
		"button": "", "device": 0.0, "joy_button_index": -1.0, "axis": -1.0, "axis_value": 1.0}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	want := []sdktest.EditorCall{
		{Command: "cmd_add_input_action", Params: map[string]any{"name": "jump", "deadzone": 0.2}},
		{Command: "cmd_add_input_event", Params: with("event_type", "key", "physical_keycode", "Space", "shift", true, "device", -1.0)},
		{Command: "cmd_add_input_event", Params: with("event_type", "mouse", "button", "left", "device", -1.0)},
		{Command: "cmd_add_input_event", Params: with("event_type", "joypad_motion", "axis", 1.0, "axis_value", -1.0, "device", -1.0)},
		{Command: "cmd_clear_input_action_events", Params: map[string]any{"action": "jump", "confirm": true}},
		{Command: "cmd_remove_input_action", Params: map[string]any{"name": "jump", "confirm": true}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !plugintest.SameParams(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
}

// Editor mode: a dry run records the command it would send, sends none,
// and previews nothing from the files (the editor may hold unsaved input
// settings).
func TestEditorDryRunsSendNothing(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_get_input_action_events", map[string]any{"action": "jump", "deadzone": 0.2, "events": []any{}})
	h := sdktest.New(t, Toolset(), sdktest.Options{Editor: ed.Serve})
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"add_action":          map[string]any{"name": "jump"},
		"remove_action":       map[string]any{"name": "jump"},
		"add_event":           map[string]any{"action": "jump", "type": "key", "key": "Space"},
		"clear_action_events": map[string]any{"action": "jump"},
	})
	res := plugintest.Must(t, h, "add_action", map[string]any{"name": "jump"}, sdktest.DryRun())
	var out struct {
		Preview struct {
			Commands []struct {
				Command string         `json:"command"`
				Params  map[string]any `json:"params"`
			} `json:"commands"`
		} `json:"preview"`
	}
	if err := res.Structured(&out); err != nil || len(out.Preview.Commands) != 1 ||
		out.Preview.Commands[0].Command != "cmd_add_input_action" || out.Preview.Commands[0].Params["name"] != "jump" {
		t.Fatalf("preview %+v (%v): %s", out, err, res.Text())
	}
	if calls := ed.Calls(); len(calls) != 0 {
		t.Fatalf("dry runs reached the editor: %+v", calls)
	}
}

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

// get_action_events answers the same in both modes: with an editor
// attached it reads project.godot too (the addon saves the settings after
// each input-map command) and sends nothing, where it used to pass on the
// addon's reply, which has another shape.
func TestGetActionEventsSameInBothModes(t *testing.T) {
	dir := projfixture.Copy(t, "loading-autoload")
	headless := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Must(t, headless, "add_action", map[string]any{"name": "fire"})
	plugintest.Must(t, headless, "add_event", map[string]any{"action": "fire", "type": "key", "key": "Space", "shift": true})

	ed := sdktest.NewEditor()
	attached := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	for _, args := range []map[string]any{{"action": "fire"}, {}} {
		want := plugintest.Must(t, headless, "get_action_events", args).Text()
		got := plugintest.Must(t, attached, "get_action_events", args).Text()
		if got != want || !strings.Contains(got, "Space") {
			t.Errorf("get_action_events %v:\neditor   %s\nheadless %s", args, got, want)
		}
	}
	if calls := ed.Calls(); len(calls) != 0 {
		t.Errorf("get_action_events sent %v to the editor", calls)
	}
}

// Listing every action pages with offset and limit.
func TestGetActionEventsPages(t *testing.T) {
	dir := projfixture.Copy(t, "loading-autoload")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, n := range []string{"a_one", "a_two", "a_three"} {
		plugintest.Must(t, h, "add_action", map[string]any{"name": n})
	}
	type page struct {
		Actions []struct {
			Action string `json:"action"`
		} `json:"actions"`
		Total      int  `json:"total"`
		Truncated  bool `json:"truncated"`
		NextOffset int  `json:"next_offset"`
	}
	all := plugintest.CallAs[page](t, h, "get_action_events", map[string]any{})
	if all.Total < 3 || len(all.Actions) != all.Total || all.Truncated {
		t.Fatalf("every action: %+v", all)
	}
	var names []string
	for offset := 0; ; {
		p := plugintest.CallAs[page](t, h, "get_action_events", map[string]any{"limit": 2, "offset": offset})
		for _, a := range p.Actions {
			names = append(names, a.Action)
		}
		if !p.Truncated {
			break
		}
		offset = p.NextOffset
	}
	if len(names) != all.Total {
		t.Fatalf("pages of two hold %v, want %d actions", names, all.Total)
	}
	for i, a := range all.Actions {
		if names[i] != a.Action {
			t.Fatalf("page order %v differs from %+v", names, all.Actions)
		}
	}
}
