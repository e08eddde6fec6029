// Command scene_edit is the first-party "scene_edit" toolset: create, open
// and save scenes, and add, rename, move, delete, duplicate and configure
// their nodes, signals and groups.
//
// Every tool works in both modes of a godot-mcp host and declares both
// paths; the SDK picks one per call. With a Godot editor attached it
// forwards to the godot-mcp addon's command of the same name
// (cmd_create_node, ...), with the addon's params and results, so the edit
// lands in the editor's undo history (editor.go). Without one
// (headless) it edits the scene file itself through package sdk/godot and
// writes it through the host's workspace: one journaled action per tool
// call (godot_undo reverts it), compare-and-swap against the version read,
// and the file Godot would write (only the touched lines change; types,
// properties, defaults and signals come from the engine's class database).
//
// Install it as godot-mcp-toolset-scene_edit in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the scene_edit toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "scene_edit",
		Version: "0.1.0",
		Description: "Create, open and save scenes and edit their node trees: add, rename, move, duplicate and delete " +
			"nodes, set properties, instance scenes, attach scripts, connect signals and manage groups. Works in the " +
			"Godot editor when one is attached, and on the scene files (undoable with godot_undo) when none is.",
		Godot: ">= 4.4",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm:  classdb.Warm,
		Tools: tools(),
	}
}

// tools lists the toolset's tools: the headless handler, then the editor
// path. Every headless handler runs under fresh, so a headless edit may start from the scene the previous call left parsed
// (see parsed in session.go) and still answer as a fresh read would.
func tools() []sdk.Tool {
	return []sdk.Tool{
		// Scenes.
		sdk.NewTool("create_scene",
			"Create a new scene file with a root node of root_type (named after the file) and make it the active scene. "+
				"Refuses a path that already exists. Headless: writes the .tscn at once (undo with godot_undo).",
			sdk.Mutating, fresh(createScene), sdk.EditorFunc(createSceneEditor),
			sdk.DryRunAnswer(createSceneDryRun, "created"), sdk.WithTitle("Create scene")),
		sdk.NewTool("open_scene",
			"Open a scene and make it the active scene, the one the other tools edit when they get no scene argument. "+
				"Editor: opens (or switches to) its tab. Headless: changes only which scene is active; no file is written.",
			sdk.Mutating, fresh(openScene), sdk.EditorFunc(openSceneEditor),
			sdk.DryRunAnswer(scenePathDryRun, "opened"), sdk.WithTitle("Open scene")),
		sdk.NewTool("close_scene",
			"Close an open scene (default: the active one). Editor: discards its unsaved changes. "+
				"Headless: nothing is unsaved (every edit is already on disk); only the open list changes.",
			sdk.Destructive, fresh(closeScene), sdk.EditorFunc(closeSceneEditor),
			sdk.DryRunAnswer(closeSceneDryRun, "closed"), sdk.WithTitle("Close scene")),
		sdk.NewTool("reload_scene",
			"Reload an open scene from its file. Editor: discards its unsaved changes. "+
				"Headless: every call reads the file anyway, so this only checks the scene is open and parses.",
			sdk.Destructive, fresh(reloadScene), sceneCommand("cmd_reload_scene", reloadSceneParams),
			sdk.DryRunAnswer(scenePathDryRun, "reloaded"), sdk.WithTitle("Reload scene")),
		sdk.NewTool("save_scene",
			"Save the active scene (or the given one). Editor: saves the tab. Headless: every edit is written to the file "+
				"when it is made, so there is never anything pending; this reports saved:true and writes nothing.",
			sdk.Mutating, fresh(saveScene), sdk.EditorFunc(saveSceneEditor),
			sdk.DryRunAnswer(saveSceneDryRun, "saved"), sdk.WithTitle("Save scene")),
		sdk.NewTool("save_all_scenes",
			"Save every open scene. Headless: edits are already on disk; reports the open scenes and writes nothing.",
			sdk.Mutating, fresh(saveAllScenes), sceneCommand("cmd_save_all_scenes", noParams),
			sdk.DryRunAnswer(func(struct{}) map[string]any { return map[string]any{} }, "saved"), sdk.WithTitle("Save all scenes")),
		sdk.NewTool("list_open_scenes",
			"List the open scenes and which one is active.",
			sdk.ReadOnly, fresh(listOpenScenes), sceneCommand("cmd_list_open_scenes", noParams), sdk.WithTitle("List open scenes")),

		// Nodes.
		sdk.NewTool("create_node",
			"Add a node of class node_type under parent_path (default the root). The name defaults to the type; on a "+
				"clash Godot's next free name is used, so read node_path from the result. Refuses unknown, abstract and "+
				"non-Node classes with the closest valid name. parent_path may be a node of an instanced scene (Coins/Coin1/Sprite2D).",
			sdk.Mutating, fresh(createNode), sdk.EditorFunc(createNodeEditor),
			sdk.DryRunAnswer(createNodeDryRun, "created"), sdk.WithTitle("Create node")),
		sdk.NewTool("rename_node",
			"Rename a node; paths through it (children, connections, NodePath properties) follow, also in the scenes that "+
				"inherit or instance this one (listed in updated_scenes; one undo restores all). Refuses nodes that an "+
				"instanced or inherited scene defines: rename them in that scene.",
			sdk.Mutating, fresh(renameNode), sdk.EditorFunc(renameNodeEditor),
			sdk.DryRunAnswer(renameNodeDryRun, "renamed"), sdk.WithTitle("Rename node")),
		sdk.NewTool("set_node_property",
			"Set one property of a node. value is JSON coerced to the property's type: vectors as {x,y} or [x,y], colors as "+
				"{r,g,b,a}, [r,g,b,a] or \"#rrggbb\", enums as integers, resources as a res:// path, "+
				"an inline resource {\"type\": \"RectangleShape2D\", \"properties\": {\"size\": [16, 32]}} (nested to any depth; "+
				"written as a [sub_resource], the one it replaces dropped when nothing else uses it), {\"sub_resource\": \"<id>\"} to share "+
				"one the scene has, or null (with an editor attached, an inline or sub_resource value is written to the saved scene file, "+
				"which the editor then reloads: the addon takes resources as paths only). Unknown "+
				"properties are refused with suggestions. Headless: a value equal to the class default is removed from the "+
				"file, as Godot does. A node of an instanced scene (Coins/Coin1/Sprite2D) gets an override holding only what "+
				"differs from that scene (override:true); headless the instances on the way get Editable Children, without "+
				"which the editor would not save it.",
			sdk.Mutating, fresh(setNodeProperty), sdk.EditorFunc(setNodePropertyEditor),
			sdk.DryRunAnswer(setPropertyDryRun, "set"), sdk.WithTitle("Set node property")),
		sdk.NewTool("delete_node",
			"Delete a node and its subtree (and the connections from or to it). Refuses the scene root.",
			sdk.Destructive, fresh(deleteNode), sdk.EditorFunc(deleteNodeEditor),
			sdk.DryRunAnswer(nodeDryRun, "deleted"), sdk.WithTitle("Delete node")),
		sdk.NewTool("duplicate_node",
			"Duplicate a node with its subtree as a sibling named like Godot does (\"Box\" -> \"Box2\"). Refuses the root.",
			sdk.Mutating, fresh(duplicateNode), sdk.EditorFunc(duplicateNodeEditor),
			sdk.DryRunAnswer(duplicateNodeDryRun), sdk.WithTitle("Duplicate node")),
		sdk.NewTool("move_node",
			"Move a node (with its subtree) under new_parent_path, at index among its children (-1 appends). With the "+
				"same parent it only reorders. Refuses the root and moving a node into itself or a descendant.",
			sdk.Mutating, fresh(moveNode), sdk.EditorFunc(moveNodeEditor),
			sdk.DryRunAnswer(moveNodeDryRun, "moved"), sdk.WithTitle("Move node")),
		sdk.NewTool("instance_scene",
			"Add an instance of another scene (scene_path) under parent_path. The name defaults to the instanced scene's root name.",
			sdk.Mutating, fresh(instanceScene), sdk.EditorFunc(instanceSceneEditor),
			sdk.DryRunAnswer(instanceSceneDryRun, "instanced"), sdk.WithTitle("Instance scene")),
		sdk.NewTool("attach_script",
			"Attach an existing script file (script_path) to a node, replacing its current script.",
			sdk.Mutating, fresh(attachScript), sdk.EditorFunc(attachScriptEditor),
			sdk.DryRunAnswer(attachScriptDryRun, "attached"), sdk.WithTitle("Attach script")),
		sdk.NewTool("set_editable_children",
			"Turn Editable Children on or off for a node that instances another scene, so its children can be changed here "+
				"(headless also an instance inside another instance, such as Coins/Coin1).",
			sdk.Mutating, fresh(setEditableChildren), sdk.EditorFunc(setEditableChildrenEditor),
			sdk.DryRunAnswer(editableDryRun), sdk.WithTitle("Set editable children")),
		sdk.NewTool("extract_scene",
			"Save a node's subtree as a new scene file (scene_path, must not exist), optionally replacing the subtree with "+
				"an instance of it. preview:true only reports what would be extracted.",
			sdk.Mutating, fresh(extractScene), sdk.EditorFunc(extractSceneEditor),
			sdk.DryRunAnswer(extractDryRun, "extracted"), sdk.WithTitle("Extract scene")),

		// Signals and groups.
		sdk.NewTool("connect_signal",
			"Connect a signal of source_path to method_name of target_path (saved with the scene). Idempotent: an existing "+
				"connection answers already_connected:true and changes nothing. Unknown signals and methods are refused.",
			sdk.Mutating, fresh(connectSignal), sdk.EditorFunc(connectSignalEditor),
			sdk.DryRunAnswer(signalDryRun, "connected"), sdk.WithTitle("Connect signal")),
		sdk.NewTool("disconnect_signal",
			"Remove a signal connection. Refuses a connection that does not exist.",
			sdk.Mutating, fresh(disconnectSignal), sdk.EditorFunc(disconnectSignalEditor),
			sdk.DryRunAnswer(signalDryRun, "disconnected"), sdk.WithTitle("Disconnect signal")),
		sdk.NewTool("list_signal_connections",
			"List the signal connections going out of a node.",
			sdk.ReadOnly, fresh(listSignalConnections), sdk.EditorFunc(listSignalConnectionsEditor), sdk.WithTitle("List signal connections")),
		sdk.NewTool("add_to_group",
			"Add a node to a group (saved with the scene). Answers {node_path, group, in_group, changed, added}: in_group is true after the call; "+
				"already a member, changed (and added) is false and nothing changes.",
			sdk.Mutating, fresh(addToGroup), sdk.EditorFunc(addToGroupEditor),
			sdk.DryRunAnswer(groupDryRun, "changed", "added"), sdk.WithTitle("Add to group")),
		sdk.NewTool("remove_from_group",
			"Remove a node from a group. Answers {node_path, group, in_group, changed, removed}: not a member, changed (and removed) is false and nothing changes; "+
				"a group the node's instanced scene gives it stays (in_group true, changed false: that scene's to remove).",
			sdk.Mutating, fresh(removeFromGroup), sdk.EditorFunc(removeFromGroupEditor),
			sdk.DryRunAnswer(groupDryRun, "changed", "removed"), sdk.WithTitle("Remove from group")),

		// Editor state.
		sdk.NewTool("select_nodes",
			"Select nodes in the editor's scene tree. Headless there is no selection to keep: the paths are checked and echoed.",
			sdk.ReadOnly, fresh(selectNodes), sdk.EditorFunc(selectNodesEditor), sdk.WithTitle("Select nodes")),
		sdk.NewTool("rescan_filesystem",
			"Have the editor rescan the project's files, after files changed outside it. Headless every call reads the "+
				"files fresh, so there is nothing to rescan.",
			sdk.ReadOnly, fresh(rescanFilesystem), sceneCommand("cmd_rescan_filesystem", noParams), sdk.WithTitle("Rescan filesystem")),
	}
}
