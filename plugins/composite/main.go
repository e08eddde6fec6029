// Command composite is the first-party "composite" toolset: several node
// edits in one call — a node with properties, script and children
// (compose_node), many nodes of one type (batch_create_nodes), property
// edits on many nodes (apply_node_edits), and a list of addon commands
// (run_commands).
//
// With a Godot editor attached each tool opens the scene named by its scene
// argument, if any, and forwards to the addon's command of the same name
// (ADDON-PROTOCOL §5.10, §5.3); the SDK records, instead of sending, a
// command that would change the scene during a dry run.
// Headless, the tools edit the scene file through the host's workspace:
// every call is one journaled action, and a failing call writes nothing.
// run_commands with stop_on_error is all-or-nothing; without it, every
// command that succeeds is kept and each failure is reported in place.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// The scene_edit tools whose work the composite tools do: the host holds
// every call to their policy too (sdk.WithPerforms).
const (
	createNode      = "godot_scene_edit_create_node"
	setNodeProperty = "godot_scene_edit_set_node_property"
	attachScript    = "godot_scene_edit_attach_script"
)

// Toolset returns the composite toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "composite",
		Version: "0.1.0",
		Description: "Several scene edits in one call: compose a node with properties, script and children, create many nodes, " +
			"apply property edits to many nodes, or run a list of editor commands; headless as one undoable action.",
		Godot: ">= 4.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("compose_node",
				"Create a node with its properties, script and children in one call. A resource-typed property takes a res:// path "+
					"or an inline resource {\"type\": ..., \"properties\": {...}}, written as a [sub_resource] (with an editor attached, into the saved scene file, which the editor then reloads). An unknown property or a bad value "+
					"fails the whole call and nothing is created.",
				sdk.Mutating, composeTool, sdk.EditorFunc(composeEditor), sdk.DryRunAnswer(composeDryRun, "created", "saved", "script_attached"), sdk.WithTitle("Compose a node"), sdk.WithOutputSchema[composeResult](),
				sdk.WithPerforms(createNode, setNodeProperty, attachScript)),
			sdk.NewTool("batch_create_nodes",
				"Create several nodes of one class under one parent, each with the same properties.",
				sdk.Mutating, batchCreateTool, sdk.EditorFunc(batchCreateEditor), sdk.DryRunAnswer(batchCreateDryRun, "saved"), sdk.WithTitle("Create many nodes"), sdk.WithOutputSchema[batchCreateResult](),
				sdk.WithPerforms(createNode, setNodeProperty)),
			sdk.NewTool("apply_node_edits",
				"Set properties on many nodes: a list of {node_path, properties}. A missing node fails the call; unknown "+
					"properties are skipped and listed.",
				sdk.Mutating, applyTool, sdk.EditorFunc(applyEditor), sdk.DryRunAnswer(applyDryRun, "saved"), sdk.WithTitle("Apply node edits"), sdk.WithOutputSchema[applyResult](),
				sdk.WithPerforms(setNodeProperty)),
			sdk.NewTool("run_commands",
				"Run a list of editor commands ({command, params}, e.g. {\"command\": \"create_node\", \"params\": {…}}) in order. "+
					"stop_on_error (default true) stops at the first failure and reports aborted_at and skipped_count; "+
					"headless, the list is then all-or-nothing. Each command is held to the rules of the tool it names: "+
					"a command the caller could not call directly refuses the whole list, and a destructive one "+
					"(delete_node) needs confirm=true.",
				sdk.Mutating, runCommandsTool, sdk.EditorFunc(runCommandsEditor), sdk.WithTitle("Run editor commands"), sdk.WithOutputSchema[runResult](),
				sdk.WithDispatch("commands[*].command")),
		},
	}
}
