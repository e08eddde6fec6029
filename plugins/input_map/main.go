// Command input_map is the first-party "input_map" toolset: the project's
// input actions ([input] in project.godot) and the key, mouse and gamepad
// events bound to them.
//
// Events are written exactly as the Godot editor writes them, one
// Object(InputEventKey, …) per event with every stored property in the
// engine's order, so Godot reads them back unchanged and a later save in
// the editor rewrites nothing. Key names are the engine's own ("Space",
// "Escape", "A", "F12"), from the class database built into the sdk.
//
// With a Godot editor attached every tool forwards to the godot-mcp addon
// (which also updates the running InputMap); headless, it edits
// project.godot through the host's workspace: atomic, journaled (godot_undo
// reverts it) and honouring dry_run.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-input_map in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the input_map toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "input_map",
		Version: "0.1.0",
		Description: "Input actions of the Godot project and their key, mouse and gamepad bindings, " +
			"written to project.godot exactly as the editor writes them.",
		Godot: ">= 4.4",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("add_action",
				"Add an input action (no events yet) with a deadzone.",
				sdk.Mutating, addAction, sdk.EditorCommand("cmd_add_input_action", addActionCommand),
				sdk.DryRunAnswer(addActionDryRun, "added"), sdk.WithTitle("Add input action")),
			sdk.NewTool("remove_action",
				"Remove an input action and all its events from project.godot.",
				sdk.Destructive, removeAction, sdk.EditorCommand("cmd_remove_input_action", removeActionCommand), sdk.WithTitle("Remove input action")),
			sdk.NewTool("add_event",
				"Bind an event to an input action: a key by name (\"Space\", \"W\", \"Escape\", \"F1\") as a logical key or a "+
					"physical (layout-independent) key, with shift/ctrl/alt/meta; a mouse button; a gamepad button; or a gamepad axis direction.",
				sdk.Mutating, addEvent, sdk.EditorCommand("cmd_add_input_event", addEventCommand), sdk.WithTitle("Add input event")),
			sdk.NewTool("clear_action_events",
				"Remove every event of an input action, keeping the action.",
				sdk.Destructive, clearActionEvents, sdk.EditorCommand("cmd_clear_input_action_events", clearActionEventsCommand),
				sdk.WithTitle("Clear input action events")),
			// Read from project.godot in both modes: the addon saves the
			// project settings after each of its input-map commands (and
			// the editor's Input Map dialog saves as it edits), so the file
			// is current, and the addon's cmd_get_input_action_events
			// answers in another shape than this tool's.
			sdk.NewTool("get_action_events",
				"List an input action's deadzone and events, each described (key name, modifiers, button, axis) and as written in project.godot. "+
					"Without action, lists every action of the project.",
				sdk.ReadOnly, getActionEvents, sdk.AnyMode(), sdk.WithTitle("Get input action events")),
		},
	}
}
