package addonerr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
)

// TestRefusalTable: every code the addon (or a host on its behalf) can
// send becomes the code an agent gets for the same mistake headless; the
// addon's words stay in the message, required is kept, and the hint is a fix.
func TestRefusalTable(t *testing.T) {
	for _, c := range []struct {
		code, hint, required string
		want, wantRequired   string
		hintHas              string
	}{
		{"RESOURCE_NOT_FOUND", "No node at 'Enemy'.", "", sdk.CodeNotFound, "", "against what exists"},
		{"RESOURCE_NOT_FOUND", "No script at res://b.gd", "value", sdk.CodeNotFound, "value", "against what exists"},
		{"VALIDATION_ERROR", "Node has no property 'spede'.", "", sdk.CodeInvalidArgument, "", "correct the argument"},
		{"VALIDATION_ERROR", "Node 'Player/Sprite' belongs to res://player.tscn.", "node_path", sdk.CodeInvalidArgument, "node_path", "correct the argument"},
		{"VALIDATION_ERROR", "Unknown command 'cmd_tilemap_layers'.", "", sdk.CodePreconditionFailed, addonerr.RequiredAddonCommand, "update the godot-mcp addon"},
		{"PRECONDITION_FAILED", "No scene is open.", "active_scene", sdk.CodePreconditionFailed, "active_scene", "godot_scene_edit_open_scene"},
		{"PRECONDITION_FAILED", "Scene was never saved.", "scene_path", sdk.CodePreconditionFailed, "scene_path", "(scene_path)"},
		{"PRECONDITION_FAILED", "Not now.", "", sdk.CodePreconditionFailed, "", "what the message says is missing"},
		{"INTERNAL_ERROR", "'cmd_save_scene' failed inside the addon without producing a response.", "", sdk.CodeInternalError, "", "Output panel"},
		{"TIMEOUT", "", "", sdk.CodeTimeout, "", "responsive"},
		{"BRIDGE_DISCONNECTED", "Replaced by a new editor connection.", "", sdk.CodeBridgeDisconnected, "", "reconnect"},
		{"APPROVAL_DENIED", "The user said no.", "", "APPROVAL_DENIED", "", "update the godot-mcp addon"},
		{"", "???", "", sdk.CodeInternalError, "", "update the godot-mcp addon"},
	} {
		t.Run(c.code+"/"+c.hint, func(t *testing.T) {
			e := addonerr.Refusal("cmd_x", c.code, c.hint, c.required)
			if e.Code != c.want || e.Required != c.wantRequired {
				t.Fatalf("%s %q → %s required=%q, want %s required=%q", c.code, c.hint, e.Code, e.Required, c.want, c.wantRequired)
			}
			if !strings.Contains(e.Message, "cmd_x") || !strings.Contains(e.Message, c.hint) {
				t.Errorf("message %q lost the command or the addon's words", e.Message)
			}
			if !strings.Contains(e.Hint, c.hintHas) {
				t.Errorf("hint %q, want it to contain %q", e.Hint, c.hintHas)
			}
			if !strings.HasPrefix(e.Text(), c.want+": ") || !strings.Contains(e.Text(), "\nHint: ") {
				t.Errorf("text %q does not start with the code and carry a fix", e.Text())
			}
		})
	}
}

func TestRefusalWithoutHint(t *testing.T) {
	e := addonerr.Refusal("cmd_save_scene", "INTERNAL_ERROR", "", "")
	if e.Message != "the Godot editor refused cmd_save_scene" {
		t.Errorf("message %q", e.Message)
	}
}

func TestUnknownCommand(t *testing.T) {
	sent := addonerr.Refusal("cmd_snapshot_subtree", "VALIDATION_ERROR", "Unknown command 'cmd_snapshot_subtree'.", "")
	known := addonerr.UnknownCommand("cmd_snapshot_subtree", "1.2.0", "")
	for _, e := range []*sdk.Error{sent, known} {
		if !addonerr.IsUnknownCommand(e) || !addonerr.IsUnknownCommand(fmt.Errorf("wrapped: %w", e)) {
			t.Errorf("not recognised: %v", e)
		}
		if !strings.Contains(e.Message, "has no command cmd_snapshot_subtree") || !strings.Contains(e.Hint, "close the editor to work headless") {
			t.Errorf("%v", e)
		}
	}
	if !strings.Contains(sent.Message, "Unknown command 'cmd_snapshot_subtree'.") {
		t.Errorf("the addon's answer is lost: %q", sent.Message)
	}
	if !strings.Contains(known.Message, "(version 1.2.0)") {
		t.Errorf("version missing: %q", known.Message)
	}
	for _, err := range []error{
		nil,
		errors.New("Unknown command"),
		addonerr.Refusal("cmd_x", "VALIDATION_ERROR", "count must be >= 1", ""),
		&sdk.Error{Code: sdk.CodePreconditionFailed, Required: "active_scene"},
	} {
		if addonerr.IsUnknownCommand(err) {
			t.Errorf("%v taken for an unknown command", err)
		}
	}
}
