package main

import (
	"context"
	"encoding/json"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// requiredActiveScene is the Required token of "no scene" refusals, as the
// addon spells it.
const requiredActiveScene = "active_scene"

// noActiveScene is the refusal of a scene-targeting tool with no scene.
func noActiveScene(editor bool) error {
	msg := "no scene is active"
	if editor {
		msg = "no scene is open in the Godot editor"
	}
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Message: msg, Required: requiredActiveScene,
		Hint: "open one with godot_scene_edit_open_scene {\"scene_path\": \"res://…\"} (godot_inspection_list_scenes lists them), or pass scene"}
}

// forward runs an addon command and decodes its result into a generic
// JSON object, so numbers are float64 as they are after any JSON round
// trip. Its failures come back from the host already in the codes a
// headless call would give (sdk/addonerr), so they are returned as they are.
// Every inspection command is a query, so ed.Query sends it.
func forward(ctx context.Context, ed *sdk.Editor, command string, params any) (map[string]any, error) {
	var raw json.RawMessage
	if err := ed.Query(ctx, command, params, &raw); err != nil {
		return nil, err
	}
	out := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, sdk.Errorf(sdk.CodeInternalError, "update the godot-mcp addon in the project",
				"%s answered with a result that is not a JSON object: %v", command, err)
		}
	}
	return out, nil
}

// editorScene checks that scene (if given) is the editor's active scene:
// the addon's commands only act on the active tab, so answering about
// another scene from it would be wrong. A read-only tool does not switch
// the user's tab to answer (unlike a tool that edits scene, which opens
// it): it says plainly which scene is active and how to open the other.
func editorScene(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath) error {
	if scene == "" {
		return nil
	}
	act, err := forward(ctx, ed, "cmd_get_active_scene", map[string]any{})
	if err != nil {
		return err
	}
	if open, _ := act["is_open"].(bool); !open {
		return noActiveScene(true)
	}
	if p, _ := act["path"].(string); p != string(scene) {
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredActiveScene,
			Message: "the Godot editor's active scene is " + p + ", not " + string(scene),
			Hint:    "make it the active scene with godot_scene_edit_open_scene {\"scene_path\": \"" + string(scene) + "\"}, or leave scene out to read the active one"}
	}
	return nil
}

// relay answers a call from the editor: the result object of command, as
// the addon gives it, once editorScene has checked that scene (if given)
// is the editor's active tab.
func relay(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, command string, params any) (sdk.Result, error) {
	if err := editorScene(ctx, ed, scene); err != nil {
		return sdk.Result{}, err
	}
	out, err := forward(ctx, ed, command, params)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

// onActiveScene is the editor path of a tool that is one query on the
// editor's active scene (after the scene check).
func onActiveScene[In any](command string, scene func(In) sdk.ScenePath, params func(In) map[string]any) sdk.ToolOption {
	return sdk.EditorFunc[In](func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		return relay(ctx, ed, scene(in), command, params(in))
	})
}

func nodeScene(in nodeIn) sdk.ScenePath { return in.Scene }
func propScene(in propIn) sdk.ScenePath { return in.Scene }
func noScene(noArgs) sdk.ScenePath      { return "" }
func noParams(noArgs) map[string]any    { return map[string]any{} }
