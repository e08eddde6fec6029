package main

import (
	"reflect"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// TestEditorMode: each tool sends the addon's command with the
// reference's params, exactly; what the addon cannot do is refused with
// the way to do it.
func TestEditorMode(t *testing.T) {
	sent := func(kind string) sdktest.EditorHandler {
		return func(map[string]any) (any, *sdk.Error) {
			return map[string]any{"sent": true, "kind": kind, "count": 1}, nil
		}
	}
	gets := 0
	ed := sdktest.NewEditor().
		On("cmd_simulate_key", sent("key")).
		On("cmd_simulate_mouse", sent("mouse")).
		On("cmd_simulate_action", sent("action")).
		On("cmd_play_input_sequence", sent("sequence")).
		Result("cmd_record_input", map[string]any{"recording": true}).
		Result("cmd_stop_recording", map[string]any{"stopped": true}).
		On("cmd_get_recording", func(map[string]any) (any, *sdk.Error) {
			gets++
			if gets == 1 {
				return map[string]any{"ready": false, "reason": "recording_pending"}, nil
			}
			return map[string]any{"ready": true, "connected": true, "events": []any{map[string]any{"type": "key", "key": "A"}}}, nil
		}).
		Result("cmd_get_input_stats", map[string]any{"playing": true, "connected": true, "injected": 7})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})

	plugintest.Call(t, h, "simulate_key", map[string]any{"key": "Space", "shift": true})
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"x": 10, "y": 20})
	plugintest.Call(t, h, "simulate_mouse", map[string]any{"x": 5, "y": 6, "click": true})
	plugintest.Call(t, h, "simulate_action", map[string]any{"action": "jump", "strength": 0.5})
	plugintest.Call(t, h, "play_sequence", map[string]any{"events": []any{map[string]any{"type": "key", "key": "A"}}, "delay_ms": 50})
	plugintest.Call(t, h, "record", map[string]any{"include_motion": true})
	rec := plugintest.Call(t, h, "stop_recording", map[string]any{})
	stats := plugintest.Call(t, h, "get_stats", map[string]any{})
	if evs, _ := rec["events"].([]any); len(evs) != 1 || stats["injected"] != float64(7) {
		t.Errorf("stop_recording %v, get_stats %v", rec, stats)
	}

	want := []sdktest.EditorCall{
		{Command: "cmd_simulate_key", Params: map[string]any{"key": "Space", "pressed": true, "shift": true, "ctrl": false, "alt": false, "meta": false}},
		{Command: "cmd_simulate_mouse", Params: map[string]any{"x": 10.0, "y": 20.0, "button": "", "pressed": true, "relative_x": 0.0, "relative_y": 0.0}},
		{Command: "cmd_simulate_mouse", Params: map[string]any{"x": 5.0, "y": 6.0, "button": "left", "pressed": true, "relative_x": 0.0, "relative_y": 0.0}},
		{Command: "cmd_simulate_mouse", Params: map[string]any{"x": 5.0, "y": 6.0, "button": "left", "pressed": false, "relative_x": 0.0, "relative_y": 0.0}},
		{Command: "cmd_simulate_action", Params: map[string]any{"action": "jump", "pressed": true, "strength": 0.5}},
		{Command: "cmd_play_input_sequence", Params: map[string]any{"events": []any{map[string]any{"type": "key", "key": "A"}}, "delay_ms": 50.0}},
		{Command: "cmd_record_input", Params: map[string]any{"include_motion": true}},
		{Command: "cmd_stop_recording", Params: map[string]any{}},
		{Command: "cmd_get_recording", Params: map[string]any{}},
		{Command: "cmd_get_recording", Params: map[string]any{}},
		{Command: "cmd_get_input_stats", Params: map[string]any{}},
	}
	if got := ed.Calls(); !reflect.DeepEqual(got, want) {
		t.Errorf("the addon got\n%v\nwant\n%v", got, want)
	}

	before := len(ed.Calls())
	plugintest.Refused(t, h, "simulate_mouse", map[string]any{"node_path": "Go"}, sdk.CodeInvalidArgument, "headless game only")
	plugintest.Refused(t, h, "play_sequence", map[string]any{"events": []any{map[string]any{"type": "key", "key": "A", "frame": 3}}}, sdk.CodeInvalidArgument, "delay_ms")
	for _, tool := range []string{"pause", "step_frames", "set_time_scale"} {
		plugintest.Refused(t, h, tool, map[string]any{}, sdk.CodePreconditionFailed, "godot_runtime_play_scene")
	}
	if n := len(ed.Calls()); n != before {
		t.Errorf("refused calls reached the addon: %v", ed.Calls()[before:])
	}
}
