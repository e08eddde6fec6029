package main

import (
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// What a dry run answers without applying (sdk.DryRunAnswer): the fields
// of each tool's answer that its arguments settle, and the flags that say
// it happened (created, moved, …), false. In editor mode these are all a
// dry run answers besides the addon's persistence verdict, since the edit
// is recorded, not sent; headless the edit is made in memory and its own
// answer is kept, so only the flags change there.

// childPath is the path of a node named name under parent.
func childPath(parent, name string) string {
	if parent = normalizeNodePath(parent); parent == "" || parent == "." {
		return name
	}
	return parent + "/" + name
}

// parentOf is the path of np's parent ("." for a child of the root).
func parentOf(np string) string {
	if i := strings.LastIndex(np, "/"); i >= 0 {
		return np[:i]
	}
	return "."
}

// withScene adds scene_path when the call names its scene: the editor
// learns the active one with a query (activeScenePath).
func withScene(out map[string]any, scene sdk.ScenePath) map[string]any {
	if scene != "" {
		out["scene_path"] = string(scene)
	}
	return out
}

func createSceneDryRun(in createSceneArgs) map[string]any {
	return map[string]any{"scene_path": string(in.ScenePath), "root_type": in.RootType}
}

func scenePathDryRun(in scenePathArgs) map[string]any {
	return map[string]any{"scene_path": string(in.ScenePath)}
}

func closeSceneDryRun(in closeSceneArgs) map[string]any {
	return withScene(map[string]any{}, in.ScenePath)
}

func saveSceneDryRun(in saveSceneArgs) map[string]any {
	out := map[string]any{}
	if in.Scene != "" {
		out["path"] = string(in.Scene)
	}
	return out
}

func createNodeDryRun(in createNodeArgs) map[string]any {
	name := in.NodeName
	if name == "" {
		name = in.NodeType
	}
	return withScene(map[string]any{"node_path": childPath(nodeedit.OrDot(in.ParentPath), name)}, in.Scene)
}

func renameNodeDryRun(in renameNodeArgs) map[string]any {
	np := normalizeNodePath(in.NodePath)
	return map[string]any{"node_path": childPath(parentOf(np), in.NewName), "old_name": path.Base("/" + np), "new_name": in.NewName}
}

func setPropertyDryRun(in setPropertyArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath), "property": in.Property, "value": in.Value}
}

func nodeDryRun(in nodeArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath)}
}

// duplicateNodeDryRun: the copy's name (Box2, Box3, …) is settled when the
// copy is made, so an editor dry run names only the source.
func duplicateNodeDryRun(in nodeArgs) map[string]any {
	return map[string]any{"source_path": normalizeNodePath(in.NodePath)}
}

func moveNodeDryRun(in moveNodeArgs) map[string]any {
	np := normalizeNodePath(in.NodePath)
	return map[string]any{"node_path": childPath(in.NewParentPath, path.Base("/"+np))}
}

// instanceSceneDryRun: without a name the instance is named after the
// instanced scene's root, which the editor path reads (instanceName).
func instanceSceneDryRun(in instanceArgs) map[string]any {
	out := map[string]any{"scene_path": string(in.ScenePath)}
	if in.Name != "" {
		out["node_path"] = childPath(nodeedit.OrDot(in.ParentPath), in.Name)
	}
	return out
}

func attachScriptDryRun(in attachScriptArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath), "script_path": string(in.ScriptPath)}
}

func editableDryRun(in editableArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath), "editable": in.Editable == nil || *in.Editable}
}

func extractDryRun(in extractArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath), "scene_path": string(in.ScenePath)}
}

func signalDryRun(in signalArgs) map[string]any { return in.params() }

func groupDryRun(in groupArgs) map[string]any {
	return map[string]any{"node_path": normalizeNodePath(in.NodePath), "group": in.Group}
}
