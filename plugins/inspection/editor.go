package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// requiredActiveScene is the Required token of "no scene" refusals, as the
// addon spells it.
const requiredActiveScene = "active_scene"

// requiredAddon is the Required token of a refusal because the editor's
// addon is too old for a command.
const requiredAddon = "addon_version"

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
// trip. The addon's own codes are mapped to the SDK's, so an agent sees
// the same error in both modes.
func forward(ctx context.Context, call *sdk.Call, command string, params any) (map[string]any, error) {
	var raw json.RawMessage
	if err := call.Editor(ctx, command, params, &raw); err != nil {
		var e *sdk.Error
		if errors.As(err, &e) {
			c := *e
			switch c.Code {
			case "RESOURCE_NOT_FOUND":
				c.Code = sdk.CodeNotFound
			case "VALIDATION_ERROR":
				if strings.HasPrefix(c.Hint, "Unknown command") {
					// An addon older than this toolset (ADDON-PROTOCOL §6.5).
					return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredAddon,
						Message: "the godot-mcp addon in the editor does not know " + command + " (" + c.Hint + ")",
						Hint:    "update the godot-mcp addon (addons/godot_mcp) in the project to a version with " + command + ", or close the editor to read the files headless"}
				}
				c.Code = sdk.CodeInvalidArgument
			case sdk.CodePreconditionFailed:
				if c.Required == requiredActiveScene {
					return nil, noActiveScene(true)
				}
			}
			return nil, &c
		}
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
