package main

import (
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// With an editor attached every tool forwards to the addon's command with
// the reference's params, and answers the addon's reply; run and stop are
// refused (the game plays in the editor).
func TestEditorMode(t *testing.T) {
	resetState(t)
	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n", "main.gd": gameScript})
	ed := sdktest.NewEditor().
		Result("cmd_set_breakpoint", map[string]any{"breakpoint_set": true, "path": "res://main.gd", "line": 8}).
		Result("cmd_remove_breakpoint", map[string]any{"breakpoint_removed": true}).
		Result("cmd_clear_breakpoints", map[string]any{"breakpoints_cleared": true}).
		Result("cmd_force_break", map[string]any{"force_break_sent": true}).
		Result("cmd_continue_execution", map[string]any{"running": true}).
		Result("cmd_step_into", map[string]any{"stepped": true}).
		Result("cmd_step_over", map[string]any{"stepped": true}).
		Result("cmd_step_out", map[string]any{"stepped": true}).
		Result("cmd_get_stack_frames", map[string]any{"frames": []any{map[string]any{"file": "res://main.gd", "line": 8, "func": "_process"}}}).
		Result("cmd_get_frame_variables", map[string]any{"frame": 1, "locals": []any{}, "members": []any{}, "globals": []any{}}).
		Result("cmd_evaluate_expression", map[string]any{"expression": "count", "value": 3})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve})

	calls := []struct {
		tool   string
		args   map[string]any
		cmd    string
		params map[string]any
	}{
		{"set_breakpoint", map[string]any{"path": "res://main.gd", "line": 8}, "cmd_set_breakpoint", map[string]any{"path": "res://main.gd", "line": float64(8)}},
		{"remove_breakpoint", map[string]any{"path": "main.gd", "line": 8}, "cmd_remove_breakpoint", map[string]any{"path": "res://main.gd", "line": float64(8)}},
		{"clear_breakpoints", map[string]any{}, "cmd_clear_breakpoints", map[string]any{}},
		{"force_break", map[string]any{}, "cmd_force_break", map[string]any{}},
		{"step_into", map[string]any{}, "cmd_step_into", map[string]any{}},
		{"step_over", map[string]any{}, "cmd_step_over", map[string]any{}},
		{"step_out", map[string]any{}, "cmd_step_out", map[string]any{}},
		{"continue_execution", map[string]any{}, "cmd_continue_execution", map[string]any{}},
		{"get_stack_frames", map[string]any{}, "cmd_get_stack_frames", map[string]any{}},
		{"get_frame_variables", map[string]any{"frame": 1}, "cmd_get_frame_variables", map[string]any{"frame": float64(1)}},
		{"evaluate_expression", map[string]any{"expression": "count"}, "cmd_evaluate_expression", map[string]any{"expression": "count", "frame": float64(0)}},
	}
	for _, c := range calls {
		out := call(t, h, c.tool, c.args)
		got := ed.Calls()
		last := got[len(got)-1]
		if last.Command != c.cmd || !reflect.DeepEqual(last.Params, c.params) {
			t.Errorf("%s sent %s %v, want %s %v", c.tool, last.Command, last.Params, c.cmd, c.params)
		}
		if len(out) == 0 {
			t.Errorf("%s answered nothing", c.tool)
		}
	}
	if n := len(ed.Calls()); n != len(calls) {
		t.Fatalf("%d commands for %d calls: %v", n, len(calls), ed.Calls())
	}
	plugintest.Refused(t, h, "run", map[string]any{}, sdk.CodePreconditionFailed, "")
	plugintest.Refused(t, h, "stop", map[string]any{}, sdk.CodePreconditionFailed, "")

	// The addon's refusal (no play session) reaches the agent as it is.
	ed.Fail("cmd_step_over", "PRECONDITION_FAILED", "play the scene in the editor first", "play_session")
	plugintest.Refused(t, h, "step_over", map[string]any{}, sdk.CodePreconditionFailed, "play the scene")
}

func TestManifest(t *testing.T) {
	m, err := Toolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != 13 {
		t.Fatalf("%d tools", len(m.Tools))
	}
}
