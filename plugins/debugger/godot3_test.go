package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The game of the native tests. Line numbers matter: the tests stop at
// them.
const gameScript = `extends Node

var count = 0
var label = "hero"

func _process(delta):
	count += 1
	var doubled = twice(count)
	if doubled > 1000000:
		print(doubled)

func twice(n):
	var r = n * 2
	return r
`

// Lines of gameScript.
const (
	lineCount   = 7  // count += 1
	lineDoubled = 8  // var doubled = twice(count)
	lineIf      = 9  // if doubled > …
	lineR       = 13 // var r = n * 2
	lineReturn  = 14 // return r
)

func godot3Project(t *testing.T) string { return godot3ProjectTB(t) }

func godot3ProjectTB(t testing.TB) string {
	t.Helper()
	return plugintest.Project(t, map[string]string{
		"project.godot": "config_version=4\n\n[application]\n\nconfig/name=\"Debugged\"\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn":     "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://main.gd\" type=\"Script\" id=1]\n\n[node name=\"Main\" type=\"Node\"]\nscript = ExtResource( 1 )\n",
		"main.gd":       gameScript,
	})
}

func needGodot3(t *testing.T) { needGodot3b(t) }

func needGodot3b(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("godot3-server"); err != nil {
		t.Skip("godot3-server (Godot 3.2) is not installed; scripts/test.sh installs it")
	}
	t.Setenv("GODOT_MCP_GODOT_BIN", "")
}

func call(t *testing.T, h *sdktest.Host, tool string, args any) map[string]any {
	t.Helper()
	res := h.Call(context.Background(), tool, args)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", tool, res.Text())
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Text()), &out); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, res.Text())
	}
	return out
}

func location(t *testing.T, out map[string]any) string {
	t.Helper()
	loc, _ := out["location"].(string)
	return loc
}

func vars(out map[string]any, list string) map[string]any {
	m := map[string]any{}
	l, _ := out[list].([]any)
	for _, v := range l {
		vv := v.(map[string]any)
		m[vv["name"].(string)] = vv["value"]
	}
	return m
}

func TestGodot3Debugging(t *testing.T) {
	needGodot3(t)
	resetState(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: godot3Project(t), GodotVersion: "3"})

	// A breakpoint before the run applies to it.
	out := call(t, h, "set_breakpoint", map[string]any{"path": "res://main.gd", "line": lineDoubled})
	if out["applies"] != "next_run" {
		t.Fatalf("set_breakpoint before a run: %v", out)
	}
	out = call(t, h, "run", map[string]any{"timeout_seconds": 120})
	if out["paused"] != true || location(t, out) != "res://main.gd:8" {
		t.Fatalf("run did not stop at the breakpoint: %v", out)
	}
	if !strings.Contains(out["protocol"].(string), "Godot 3") {
		t.Fatalf("protocol %v", out["protocol"])
	}

	out = call(t, h, "get_stack_frames", map[string]any{})
	frames := out["frames"].([]any)
	top := frames[0].(map[string]any)
	if len(frames) != 1 || top["file"] != "res://main.gd" || top["line"] != float64(lineDoubled) || top["function"] != "_process" {
		t.Fatalf("frames %v", frames)
	}

	out = call(t, h, "get_frame_variables", map[string]any{"frame": 0})
	members, locals := vars(out, "members"), vars(out, "locals")
	if members["count"] != float64(1) || members["label"] != "hero" {
		t.Fatalf("members %v", out["members"])
	}
	if _, ok := locals["delta"].(float64); !ok {
		t.Fatalf("locals %v", out["locals"])
	}

	// Godot 3 has no evaluator: a variable name is answered, an
	// expression is refused with the reason.
	out = call(t, h, "evaluate_expression", map[string]any{"expression": "label"})
	if out["value"] != "hero" {
		t.Fatalf("evaluate label: %v", out)
	}
	plugintest.Refused(t, h, "evaluate_expression", map[string]any{"expression": "count + 1"}, sdk.CodePreconditionFailed, "no expression evaluator")

	// Step into twice(): the first line of twice.
	out = call(t, h, "step_into", map[string]any{})
	if location(t, out) != "res://main.gd:13" || out["function"] != "twice" {
		t.Fatalf("step_into: %v", out)
	}
	out = call(t, h, "get_stack_frames", map[string]any{})
	if n := len(out["frames"].([]any)); n != 2 {
		t.Fatalf("in twice the stack has %d frames: %v", n, out)
	}
	out = call(t, h, "step_over", map[string]any{})
	if location(t, out) != "res://main.gd:14" {
		t.Fatalf("step_over: %v", out)
	}
	out = call(t, h, "get_frame_variables", map[string]any{})
	if l := vars(out, "locals"); l["r"] != float64(2) || l["n"] != float64(1) {
		t.Fatalf("locals of twice: %v", out["locals"])
	}
	// Step out: back in _process.
	out = call(t, h, "step_out", map[string]any{})
	if out["function"] != "_process" || !strings.HasPrefix(location(t, out), "res://main.gd:") {
		t.Fatalf("step_out: %v", out)
	}
	if loc := location(t, out); loc != "res://main.gd:8" && loc != "res://main.gd:9" {
		t.Fatalf("step_out stopped at %s", loc)
	}

	// Continue: the next frame stops at the breakpoint again, count 2.
	out = call(t, h, "continue_execution", map[string]any{"wait_ms": 10000})
	if location(t, out) != "res://main.gd:8" {
		t.Fatalf("continue: %v", out)
	}
	out = call(t, h, "get_frame_variables", map[string]any{})
	if vars(out, "members")["count"] != float64(2) {
		t.Fatalf("after continue: %v", out["members"])
	}

	// A breakpoint set while running, then clear: the game runs free.
	call(t, h, "set_breakpoint", map[string]any{"path": "res://main.gd", "line": lineR})
	out = call(t, h, "continue_execution", map[string]any{"wait_ms": 10000})
	if location(t, out) != "res://main.gd:13" {
		t.Fatalf("a breakpoint set in the session: %v", out)
	}
	out = call(t, h, "clear_breakpoints", map[string]any{})
	if len(out["removed"].([]any)) != 2 {
		t.Fatalf("clear: %v", out)
	}
	out = call(t, h, "continue_execution", map[string]any{"wait_ms": 1500})
	if out["running"] != true {
		t.Fatalf("after clear the game stopped again: %v", out)
	}
	plugintest.Refused(t, h, "get_stack_frames", map[string]any{}, sdk.CodePreconditionFailed, "not stopped at a break")

	// force_break stops the running game.
	// Godot 3 breaks between frames, outside any script: the next step
	// lands on the first line the game runs.
	out = call(t, h, "force_break", map[string]any{})
	if out["paused"] != true {
		t.Fatalf("force_break: %v", out)
	}
	out = call(t, h, "step_into", map[string]any{})
	if location(t, out) != "res://main.gd:7" {
		t.Fatalf("step_into after force_break: %v", out)
	}
	call(t, h, "continue_execution", map[string]any{})

	out = call(t, h, "stop", map[string]any{})
	if out["stopped"] != true || out["was_running"] != true {
		t.Fatalf("stop: %v", out)
	}
	plugintest.Refused(t, h, "step_over", map[string]any{}, sdk.CodePreconditionFailed, "no game is running")
}

// resetState forgets the session and breakpoints of an earlier test.
func resetState(t *testing.T) {
	t.Helper()
	stop := func() {
		state.mu.Lock()
		s := state.sess
		state.sess = nil
		state.mu.Unlock()
		if s != nil {
			s.close()
		}
		state.bps.clear()
	}
	stop()
	t.Cleanup(stop)
}
