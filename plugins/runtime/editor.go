package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The editor-only tools forward to the godot-mcp addon's runtime commands
// (cmd_play_scene, cmd_get_game_output, …) through the host's Editor
// service. Their params and results are the addon's, passed through.

// RequiredBridge is the Required token of BRIDGE_DISCONNECTED errors.
const RequiredBridge = "bridge_connected"

// pollInterval is how often a ready:false command is asked again. The addon
// answers once per editor frame; a tenth of a second is a few frames.
var pollInterval = 100 * time.Millisecond

// editor is the part of *sdk.Editor the forwarding needs (through
// godotrun.EditorCommands); tests pass a fake.
type editor = godotrun.Editor

// noEditor is the refusal of an editor-only tool without an editor.
func noEditor(why string) *sdk.Error {
	return &sdk.Error{
		Code:     sdk.CodeBridgeDisconnected,
		Message:  "this tool drives a game playing in the Godot editor, and no editor is attached (" + why + ")",
		Hint:     "open the project in the Godot editor with the godot-mcp addon enabled; to run the game without an editor use godot_runtime_run_and_capture",
		Required: RequiredBridge,
	}
}

// gameTool builds a tool with both paths: headless drives the game
// session of game.go (the web runtime), the editor path the addon's
// command. The editor path answers BRIDGE_DISCONNECTED when the editor
// went away mid-call, as before.
func gameTool[In any](name, description string, class sdk.SafetyClass,
	headless func(context.Context, *sdk.Call, In) (sdk.Result, error),
	fn func(ctx context.Context, call *sdk.Call, ed editor, in In) (sdk.Result, error)) sdk.Tool {
	return sdk.NewTool(name, description, class, headless,
		sdk.EditorFunc(func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
			return fn(ctx, call, godotrun.EditorCommands{Ed: ed}, in)
		}))
}

// forward runs command once. An editor that went away becomes
// BRIDGE_DISCONNECTED with required=bridge_connected and a hint naming the
// headless tools.
func forward(ctx context.Context, ed editor, command string, params any) (map[string]any, error) {
	var out map[string]any
	if err := ed.Editor(ctx, command, params, &out); err != nil {
		var e *sdk.Error
		if errors.As(err, &e) && e.Code == sdk.CodeBridgeDisconnected {
			return nil, noEditor(e.Message)
		}
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// poll runs command until its result is not {ready:false} or wait passes.
// On timeout the error repeats the addon's last reason, so the caller
// learns what it was waiting for.
func poll(ctx context.Context, ed editor, command string, params map[string]any, wait time.Duration) (map[string]any, error) {
	deadline := time.Now().Add(wait)
	var reason string
	for polls := 1; ; polls++ {
		out, err := forward(ctx, ed, command, params)
		if err != nil {
			return nil, err
		}
		if ready, ok := out["ready"].(bool); !ok || ready {
			return out, nil
		}
		if r, ok := out["reason"].(string); ok && r != "" {
			reason = r
		}
		if connected, ok := out["connected"].(bool); ok && !connected {
			e := sdk.Errorf(sdk.CodePreconditionFailed,
				"add the godot_mcp runtime probe (addons/godot_mcp/mcp_runtime_probe.gd) as an autoload of the game, then play the scene again",
				"the game playing in the editor has no runtime probe connected")
			e.Required = "runtime_probe"
			return nil, e
		}
		if time.Now().Add(pollInterval).After(deadline) {
			if reason == "" {
				reason = "not ready"
			}
			return nil, sdk.Errorf(sdk.CodeTimeout,
				"make sure the game is running and drawing in the editor, then retry with a longer timeout_seconds",
				"%s was still not ready after %d polls in %s; last reason: %s", command, polls, wait, reason)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

func requestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func waitFor(seconds int) time.Duration {
	return time.Duration(cmp(seconds, defaultEditorWait)) * time.Second
}

type noArgs struct{}

type outputArgs struct {
	SinceSeq       int `json:"since_seq,omitempty" jsonschema:"only entries after this sequence number (pass the previous answer's next_seq)"`
	TimeoutSeconds int `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
}

type waitArgs struct {
	TimeoutSeconds int `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
}

type monitorArgs struct {
	NodePath     string   `json:"node_path" jsonschema:"path of the node in the running game, relative to the scene root"`
	Property     string   `json:"property" jsonschema:"property to sample, such as position"`
	Samples      int      `json:"samples,omitempty" default:"30" minimum:"1" maximum:"300" jsonschema:"how many samples to keep (default 30, at most 300)"`
	OnChangeOnly *bool    `json:"on_change_only,omitempty" jsonschema:"record only changes (default true)"`
	Epsilon      *float64 `json:"epsilon,omitempty" jsonschema:"smallest change of a float that counts (default 0.0001)"`
}

type readArgs struct {
	NodePath       string `json:"node_path" jsonschema:"path of the node in the running game, relative to the scene root (or absolute, /root/...)"`
	Property       string `json:"property" jsonschema:"property to read, such as position"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
}

type shotArgs struct {
	Width          int `json:"width,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the screenshot to this width in pixels (keeps the aspect ratio when height is not given)"`
	Height         int `json:"height,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the screenshot to this height in pixels (keeps the aspect ratio when width is not given)"`
	TimeoutSeconds int `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
	TimeoutMs      int `json:"timeout_ms,omitempty" minimum:"1" maximum:"60000" jsonschema:"the same deadline in milliseconds (the spelling other Godot MCP servers use), rounded up to whole seconds"`
}

type findUIArgs struct {
	NameContains   string `json:"name_contains,omitempty" jsonschema:"substring of the Control's name"`
	ClassFilter    string `json:"class_filter,omitempty" jsonschema:"only Controls of this class, such as Button"`
	VisibleOnly    bool   `json:"visible_only,omitempty" jsonschema:"only visible Controls"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
	TimeoutMs      int    `json:"timeout_ms,omitempty" minimum:"1" maximum:"60000" jsonschema:"the same deadline in milliseconds (the spelling other Godot MCP servers use), rounded up to whole seconds"`
}

// seconds is the wait a caller asked for, in either unit; 0 is the default.
func seconds(secs, ms int) int {
	if ms > 0 && secs == 0 {
		return (ms + 999) / 1000
	}
	return secs
}

func (in shotArgs) seconds() int   { return seconds(in.TimeoutSeconds, in.TimeoutMs) }
func (in findUIArgs) seconds() int { return seconds(in.TimeoutSeconds, in.TimeoutMs) }

// passthrough is a tool that forwards its arguments as the command's params
// and returns the addon's result as it is.
func passthrough[In any](command string, params func(In) map[string]any) func(ctx context.Context, call *sdk.Call, ed editor, in In) (sdk.Result, error) {
	return func(ctx context.Context, _ *sdk.Call, ed editor, in In) (sdk.Result, error) {
		out, err := forward(ctx, ed, command, params(in))
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.JSON(out), nil
	}
}

// Descriptions say what each tool does in both modes: with the editor
// attached it drives the editor's game, without one a game session in the
// embedded web runtime (Godot 4 projects).
const headlessNote = " Without an editor, the game runs headless in the embedded Godot 4.6 web runtime (see godot_runtime_play_scene)."

func editorTools() []sdk.Tool {
	none := func(noArgs) map[string]any { return map[string]any{} }
	return []sdk.Tool{
		gameTool("play_scene", "Play the main scene, or the given scene, and return while it runs: in the attached Godot editor, "+
			"or without one in the embedded Godot 4.6 web runtime (headless Chromium, Compatibility renderer; the result's engine says what it cannot do). "+
			"One game per project: playing again stops the running one.",
			sdk.Runtime, playHeadless, func(ctx context.Context, call *sdk.Call, ed editor, in headlessPlayArgs) (sdk.Result, error) {
				return passthrough("cmd_play_scene", func(in headlessPlayArgs) map[string]any {
					return map[string]any{"scene_path": in.Scene}
				})(ctx, call, ed, in)
			}),
		gameTool("stop_scene", "Stop the running game (the editor's, or the headless session and every process it started).",
			sdk.Runtime, stopHeadless, passthrough("cmd_stop_scene", none)),
		gameTool("is_playing", "Whether a game is playing, which scene, and whether it is paused."+headlessNote,
			sdk.ReadOnly, isPlayingHeadless, passthrough("cmd_is_playing", none)),
		gameTool("get_game_scene_tree", "The node tree of the running game (in the editor: needs the addon's runtime probe autoload in the game)."+headlessNote,
			sdk.ReadOnly, sceneTreeHeadless, passthrough("cmd_get_game_scene_tree", none)),
		gameTool("get_game_output", "What the running game printed, from since_seq on; pass next_seq back to read only what is new. "+
			"Errors and warnings are entries of their own, with file and line (res://) when Godot named them. Headless, the output of a game that ended stays readable until the next play_scene."+headlessNote,
			sdk.ReadOnly, outputHeadless, getGameOutput),
		gameTool("capture_game_screenshot", "A PNG screenshot of the running game, as an image and a file, scaled to width and/or height when given."+headlessNote,
			sdk.ReadOnly, screenshotHeadless, captureGameScreenshot),
		gameTool("read_property", "Read one property of a node in the running game, now (a one-shot read; it does not disturb a monitor)."+headlessNote,
			sdk.ReadOnly, readPropertyHeadless, func(ctx context.Context, _ *sdk.Call, ed editor, in readArgs) (sdk.Result, error) {
				out, err := poll(ctx, ed, "cmd_read_property", map[string]any{
					"node_path": in.NodePath, "property": in.Property, "request_id": requestID(),
				}, waitFor(in.TimeoutSeconds))
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(out), nil
			}),
		gameTool("monitor_property", "Start sampling a property of a node in the running game, once per frame; read the samples with get_property_samples."+headlessNote,
			sdk.Runtime, monitorHeadless, passthrough("cmd_monitor_property", monitorParams)),
		gameTool("get_property_samples", "The samples monitor_property has collected, waiting until the batch is complete."+headlessNote,
			sdk.ReadOnly, samplesHeadless, func(ctx context.Context, _ *sdk.Call, ed editor, in waitArgs) (sdk.Result, error) {
				out, err := poll(ctx, ed, "cmd_get_property_samples", map[string]any{}, waitFor(in.TimeoutSeconds))
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(out), nil
			}),
		gameTool("find_ui_elements", "The Controls of the running game, filtered by name, class and visibility, with their text and screen rectangles."+headlessNote,
			sdk.ReadOnly, findUIHeadless, func(ctx context.Context, _ *sdk.Call, ed editor, in findUIArgs) (sdk.Result, error) {
				out, err := poll(ctx, ed, "cmd_find_ui_elements", map[string]any{
					"request_id": requestID(), "name_contains": in.NameContains,
					"class_filter": in.ClassFilter, "visible_only": in.VisibleOnly,
				}, waitFor(in.seconds()))
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(out), nil
			}),
	}
}

// monitorParams are cmd_monitor_property's params, and the probe's.
func monitorParams(in monitorArgs) map[string]any {
	p := map[string]any{"node_path": in.NodePath, "property": in.Property}
	if in.Samples != 0 {
		p["samples"] = in.Samples
	}
	if in.OnChangeOnly != nil {
		p["on_change_only"] = *in.OnChangeOnly
	}
	if in.Epsilon != nil {
		p["epsilon"] = *in.Epsilon
	}
	return p
}

func getGameOutput(ctx context.Context, _ *sdk.Call, ed editor, in outputArgs) (sdk.Result, error) {
	out, err := poll(ctx, ed, "cmd_get_game_output", map[string]any{"since_seq": in.SinceSeq}, waitFor(in.TimeoutSeconds))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

// captureGameScreenshot polls with one request_id for the whole call (the
// addon dispatches the capture once per id) and returns the PNG as an MCP
// image plus its size as text.
func captureGameScreenshot(ctx context.Context, call *sdk.Call, ed editor, in shotArgs) (sdk.Result, error) {
	out, err := poll(ctx, ed, "cmd_capture_game_screenshot", map[string]any{"request_id": requestID()}, waitFor(in.seconds()))
	if err != nil {
		return sdk.Result{}, err
	}
	return screenshotResult(out, in.Width, in.Height)
}
