package main

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type keyArgs struct {
	Key     string `json:"key" jsonschema:"Godot key name: A, Space, Enter, Escape, Left, Shift, F1, …"`
	Pressed *bool  `json:"pressed,omitempty" jsonschema:"true (default) presses the key, false releases it"`
	Shift   bool   `json:"shift,omitempty" jsonschema:"hold Shift"`
	Ctrl    bool   `json:"ctrl,omitempty" jsonschema:"hold Ctrl"`
	Alt     bool   `json:"alt,omitempty" jsonschema:"hold Alt"`
	Meta    bool   `json:"meta,omitempty" jsonschema:"hold Meta (Cmd/Windows key)"`
}

func (in keyArgs) params() map[string]any {
	return map[string]any{"key": in.Key, "pressed": in.Pressed == nil || *in.Pressed,
		"shift": in.Shift, "ctrl": in.Ctrl, "alt": in.Alt, "meta": in.Meta}
}

type mouseArgs struct {
	X         float64  `json:"x,omitempty" jsonschema:"x in game (viewport) coordinates, pixels from the left"`
	Y         float64  `json:"y,omitempty" jsonschema:"y in game (viewport) coordinates, pixels from the top"`
	Button    string   `json:"button,omitempty" enum:"'',left,right,middle,wheel_up,wheel_down,wheel_left,wheel_right" jsonschema:"empty: mouse motion to x,y; else the button (wheel buttons send a press and a release, as a wheel does)"`
	Pressed   *bool    `json:"pressed,omitempty" jsonschema:"true (default) presses the button, false releases it"`
	RelativeX float64  `json:"relative_x,omitempty" jsonschema:"motion only: the relative movement reported with it"`
	RelativeY float64  `json:"relative_y,omitempty" jsonschema:"motion only: the relative movement reported with it"`
	Click     bool     `json:"click,omitempty" jsonschema:"move to x,y, press and release the button (a whole click)"`
	Double    bool     `json:"double_click,omitempty" jsonschema:"with click: a double click"`
	DragToX   *float64 `json:"drag_to_x,omitempty" jsonschema:"drag: press at x,y, move to drag_to_x,drag_to_y in drag_steps motions, release there (without an editor)"`
	DragToY   *float64 `json:"drag_to_y,omitempty" jsonschema:"drag: see drag_to_x"`
	DragSteps int      `json:"drag_steps,omitempty" minimum:"1" maximum:"100" jsonschema:"drag: how many motion events between press and release (default 8)"`
	Factor    float64  `json:"factor,omitempty" jsonschema:"wheel: how far it turned (default 1)"`
	NodePath  string   `json:"node_path,omitempty" jsonschema:"click the center of this Control of the running game (a path as godot_runtime_find_ui_elements reports it, or relative to the scene root) instead of x,y; button defaults to left (without an editor)"`
}

func (in mouseArgs) params() map[string]any {
	p := map[string]any{"x": in.X, "y": in.Y, "button": in.Button, "pressed": in.Pressed == nil || *in.Pressed,
		"relative_x": in.RelativeX, "relative_y": in.RelativeY}
	if in.NodePath != "" {
		p["node_path"] = in.NodePath
		if in.Button == "" {
			p["button"] = "left"
		}
	}
	if in.Click {
		p["click"] = true
		if in.Button == "" {
			p["button"] = "left"
		}
	}
	if in.Double {
		p["double_click"] = true
	}
	if in.DragToX != nil || in.DragToY != nil {
		x, y := in.X, in.Y
		if in.DragToX != nil {
			x = *in.DragToX
		}
		if in.DragToY != nil {
			y = *in.DragToY
		}
		p["drag_to_x"], p["drag_to_y"] = x, y
		if in.Button == "" {
			p["button"] = "left"
		}
		if in.DragSteps > 0 {
			p["drag_steps"] = in.DragSteps
		}
	}
	if in.Factor != 0 {
		p["factor"] = in.Factor
	}
	return p
}

type actionArgs struct {
	Action   string   `json:"action" jsonschema:"an action of the project's Input Map, such as jump or ui_accept"`
	Pressed  *bool    `json:"pressed,omitempty" jsonschema:"true (default) presses the action, false releases it"`
	Strength *float64 `json:"strength,omitempty" minimum:"0" maximum:"1" jsonschema:"how strongly it is pressed, 0..1 (default 1; analog actions read it with get_action_strength/get_axis)"`
}

func (in actionArgs) params() map[string]any {
	s := 1.0
	if in.Strength != nil {
		s = *in.Strength
	}
	return map[string]any{"action": in.Action, "pressed": in.Pressed == nil || *in.Pressed, "strength": s}
}

type sequenceArgs struct {
	Events  []map[string]any `json:"events" jsonschema:"the events in order: each {type: key|mouse|action, and that type's fields as for simulate_key, simulate_mouse and simulate_action}; optional frame (physics ticks of game time after the call: deterministic with pause and step_frames) or time_ms (milliseconds of wall time); stop_recording returns this format"`
	DelayMS int              `json:"delay_ms,omitempty" minimum:"0" maximum:"60000" jsonschema:"events without frame or time_ms are played delay_ms apart (0: all at the next tick)"`
}

type recordArgs struct {
	IncludeMotion bool `json:"include_motion,omitempty" jsonschema:"record mouse motion too (default: keys, mouse buttons and actions)"`
}

type stopArgs struct {
	TimeoutMS int `json:"timeout_ms,omitempty" minimum:"1" maximum:"60000" jsonschema:"how long to wait for the recording (default 5000)"`
}

type noArgs struct{}

type pauseArgs struct {
	Paused *bool `json:"paused,omitempty" jsonschema:"true (default) pauses the game tree, false resumes it"`
}

type stepArgs struct {
	Frames         int    `json:"frames,omitempty" default:"1" minimum:"1" maximum:"100000" jsonschema:"how many frames to run (default 1)"`
	Mode           string `json:"mode,omitempty" enum:"physics,process" default:"physics" jsonschema:"physics (default): physics ticks (_physics_process, fixed delta); process: rendered frames (_process)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"60" minimum:"1" maximum:"600" jsonschema:"how long to wait for the frames to run (default 60)"`
}

type timeArgs struct {
	TimeScale      *float64 `json:"time_scale,omitempty" minimum:"0" maximum:"100" jsonschema:"Engine.time_scale: 1 is normal speed, 0.5 half, 2 double"`
	PhysicsTicks   *int     `json:"physics_ticks_per_second,omitempty" minimum:"1" maximum:"1000" jsonschema:"Engine.physics_ticks_per_second (the physics delta is 1/this)"`
	MaxFPS         *int     `json:"max_fps,omitempty" minimum:"0" maximum:"1000" jsonschema:"Engine.max_fps (0: unlimited)"`
	TimeoutSeconds int      `json:"timeout_seconds,omitempty" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10)"`
}

const sessionNote = " Without an editor it acts on the headless game of godot_runtime_play_scene."

// timeOnly is why the time tools refuse the editor's game.
const timeOnly = "the godot-mcp addon has no command to pause or step the editor's game; play the game headless with godot_runtime_play_scene (no editor attached) to control its time"

func tools() []sdk.Tool {
	return []sdk.Tool{
		sdk.NewTool("simulate_key",
			"Press (or release, pressed=false) a key in the running game, by Godot key name (A, Space, Enter, Escape, Left, …) with shift/ctrl/alt/meta. "+
				"To hold a key for N frames: press it, godot_input_step_frames N, release it."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in keyArgs) (sdk.Result, error) {
				p := in.params()
				p["type"] = "key"
				return probeResult(ctx, call, "input", p)
			},
			sdk.EditorCommand("cmd_simulate_key", func(in keyArgs) (any, error) { return in.params(), nil }),
			sdk.WithTitle("Press a key")),
		sdk.NewTool("simulate_mouse",
			"Send mouse input to the running game at game (viewport) coordinates: motion (no button), a button press or release, "+
				"a whole click (click=true, double_click), a drag (drag_to_x/drag_to_y), the wheel (wheel_up/wheel_down), "+
				"or a click on a UI control by node_path (find it with godot_runtime_find_ui_elements)."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in mouseArgs) (sdk.Result, error) {
				p := in.params()
				p["type"] = "mouse"
				out, err := probeResult(ctx, call, "input", p)
				return out, err
			},
			sdk.EditorFunc(simulateMouseEditor),
			sdk.WithTitle("Use the mouse")),
		sdk.NewTool("simulate_action",
			"Press or release an action of the project's Input Map (jump, ui_accept, …) in the running game, with a strength 0..1 for analog actions."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in actionArgs) (sdk.Result, error) {
				p := in.params()
				p["type"] = "action"
				return probeResult(ctx, call, "input", p)
			},
			sdk.EditorCommand("cmd_simulate_action", func(in actionArgs) (any, error) { return in.params(), nil }),
			sdk.WithTitle("Press an input action")),
		sdk.NewTool("play_sequence",
			"Play a list of key, mouse and action events in the running game, each at its frame (physics ticks of game time: "+
				"paused time does not count, so with pause and step_frames the same sequence gives the same result every run), "+
				"its time_ms, or delay_ms apart. Returns at once; step or wait, then check with get_stats. "+
				"Play back what stop_recording returned to reach the same state."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in sequenceArgs) (sdk.Result, error) {
				return probeResult(ctx, call, "input_sequence", map[string]any{"events": in.Events, "delay_ms": in.DelayMS})
			},
			sdk.EditorFunc(playSequenceEditor),
			sdk.WithTitle("Play an input sequence")),
		sdk.NewTool("record",
			"Start recording the input the running game receives (keys, mouse buttons, actions; motion with include_motion), "+
				"each event with its frame and time; collect it with godot_input_stop_recording."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in recordArgs) (sdk.Result, error) {
				return probeResult(ctx, call, "record_input", map[string]any{"include_motion": in.IncludeMotion})
			},
			sdk.EditorCommand("cmd_record_input", func(in recordArgs) (any, error) {
				return map[string]any{"include_motion": in.IncludeMotion}, nil
			}),
			sdk.WithTitle("Record input")),
		sdk.NewTool("stop_recording",
			"Stop recording and return the events the game received, in the play_sequence format (with frame and time_ms): "+
				"pass them to godot_input_play_sequence to replay."+sessionNote,
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in stopArgs) (sdk.Result, error) {
				return probeResult(ctx, call, "stop_recording", nil)
			},
			sdk.EditorFunc(stopRecordingEditor),
			sdk.WithTitle("Stop recording input")),
		sdk.NewTool("get_stats",
			"How many injected input events the running game has taken, how many sequence events still wait, whether it records, "+
				"and (headless) its game time: ticks and frames run, paused."+sessionNote,
			sdk.ReadOnly,
			func(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
				return probeResult(ctx, call, "input_stats", nil)
			},
			sdk.EditorCommand("cmd_get_input_stats", func(noArgs) (any, error) { return map[string]any{}, nil }),
			sdk.WithTitle("Input statistics")),

		// Game time: headless only.
		sdk.NewTool("pause",
			"Pause (paused=true, default) or resume the running game's tree, as get_tree().paused does: game nodes stop, "+
				"input can still be sent, and godot_input_step_frames runs exactly N frames from there. Returns the game-time state.",
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in pauseArgs) (sdk.Result, error) {
				return timeResult(ctx, call, defaultWait, "time", map[string]any{"paused": in.Paused == nil || *in.Paused})
			},
			sdk.HeadlessOnly(timeOnly),
			sdk.WithTitle("Pause the game")),
		sdk.NewTool("step_frames",
			"Run exactly N physics ticks (mode physics, default) or process frames of the running game, then pause it again, "+
				"and return the frame counters. Started with godot_runtime_play_scene fixed_fps, every step advances game time exactly, "+
				"so the same inputs and steps give the same positions every run.",
			sdk.Runtime, stepFrames,
			sdk.HeadlessOnly(timeOnly),
			sdk.WithTitle("Step frames")),
		sdk.NewTool("set_time_scale",
			"Set the running game's time scale (Engine.time_scale), physics ticks per second and max FPS; any left out stay. "+
				"Returns the game-time state, including the fixed FPS the game was started with (godot_runtime_play_scene fixed_fps).",
			sdk.Runtime,
			func(ctx context.Context, call *sdk.Call, in timeArgs) (sdk.Result, error) {
				p := map[string]any{}
				if in.TimeScale != nil {
					p["time_scale"] = *in.TimeScale
				}
				if in.PhysicsTicks != nil {
					p["physics_ticks_per_second"] = *in.PhysicsTicks
				}
				if in.MaxFPS != nil {
					p["max_fps"] = *in.MaxFPS
				}
				wait := defaultWait
				if in.TimeoutSeconds > 0 {
					wait = time.Duration(in.TimeoutSeconds) * time.Second
				}
				return timeResult(ctx, call, wait, "time", p)
			},
			sdk.HeadlessOnly(timeOnly),
			sdk.WithTitle("Set the game's time scale")),
	}
}

func stepFrames(ctx context.Context, call *sdk.Call, in stepArgs) (sdk.Result, error) {
	mode := in.Mode
	if mode == "" {
		mode = "physics"
	}
	frames := in.Frames
	if frames == 0 {
		frames = 1
	}
	secs := in.TimeoutSeconds
	if secs == 0 {
		secs = 60
	}
	call.Progress(0, 1, "stepping the game")
	return timeResult(ctx, call, time.Duration(secs)*time.Second, "step", map[string]any{"frames": frames, "mode": mode})
}
