package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
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

// editorTool builds an editor-only tool. Its headless path is kept, as a
// justified exception to sdk.NewEditorTool: it answers the toolset's own
// refusal (BRIDGE_DISCONNECTED, required=bridge_connected, a hint naming
// run_and_capture), which agents already handle, where NewEditorTool would
// answer PRECONDITION_FAILED.
func editorTool[In any](name, description string, class sdk.SafetyClass, fn func(ctx context.Context, ed editor, in In) (sdk.Result, error)) sdk.Tool {
	headless := func(context.Context, *sdk.Call, In) (sdk.Result, error) {
		return sdk.Result{}, noEditor("no Godot editor is attached to the host")
	}
	return sdk.NewTool(name, description, class, headless,
		sdk.EditorFunc(func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
			return fn(ctx, godotrun.EditorCommands{Ed: ed}, in)
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

type playArgs struct {
	Scene sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the .tscn/.scn scene to play; default: the main scene"`
}

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

type findUIArgs struct {
	NameContains   string `json:"name_contains,omitempty" jsonschema:"substring of the Control's name"`
	ClassFilter    string `json:"class_filter,omitempty" jsonschema:"only Controls of this class, such as Button"`
	VisibleOnly    bool   `json:"visible_only,omitempty" jsonschema:"only visible Controls"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" default:"10" minimum:"1" maximum:"60" jsonschema:"how long to wait for the game's answer (default 10, at most 60)"`
}

// passthrough is a tool that forwards its arguments as the command's params
// and returns the addon's result as it is.
func passthrough[In any](command string, params func(In) map[string]any) func(ctx context.Context, ed editor, in In) (sdk.Result, error) {
	return func(ctx context.Context, ed editor, in In) (sdk.Result, error) {
		out, err := forward(ctx, ed, command, params(in))
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.JSON(out), nil
	}
}

func editorTools() []sdk.Tool {
	none := func(noArgs) map[string]any { return map[string]any{} }
	return []sdk.Tool{
		editorTool("play_scene", "Editor only: play the main scene, or the given scene, in the attached Godot editor.",
			sdk.Runtime, passthrough("cmd_play_scene", func(in playArgs) map[string]any {
				return map[string]any{"scene_path": in.Scene}
			})),
		editorTool("stop_scene", "Editor only: stop the game playing in the attached Godot editor.",
			sdk.Runtime, passthrough("cmd_stop_scene", none)),
		editorTool("is_playing", "Editor only: whether a game is playing in the attached editor, which scene, and whether the debugger paused it.",
			sdk.ReadOnly, passthrough("cmd_is_playing", none)),
		editorTool("get_game_scene_tree", "Editor only: the node tree of the game playing in the editor (needs the addon's runtime probe autoload in the game).",
			sdk.ReadOnly, passthrough("cmd_get_game_scene_tree", none)),
		editorTool("get_game_output", "Editor only: what the game playing in the editor printed, from since_seq on; pass next_seq back to read only what is new.",
			sdk.ReadOnly, getGameOutput),
		editorTool("capture_game_screenshot", "Editor only: a PNG screenshot of the game playing in the editor.",
			sdk.ReadOnly, captureGameScreenshot),
		editorTool("monitor_property", "Editor only: start sampling a property of a node in the running game; read the samples with get_property_samples.",
			sdk.Runtime, passthrough("cmd_monitor_property", func(in monitorArgs) map[string]any {
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
			})),
		editorTool("get_property_samples", "Editor only: the samples monitor_property has collected, waiting until the first batch arrives.",
			sdk.ReadOnly, func(ctx context.Context, ed editor, in waitArgs) (sdk.Result, error) {
				out, err := poll(ctx, ed, "cmd_get_property_samples", map[string]any{}, waitFor(in.TimeoutSeconds))
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(out), nil
			}),
		editorTool("find_ui_elements", "Editor only: the Controls of the running game, filtered by name, class and visibility, with their rectangles.",
			sdk.ReadOnly, func(ctx context.Context, ed editor, in findUIArgs) (sdk.Result, error) {
				out, err := poll(ctx, ed, "cmd_find_ui_elements", map[string]any{
					"request_id": requestID(), "name_contains": in.NameContains,
					"class_filter": in.ClassFilter, "visible_only": in.VisibleOnly,
				}, waitFor(in.TimeoutSeconds))
				if err != nil {
					return sdk.Result{}, err
				}
				return sdk.JSON(out), nil
			}),
	}
}

func getGameOutput(ctx context.Context, ed editor, in outputArgs) (sdk.Result, error) {
	out, err := poll(ctx, ed, "cmd_get_game_output", map[string]any{"since_seq": in.SinceSeq}, waitFor(in.TimeoutSeconds))
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

// captureGameScreenshot polls with one request_id for the whole call (the
// addon dispatches the capture once per id) and returns the PNG as an MCP
// image plus its size as text.
func captureGameScreenshot(ctx context.Context, ed editor, in waitArgs) (sdk.Result, error) {
	out, err := poll(ctx, ed, "cmd_capture_game_screenshot", map[string]any{"request_id": requestID()}, waitFor(in.TimeoutSeconds))
	if err != nil {
		return sdk.Result{}, err
	}
	return screenshotResult(out)
}

func screenshotResult(out map[string]any) (sdk.Result, error) {
	if msg, ok := out["error"].(string); ok && msg != "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "make sure the game window is visible and drawing, then retry",
			"the game could not take a screenshot: %s", msg)
	}
	b64, _ := out["base64"].(string)
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(data) == 0 {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "update the godot-mcp addon",
			"the editor's screenshot answer holds no base64 image")
	}
	format, _ := out["format"].(string)
	if format == "" {
		format = "png"
	}
	w, _ := out["width"].(float64)
	h, _ := out["height"].(float64)
	meta, _ := json.Marshal(map[string]any{"format": format, "width": w, "height": h, "bytes": len(data)})
	return sdk.Result{Content: []sdk.Content{
		sdk.ImageContent{Data: data, MIMEType: "image/" + format},
		sdk.TextContent{Text: fmt.Sprintf("screenshot of the running game, %dx%d %s: %s", int(w), int(h), format, meta)},
	}}, nil
}
