// Command inspection is the first-party "inspection" toolset: read-only
// tools that let an agent look at a Godot project, its scenes, their node
// trees and node properties (ADDON-PROTOCOL §5.1). The host enables it by
// default.
//
// Every tool works in both modes with the same result shapes:
//
//   - with a Godot editor attached (each tool's sdk.EditorFunc path) it forwards to
//     the godot-mcp addon's cmd_* command and returns its result, with the
//     addon's error codes mapped to the SDK's;
//   - headless, it computes the answer from the project files, read through
//     the host's workspace (the same file versions the editing toolsets
//     see), the workspace's active and open scenes, and the engine's class
//     database (sdk/godot/classdb) for property lists and defaults.
//
// Scene-targeting tools take an optional scene (res:// path) and otherwise
// act on the active scene. See docs/toolsets/inspection.md.
//
// Install it as godot-mcp-toolset-inspection in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// db is the engine's class database: property names, types and defaults of
// every class, for headless answers.
var db = classdb.MustEmbedded()

// Toolset returns the inspection toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "inspection",
		Version: "0.1.0",
		Description: "Look at the project: its settings, scenes, node trees, node properties and groups, and snapshots of a subtree to diff later. " +
			"Read-only; works with the Godot editor attached and headless on the project files.",
		// The headless path reads the Godot 4 text formats (format=3 and 4
		// .tscn, config_version=5 project.godot) that every 4.x release
		// writes, so it serves 4.0 projects as well as 4.6 ones; the
		// contract gives inspection no minimum (unlike scene_edit's 4.4),
		// and editor mode is bounded by the addon itself (4.4+). Godot 3
		// files are a different format.
		Godot: ">= 4.0, < 5.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("get_project_info",
				"The project's name, Godot version, main scene, absolute project path, autoloads (name to \"*res://…\"), input action names "+
					"(the project's own; include_builtin_actions adds the engine's ui_* ones), "+
					"and whether C# is supported (csharp_supported: the attached editor is a .NET build; always false headless) and used (csharp_project).",
				sdk.ReadOnly, getProjectInfo, sdk.EditorFunc(getProjectInfoEditor), sdk.WithTitle("Project info")),
			sdk.NewTool("get_active_scene",
				"The scene being edited: {is_open, path, name}. With the editor attached it is the editor's active tab; headless it is the scene "+
					"godot_scene_edit_open_scene made active. Never fails: is_open is false when no scene is open.",
				sdk.ReadOnly, getActiveScene, onActiveScene("cmd_get_active_scene", noScene, noParams), sdk.WithTitle("Active scene")),
			sdk.NewTool("list_scenes",
				"The .tscn/.scn scenes of the project (dot-directories skipped, and res://addons/ unless include_addons), sorted, each with is_main, "+
					"is_open and is_active, and the main scene; a page at a time (offset, limit; by default about 20 KB): total counts every scene, "+
					"and a cut page says next_offset, remaining and how to read on.",
				sdk.ReadOnly, listScenes, sdk.EditorFunc(listScenesEditor), sdk.WithTitle("List scenes")),
			sdk.NewTool("get_scene_tree",
				"The node tree of a scene: each node's name, type, path (relative to the root, \".\" is the root), script, owner (set on nodes that an "+
					"instanced sub-scene brings in: that scene's res:// path), editable_children and children. Breadth first, within max_depth levels "+
					"(default 10; 0 = root only) and max_nodes nodes (default 200, and about 20 KB unless max_nodes is given); lightweight leaves out scripts. A cut tree says truncated:true, "+
					"nodes, total_nodes and a hint, and each node whose children were left out has children_omitted. Headless, a node that instances an "+
					"imported scene (.glb, .gltf, .fbx, .blend) has instance (its path) and children_unknown:true: only the nodes this scene names "+
					"inside it are listed (their type is \"\" unless the scene sets it). With no scene open and none named, tree is null and note says how to open one.",
				sdk.ReadOnly, getSceneTree, sdk.EditorFunc(getSceneTreeEditor), sdk.WithTitle("Scene tree")),
			sdk.NewTool("get_selected_node",
				"The first node selected in the editor, as node_info, or null. Headless there is no selection: selected is null and note says so.",
				sdk.ReadOnly, getSelectedNode, sdk.EditorFunc(getSelectedNodeEditor), sdk.WithTitle("Selected node")),
			sdk.NewTool("get_node_properties",
				"A node's node_info: type, script, properties (its script variables), children (names), plus builtin (every stored engine property "+
					"of its class with its current value; an embedded sub-resource is {type, id, path, properties} headless) and overridden (the builtin names whose value differs from the engine default; the others are defaults). "+
					"A value over 2 KB as JSON (packed data such as tile_map_data) is left out, named in left_out, unless include_large.",
				sdk.ReadOnly, getNodeProperties, sdk.EditorFunc(editorNodeProperties), sdk.WithTitle("Node properties")),
			sdk.NewTool("get_node_property",
				"One property of a node, built-in or script variable, encoded as JSON (Vector2 as {x,y}, Color as {r,g,b,a}, resource files as res:// paths; "+
					"headless, an embedded [sub_resource] is {type, id, path, properties}, in editor mode its res://scene.tscn::id path). "+
					"exists is false (value null) when the node has no such property.",
				sdk.ReadOnly, getNodeProperty, onActiveScene("cmd_get_node_property", propScene, propertyParams), sdk.WithTitle("Node property")),
			sdk.NewTool("get_node_property_list",
				"The names of every property a node has, for its class and script.",
				sdk.ReadOnly, getNodePropertyList, onActiveScene("cmd_get_node_property_list", nodeScene, nodeParams), sdk.WithTitle("Node property list")),
			sdk.NewTool("get_node_groups",
				"The groups a node belongs to, sorted; internal groups (starting with \"_\") are left out.",
				sdk.ReadOnly, getNodeGroups, onActiveScene("cmd_get_node_groups", nodeScene, nodeParams), sdk.WithTitle("Node groups")),
			sdk.NewTool("snapshot_subtree",
				"Record a subtree (node_path, default the root): every node's type, script, owner, groups and properties (script variables, "+
					"position/rotation/scale, and the extra built-in properties named in properties). Returns the snapshot and a snapshot_id for "+
					"godot_inspection_diff_snapshots. Snapshots live in this toolset's memory and are lost when it restarts.",
				sdk.ReadOnly, snapshotSubtree, sdk.EditorFunc(snapshotSubtreeEditor), sdk.WithTitle("Snapshot a subtree")),
			sdk.NewTool("diff_snapshots",
				"Compare two snapshots of godot_inspection_snapshot_subtree: nodes added and removed, and every changed type, script, owner, group "+
					"list and property (before and after). Without after, the subtree is snapshotted again now and compared with before.",
				sdk.ReadOnly, diffSnapshots, sdk.EditorFunc(diffSnapshotsEditor), sdk.WithTitle("Diff snapshots")),
		},
	}
}
