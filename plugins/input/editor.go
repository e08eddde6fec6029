package main

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// With an editor attached the tools forward to the addon's input commands
// with the reference's params. What the addon cannot do (a drag, a click
// on a control by path, events at a frame) is refused with the way to do
// it, never approximated.

// simulateMouseEditor sends cmd_simulate_mouse; a click is its press and
// its release, and a wheel turn a press and a release, as headless.
func simulateMouseEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in mouseArgs) (sdk.Result, error) {
	if in.NodePath != "" || in.DragToX != nil || in.DragToY != nil || in.Double {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument,
			"in the editor pass x and y (read the control's rect with godot_runtime_find_ui_elements) and use click, or play the game headless with godot_runtime_play_scene",
			"node_path, drag_to_x/drag_to_y and double_click work on the headless game only; the editor's addon takes single mouse events")
	}
	p := in.params()
	delete(p, "click")
	delete(p, "factor")
	btn, _ := p["button"].(string)
	wheel := len(btn) > 6 && btn[:6] == "wheel_"
	if !in.Click && !wheel {
		return ed.Forward(ctx, "cmd_simulate_mouse", p)
	}
	count := 0
	for _, pressed := range []bool{true, false} {
		p["pressed"] = pressed
		if err := ed.Apply(ctx, "cmd_simulate_mouse", p, nil); err != nil {
			return sdk.Result{}, err
		}
		count++
	}
	return sdk.JSON(map[string]any{"sent": true, "kind": "mouse", "count": count}), nil
}

func playSequenceEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in sequenceArgs) (sdk.Result, error) {
	for _, e := range in.Events {
		_, f := e["frame"]
		_, t := e["time_ms"]
		if f || t {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument,
				"in the editor time events with delay_ms, or play the game headless with godot_runtime_play_scene to time them in frames",
				"events with frame or time_ms play on the headless game only; the editor's addon plays events delay_ms apart")
		}
	}
	return ed.Forward(ctx, "cmd_play_input_sequence", map[string]any{"events": in.Events, "delay_ms": in.DelayMS})
}

// stopRecordingEditor stops the addon's recording and polls
// cmd_get_recording until the events are there, as the reference does.
func stopRecordingEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in stopArgs) (sdk.Result, error) {
	if err := ed.Apply(ctx, "cmd_stop_recording", map[string]any{}, nil); err != nil {
		return sdk.Result{}, err
	}
	if ed.DryRun() {
		return sdk.JSON(map[string]any{"ready": false}), nil
	}
	wait := 5 * time.Second
	if in.TimeoutMS > 0 {
		wait = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	p, err := ed.Poll(ctx, "cmd_get_recording", map[string]any{}, wait)
	if err != nil {
		return sdk.Result{}, err
	}
	if !p.Ready {
		return sdk.Result{}, sdk.Errorf(sdk.CodeTimeout, "make sure the game still runs in the editor, then call again with a longer timeout_ms",
			"the editor's recording was not ready within %s (last reason: %v)", wait, p.Answer["reason"])
	}
	return sdk.JSON(p.Answer), nil
}
