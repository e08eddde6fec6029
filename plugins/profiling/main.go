// Command profiling is the first-party "profiling" toolset: the running
// game's Performance monitors (FPS, frame and physics time, memory,
// object and node counts, draw calls, …) sampled over a window of frames,
// under the engine's own monitor names (time/fps, object/node_count, …),
// and the editor's own monitors with an editor attached.
//
// With an editor attached get_performance_monitors forwards to the
// godot-mcp addon's cmd_get_performance_monitors; without one it samples
// the headless game of godot_runtime_play_scene through
// internal/gamesession. See docs/toolsets/profiling.md.
//
// Install it as godot-mcp-toolset-profiling in the plugins directory.
package main

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

type monitorsArgs struct {
	Frames    int      `json:"frames,omitempty" default:"60" minimum:"1" maximum:"3600" jsonschema:"sample every frame for this many frames and report min, max, avg and last of each monitor (default 60; without an editor)"`
	Monitors  []string `json:"monitors,omitempty" jsonschema:"only these monitors, by the engine's names (time/fps, time/process, time/physics_process, memory/static, object/count, object/node_count, render/total_draw_calls_in_frame, …; custom monitors by their own names); default: all"`
	TimeoutMS int      `json:"timeout_ms,omitempty" minimum:"1" maximum:"120000" jsonschema:"how long to wait for the samples (default: the window plus 10 s)"`
}

type noArgs struct{}

// Toolset returns the profiling toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "profiling",
		Version: "0.1.0",
		Description: "Measure the running game: the engine's Performance monitors (FPS, frame and physics time, memory, objects, nodes, draw calls) " +
			"sampled over a window of frames; and the editor's own monitors.",
		Godot: ">= 4.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("get_performance_monitors",
				"Sample the running game's Performance monitors every frame for a window (frames, default 60) and return, under the engine's own names "+
					"(time/fps, time/process and time/physics_process in seconds, memory/static in bytes, object/count, object/node_count, "+
					"render/total_draw_calls_in_frame, …), the last value of each in monitors and min/max/avg/last in stats. "+
					"Without an editor it samples the headless game of godot_runtime_play_scene; with one, the addon's snapshot of the editor's game. "+
					"To measure an effect: sample, act (godot_input_*), sample again.",
				sdk.ReadOnly, monitorsHeadless,
				sdk.EditorFunc(monitorsEditor),
				sdk.WithTitle("Game performance monitors")),
			sdk.NewEditorTool("get_editor_performance",
				"The Godot editor's own Performance monitors (fps, process time, memory, objects, draw calls, …) as a name → value map, "+
					"to tell a slow editor from a slow game (for the game use godot_profiling_get_performance_monitors). Needs the editor.",
				sdk.ReadOnly,
				func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, _ noArgs) (sdk.Result, error) {
					var out map[string]any
					if err := ed.Query(ctx, "cmd_get_editor_performance", map[string]any{}, &out); err != nil {
						return sdk.Result{}, err
					}
					return sdk.JSON(out), nil
				},
				sdk.WithTitle("Editor performance monitors")),
		},
	}
}

func (in monitorsArgs) wait() time.Duration {
	if in.TimeoutMS > 0 {
		return time.Duration(in.TimeoutMS) * time.Millisecond
	}
	frames := in.Frames
	if frames == 0 {
		frames = 60
	}
	// A frame is 1/60 s or less in real time; a slow software renderer
	// can take ten times that.
	return 10*time.Second + time.Duration(frames)*200*time.Millisecond
}

func monitorsHeadless(ctx context.Context, call *sdk.Call, in monitorsArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	c, err := gamesession.Attach(p.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	frames := in.Frames
	if frames == 0 {
		frames = 60
	}
	params := map[string]any{"frames": frames}
	if len(in.Monitors) > 0 {
		params["monitors"] = in.Monitors
	}
	cctx, cancel := context.WithTimeout(ctx, in.wait())
	defer cancel()
	call.Progress(0, 1, "sampling the game's monitors")
	var out map[string]any
	if err := c.Call(cctx, "perf", params, &out); err != nil {
		return sdk.Result{}, err
	}
	if why, ok := out["rejected"].(string); ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass monitor names from that list, or leave monitors out for all", "%s", why)
	}
	return sdk.JSON(out), nil
}

// monitorsEditor polls cmd_get_performance_monitors until the addon has
// the probe's snapshot, as the reference does.
func monitorsEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in monitorsArgs) (sdk.Result, error) {
	wait := 5 * time.Second
	if in.TimeoutMS > 0 {
		wait = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	p, err := ed.Poll(ctx, "cmd_get_performance_monitors", map[string]any{}, wait)
	if err != nil {
		return sdk.Result{}, err
	}
	if !p.Ready {
		return sdk.Result{}, sdk.Errorf(sdk.CodeTimeout, "make sure the game runs in the editor with the runtime probe, then call again with a longer timeout_ms",
			"the editor's game sent no monitors within %s", wait)
	}
	return sdk.JSON(p.Answer), nil
}
