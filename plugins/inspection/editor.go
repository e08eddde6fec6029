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
		Hint: "open one with godot_scene_edit_open_scene {\"path\": \"res://…\"} (godot_inspection_list_scenes lists them), or pass scene"}
}

// forward runs an addon command and decodes its result into a generic
// JSON object, so numbers are float64 as they are after any JSON round
// trip. Its failures come back from the host already in the codes a
// headless call would give (sdk/addonerr), so they are returned as they are.
func forward(ctx context.Context, call *sdk.Call, command string, params any) (map[string]any, error) {
	var raw json.RawMessage
	if err := call.Editor(ctx, command, params, &raw); err != nil {
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
// another scene from it would be wrong.
func editorScene(ctx context.Context, call *sdk.Call, scene string) error {
	if scene == "" {
		return nil
	}
	act, err := forward(ctx, call, "cmd_get_active_scene", map[string]any{})
	if err != nil {
		return err
	}
	if open, _ := act["is_open"].(bool); !open {
		return noActiveScene(true)
	}
	if p, _ := act["path"].(string); p != scene {
		return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredActiveScene,
			Message: "the Godot editor's active scene is " + p + ", not " + scene,
			Hint:    "make it the active scene with godot_scene_edit_open_scene {\"path\": \"" + scene + "\"}, or leave scene out to read the active one"}
	}
	return nil
}

// relay answers a call from the editor: the result object of command, as
// the addon gives it, once editorScene has checked that scene (if given)
// is the editor's active tab.
func relay(ctx context.Context, call *sdk.Call, scene, command string, params any) (sdk.Result, error) {
	if err := editorScene(ctx, call, scene); err != nil {
		return sdk.Result{}, err
	}
	out, err := forward(ctx, call, command, params)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}
