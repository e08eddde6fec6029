// Package addonerr is the one rule that turns a refusal from the godot-mcp
// editor addon into the error an agent sees, so that the same mistake gets
// the same code whether a tool ran headless on the files or was forwarded to
// a Godot editor, whichever toolset it belongs to.
//
// The addon answers a failed command with {"ok":false,"error":CODE,
// "hint":…,"required":…}. Its codes are its own (VALIDATION_ERROR,
// RESOURCE_NOT_FOUND, PRECONDITION_FAILED, INTERNAL_ERROR) and its hint is
// usually a statement of what is wrong ("No node at 'Enemy'."), not a fix.
// [Refusal] maps them:
//
//	addon's error                        agent sees
//	RESOURCE_NOT_FOUND                   NOT_FOUND
//	VALIDATION_ERROR                     INVALID_ARGUMENT
//	VALIDATION_ERROR "Unknown command…"  PRECONDITION_FAILED, required=addon_command
//	PRECONDITION_FAILED, INTERNAL_ERROR  unchanged
//	TIMEOUT, BRIDGE_DISCONNECTED         unchanged (the host makes these itself)
//	any other code                       unchanged
//
// The message names the command and quotes the addon's hint word for word
// (it may name addon commands or bare tool names: it is the addon's text);
// the hint is a fix for the code, and required is kept. An unknown command
// means the addon in the editor is older (or newer) than the toolset: the
// fix is to update the addon, or to close the editor and work headless.
//
//	NOT_FOUND: the Godot editor refused cmd_get_node_properties: No node at 'Enemy'.
//	Hint: check the name or path the message quotes against what exists (…) and call again
//
// The host applies Refusal where the addon's reply becomes an error (its
// editor bridge), so every toolset, in any language, and the host's own
// undo tools get it; sdktest applies the same function to a scripted
// editor's refusals, so a toolset's tests see what agents see. Toolsets do
// not call it: they receive its result from [sdk.Call.Editor]. Fakes of the
// addon keep answering with the addon's own codes ([ValidationError], …).
package addonerr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// The addon's own error codes (its wire contract). Only fakes of the addon
// and the mapping use them; agents never see the first two.
const (
	ValidationError     = "VALIDATION_ERROR"
	ResourceNotFound    = "RESOURCE_NOT_FOUND"
	PreconditionFailed  = "PRECONDITION_FAILED"
	InternalError       = "INTERNAL_ERROR"
	unknownCommandStart = "Unknown command"
)

// RequiredAddonCommand is the Required token of the refusal of a command
// the attached addon does not have.
const RequiredAddonCommand = "addon_command"

// requiredActiveScene is the addon's token for "no scene is open".
const requiredActiveScene = "active_scene"

// Refusal is the error an agent sees when the addon refuses command with
// code, hint and required (the fields of its failure envelope).
func Refusal(command, code, hint, required string) *sdk.Error {
	if code == ValidationError && strings.HasPrefix(hint, unknownCommandStart) {
		return UnknownCommand(command, "", hint)
	}
	msg := "the Godot editor refused " + command
	if hint != "" {
		msg += ": " + hint
	}
	e := &sdk.Error{Code: code, Message: msg, Required: required}
	switch code {
	case ResourceNotFound:
		e.Code = sdk.CodeNotFound
		e.Hint = "check the name or path the message quotes against what exists (godot_inspection_get_scene_tree lists the nodes, godot_project_search_files the files) and call again"
	case ValidationError:
		e.Code = sdk.CodeInvalidArgument
		e.Hint = "correct the argument the message names and call again"
	case PreconditionFailed:
		switch required {
		case requiredActiveScene:
			e.Hint = "open a scene in the Godot editor first (godot_scene_edit_open_scene makes it the active tab), then call again"
		case "":
			e.Hint = "bring about what the message says is missing, then call again"
		default:
			e.Hint = "bring about what the message says is missing (" + required + "), then call again"
		}
	case InternalError:
		e.Hint = "the addon failed inside the Godot editor: its Output panel shows the error; call again, and report it if it persists"
	case sdk.CodeTimeout:
		e.Hint = "check that the editor is responsive (not paused in the debugger or behind a modal dialog) and call again"
	case sdk.CodeBridgeDisconnected:
		e.Hint = "wait for the editor to reconnect (the addon retries by itself) and call again"
	case "":
		e.Code = sdk.CodeInternalError
		e.Hint = "update the godot-mcp addon in the project: it refused without a code"
	default:
		e.Hint = "update the godot-mcp addon in the project and godot-mcp so that they match, then call again"
	}
	return e
}

// UnknownCommand is the refusal of a command the addon in the editor does
// not have. addonVersion is the addon's version when known; said is what
// the addon answered ("Unknown command 'cmd_x'."), or "" when the host knew
// from the addon's command list and did not send it.
func UnknownCommand(command, addonVersion, said string) *sdk.Error {
	who := "the godot-mcp addon in the attached editor"
	if addonVersion != "" {
		who += " (version " + addonVersion + ")"
	}
	msg := fmt.Sprintf("%s has no command %s", who, command)
	if said != "" {
		msg += " (it answered: " + said + ")"
	}
	return &sdk.Error{
		Code:     sdk.CodePreconditionFailed,
		Message:  msg,
		Hint:     "the addon is older (or newer) than this toolset: update the godot-mcp addon in the project's addons/godot_mcp folder and reload the plugin, or close the editor to work headless on the files",
		Required: RequiredAddonCommand,
	}
}

// IsUnknownCommand reports whether err is the refusal of a command the
// addon does not have (see [UnknownCommand]).
func IsUnknownCommand(err error) bool {
	var e *sdk.Error
	return errors.As(err, &e) && e.Code == sdk.CodePreconditionFailed && e.Required == RequiredAddonCommand
}
