// Command batch is the first-party "batch" toolset: find nodes by type in
// one scene or every scene, set a property on many nodes, set a property
// across many scenes as one undoable action, and list a file's
// dependencies.
//
// With a Godot editor attached, set_property edits the edited scene (the
// named one opened first) through the addon's cmd_batch_set_property, and
// find_nodes_by_type without a scene and get_dependencies ask the addon;
// headless the tools edit the files through the host's workspace, so every
// call is one journaled action that godot_undo reverts. A search of a named
// scene or of all scenes reads the files in both modes, and
// cross_scene_set_property always works on the files, through the
// workspace, which keeps an attached editor in sync (the addon's version
// cannot be undone and skips the active scene).
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// setNodeProperty is the tool whose work set_property and
// cross_scene_set_property do on many nodes: the host holds them to its
// policy too (sdk.WithPerforms).
const setNodeProperty = "godot_scene_edit_set_node_property"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the batch toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "batch",
		Version: "0.1.0",
		Description: "Many nodes at once: find nodes by type in a scene or all scenes, set a property on many nodes, " +
			"set a property across many scenes as one undoable action (dry_run lists every file and line), and a file's dependencies.",
		Godot: ">= 4.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("find_nodes_by_type",
				"Find the nodes of a class (and its subclasses unless exact) in one scene, the edited scene, or every scene "+
					"of the project, with each node's path and, from files, its scene and line.",
				sdk.ReadOnly, findNodesByType, sdk.EditorFunc(findNodesEditor), sdk.WithTitle("Find nodes by type"), sdk.WithOutputSchema[findResult]()),
			sdk.NewTool("set_property",
				"Set one property on many nodes of a scene: the nodes named in node_paths, or every node of a type. "+
					"Nodes without the property are skipped and listed. Values are checked against the class database.",
				sdk.Mutating, setProperty, sdk.EditorFunc(setPropertyEditor), sdk.WithTitle("Set a property on many nodes"), sdk.WithOutputSchema[setResult](),
				sdk.WithPerforms(setNodeProperty)),
			sdk.NewTool("cross_scene_set_property",
				"Set one property on every node of a type in many scene files, as one undoable action. "+
					"With dry_run, lists every scene, node and line that would change and writes nothing.",
				sdk.Mutating, crossSceneSetProperty, sdk.AnyMode(), sdk.WithTitle("Set a property across scenes"), sdk.WithOutputSchema[crossResult](),
				sdk.WithPerforms(setNodeProperty)),
			sdk.NewTool("get_dependencies",
				"List what a scene, resource or script depends on: ext_resources (paths and uids), Resource() values and "+
					"preload/load paths, each with its line and whether it resolves.",
				sdk.ReadOnly, getDependencies, sdk.EditorFunc(getDependenciesEditor), sdk.WithTitle("File dependencies"), sdk.WithOutputSchema[depsResult]()),
		},
	}
}
