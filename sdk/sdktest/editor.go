package sdktest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
)

// Editor is a scripted Godot editor for testing a toolset's editor mode.
// Pass its Serve method as Options.Editor; Call.Editor then reaches it the
// way it reaches the real editor through the host's bridge:
//
//	ed := sdktest.NewEditor().
//		Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": "res://main.tscn", "name": "main"}).
//		On("cmd_create_node", func(p map[string]any) (any, *sdk.Error) {
//			return map[string]any{"node_path": p["name"], "created": true, "persisted": true}, nil
//		})
//	h := sdktest.New(t, toolset(), sdktest.Options{Editor: ed.Serve})
//	res := h.Call(ctx, "create_node", map[string]any{"node_type": "Sprite2D", "name": "Hero"})
//	calls := ed.Calls("cmd_create_node") // exactly what the toolset sent
//
// It behaves like the godot-mcp addon behind the host: params reach a
// handler with every JSON number as float64 (Godot parses numbers as
// floats); a handler fails with the addon's own codes (VALIDATION_ERROR,
// RESOURCE_NOT_FOUND, PRECONDITION_FAILED, INTERNAL_ERROR), hint and
// required, and a command nobody scripted is refused as the addon does,
// VALIDATION_ERROR "Unknown command '…'.". The toolset receives those
// refusals exactly as it does behind the real host: mapped by
// sdk/addonerr (RESOURCE_NOT_FOUND is NOT_FOUND, VALIDATION_ERROR is
// INVALID_ARGUMENT, an unknown command is PRECONDITION_FAILED
// required=addon_command, the addon's hint quoted in the message). For the
// wire itself (sockets, timeouts, replacement) the host has its own tests
// against a fake addon.
type Editor struct {
	mu       sync.Mutex
	handlers map[string]EditorHandler
	calls    []EditorCall
}

// EditorHandler answers one editor command: a result that marshals to a
// JSON object, or the addon's failure as it puts it on the wire (Code such
// as RESOURCE_NOT_FOUND, Hint, Required; Message is not part of the
// addon's envelope and is not used).
type EditorHandler func(params map[string]any) (any, *sdk.Error)

// EditorCall is one command the toolset sent.
type EditorCall struct {
	Command string
	// Params as the addon sees them: numbers are float64.
	Params map[string]any
}

// NewEditor returns an editor that knows no command yet.
func NewEditor() *Editor {
	return &Editor{handlers: map[string]EditorHandler{}}
}

// On scripts command. It returns e, for chaining.
func (e *Editor) On(command string, h EditorHandler) *Editor {
	e.mu.Lock()
	e.handlers[command] = h
	e.mu.Unlock()
	return e
}

// Result scripts command to answer result every time.
func (e *Editor) Result(command string, result any) *Editor {
	return e.On(command, func(map[string]any) (any, *sdk.Error) { return result, nil })
}

// ActiveScene scripts an editor whose active tab is scene (a saved
// res:// scene): cmd_get_active_scene answers it and cmd_save_scene saves
// it, as the addon does. With Options.WorkspaceEditor (see OpenScenes) it
// serves the tools that write an inline resource to the scene's file
// (sdk.Editor.OnSceneFile).
func (e *Editor) ActiveScene(scene string) *Editor {
	return e.Result("cmd_get_active_scene", map[string]any{"is_open": true, "path": scene}).
		Result("cmd_save_scene", map[string]any{"path": scene, "saved": true})
}

// Fail scripts command to fail every time, as the addon does: its code
// such as "RESOURCE_NOT_FOUND", its hint, and required ("" for none).
func (e *Editor) Fail(command, code, hint, required string) *Editor {
	return e.On(command, func(map[string]any) (any, *sdk.Error) {
		return nil, &sdk.Error{Code: code, Hint: hint, Required: required}
	})
}

// Calls returns the commands received, in order; with names, only those.
func (e *Editor) Calls(names ...string) []EditorCall {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []EditorCall
	for _, c := range e.calls {
		if len(names) == 0 || slices.Contains(names, c.Command) {
			out = append(out, c)
		}
	}
	return out
}

// Serve answers one command; it is what Options.Editor expects.
func (e *Editor) Serve(command string, params json.RawMessage) (json.RawMessage, *sdk.Error) {
	p := map[string]any{}
	if len(params) > 0 {
		var v any
		if err := json.Unmarshal(params, &v); err != nil {
			return nil, refused(addonerr.ValidationError, "Malformed JSON envelope.", "")
		}
		obj, ok := v.(map[string]any)
		if !ok && v != nil {
			return nil, refused(addonerr.ValidationError, "'params' must be an object.", "")
		}
		if obj != nil {
			p = obj
		}
	}
	e.mu.Lock()
	e.calls = append(e.calls, EditorCall{Command: command, Params: p})
	h := e.handlers[command]
	e.mu.Unlock()
	if h == nil {
		return nil, refused(addonerr.ValidationError, fmt.Sprintf("Unknown command '%s'.", command), "")
	}
	res, ferr := h(p)
	if ferr != nil {
		return nil, refused(ferr.Code, ferr.Hint, ferr.Required)
	}
	if res == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(res)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return nil, refused(addonerr.InternalError,
			fmt.Sprintf("the scripted editor's answer to %s is not a JSON object: return a map or a struct from the EditorHandler", command), "")
	}
	return b, nil
}

// refused is an addon failure envelope: the addon's code, hint and
// required, which the harness maps as the host's bridge does.
func refused(code, hint, required string) *sdk.Error {
	return &sdk.Error{Code: code, Hint: hint, Required: required}
}
