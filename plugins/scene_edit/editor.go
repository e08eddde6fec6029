package main

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// Editor mode: every tool forwards to the godot-mcp addon command of the
// same name (ADDON-PROTOCOL §5.2) with the addon's params, and returns the
// addon's result unchanged (persisted/reason/hint, already_connected,
// added:false … pass through).
//
// The addon edits the active scene tab only, so a tool given a scene
// argument first opens that scene (cmd_open_scene), which makes it active.
//
// Dry runs are the SDK's: the edit is recorded for the preview, not sent.
// Like the reference server, a node edit's dry run also asks the addon
// (cmd_node_persistence, a query) for the verdict the real run would get,
// and answers its persisted/reason/hint next to the preview.

// forward opens scene (if given) and runs cmd in the editor; in a dry run
// probe, when given, is the cmd_node_persistence query whose verdict the
// answer carries.
func forward(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params, probe map[string]any) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return sdk.Result{}, err
	}
	if !ed.DryRun() || probe == nil {
		return ed.Forward(ctx, cmd, params)
	}
	var verdict map[string]any
	if err := ed.Query(ctx, "cmd_node_persistence", probe, &verdict); err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, cmd, params, &out); err != nil {
		return sdk.Result{}, err
	}
	for _, k := range []string{"persisted", "reason", "hint"} {
		if v, ok := verdict[k]; ok {
			out[k] = v
		}
	}
	return sdk.JSON(out), nil
}

// sceneCommand is the editor path of a tool that acts on no scene
// argument: one addon command built from the arguments.
func sceneCommand[In any](cmd string, params func(in In) map[string]any) sdk.ToolOption {
	return sdk.EditorFunc(func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		return forward(ctx, ed, "", cmd, params(in), nil)
	})
}

func createSceneEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in createSceneArgs) (sdk.Result, error) {
	if err := checkRootType(in.RootType, ""); err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, "", "cmd_create_scene", map[string]any{"scene_path": string(in.ScenePath), "root_type": in.RootType}, nil)
}

// openSceneEditor opens the scene's tab. The SDK sends cmd_open_scene in
// dry runs (a navigation: the queries of other tools' previews need the
// right tab), but switching the tab is all this tool does, so its dry run
// only checks the file and asks which scenes are open, as headless does.
func openSceneEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in scenePathArgs) (sdk.Result, error) {
	sp := string(in.ScenePath)
	if !ed.DryRun() {
		return ed.Forward(ctx, "cmd_open_scene", map[string]any{"scene_path": sp})
	}
	fi, err := call.Workspace().Stat(ctx, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	if !fi.Exists {
		return sdk.Result{}, notFound("godot_inspection_list_scenes lists the project's scenes", "No scene at %s.", sp)
	}
	var open struct {
		Scenes []struct {
			Path string `json:"path"`
		} `json:"scenes"`
	}
	if err := ed.Query(ctx, "cmd_list_open_scenes", nil, &open); err != nil {
		return sdk.Result{}, err
	}
	already := false
	for _, s := range open.Scenes {
		already = already || s.Path == sp
	}
	return sdk.JSON(map[string]any{"scene_path": sp, "opened": true, "already_open": already}), nil
}

func closeSceneParams(in closeSceneArgs) map[string]any {
	params := map[string]any{"confirm": true}
	if in.ScenePath != "" {
		params["scene_path"] = string(in.ScenePath)
	}
	return params
}

func reloadSceneParams(in scenePathArgs) map[string]any {
	return map[string]any{"scene_path": string(in.ScenePath), "confirm": true}
}

func noParams(struct{}) map[string]any { return map[string]any{} }

func saveSceneEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in saveSceneArgs) (sdk.Result, error) {
	res, err := forward(ctx, ed, in.Scene, "cmd_save_scene", map[string]any{}, nil)
	if err == nil && ed.DryRun() && in.Scene == "" {
		err = withActiveScene(ctx, ed, res, "path")
	}
	return res, err
}

// closeSceneEditor closes the scene's tab; a dry run of the active one
// names it, as headless does.
func closeSceneEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in closeSceneArgs) (sdk.Result, error) {
	res, err := forward(ctx, ed, "", "cmd_close_scene", closeSceneParams(in), nil)
	if err == nil && ed.DryRun() && in.ScenePath == "" {
		err = withActiveScene(ctx, ed, res, "scene_path")
	}
	return res, err
}

func createNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in createNodeArgs) (sdk.Result, error) {
	parent := nodeedit.OrDot(in.ParentPath)
	params := map[string]any{"node_type": in.NodeType, "parent_path": parent}
	if in.NodeName != "" {
		params["name"] = in.NodeName
	}
	res, err := forward(ctx, ed, in.Scene, "cmd_create_node", params, map[string]any{"node_path": parent, "probe_parent": true})
	if err == nil && ed.DryRun() && in.Scene == "" {
		err = withActiveScene(ctx, ed, res, "scene_path")
	}
	return res, err
}

// withActiveScene adds the editor's active scene to a dry run's answer as
// key, as the headless answer names the scene it edits (the arguments name
// it only when the call gives scene).
func withActiveScene(ctx context.Context, ed *sdk.Editor, res sdk.Result, key string) error {
	out, ok := res.Structured.(map[string]any)
	if !ok {
		return nil
	}
	var act struct {
		IsOpen bool   `json:"is_open"`
		Path   string `json:"path"`
	}
	if err := ed.Query(ctx, "cmd_get_active_scene", nil, &act); err != nil {
		return err
	}
	if act.IsOpen && act.Path != "" {
		out[key] = act.Path
	}
	return nil
}

func renameNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in renameNodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	return forward(ctx, ed, in.Scene, "cmd_rename_node", map[string]any{"node_path": np, "new_name": in.NewName},
		map[string]any{"node_path": np})
}

func setNodePropertyEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setPropertyArgs) (sdk.Result, error) {
	if nodeedit.HasInline(in.Value) {
		// The addon takes a resource as a path only: the scene's file
		// gets the [sub_resource], and the editor reloads it.
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, fresh(setNodeProperty))
	}
	np := normalizeNodePath(in.NodePath)
	return forward(ctx, ed, in.Scene, "cmd_set_node_property",
		map[string]any{"node_path": np, "property": in.Property, "value": in.Value},
		map[string]any{"node_path": np})
}

func deleteNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	// The host checked confirm before calling; the addon checks it too.
	return forward(ctx, ed, in.Scene, "cmd_delete_node", map[string]any{"node_path": np, "confirm": true},
		map[string]any{"node_path": np})
}

func duplicateNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	return forward(ctx, ed, in.Scene, "cmd_duplicate_node", map[string]any{"node_path": np},
		map[string]any{"node_path": np, "probe_parent_of": true})
}

func moveNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in moveNodeArgs) (sdk.Result, error) {
	np, dest := normalizeNodePath(in.NodePath), normalizeNodePath(in.NewParentPath)
	index := -1
	if in.Index != nil {
		index = *in.Index
	}
	return forward(ctx, ed, in.Scene, "cmd_move_node",
		map[string]any{"node_path": np, "new_parent_path": dest, "index": index},
		map[string]any{"node_path": dest, "probe_parent": true})
}

func instanceSceneEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in instanceArgs) (sdk.Result, error) {
	parent := nodeedit.OrDot(in.ParentPath)
	params := map[string]any{"parent_path": parent, "scene_path": string(in.ScenePath)}
	if in.Name != "" {
		params["name"] = in.Name
	}
	res, err := forward(ctx, ed, in.Scene, "cmd_instance_scene", params, map[string]any{"node_path": parent, "probe_parent": true})
	if err == nil && ed.DryRun() && in.Name == "" {
		// The instance is named after the instanced scene's root.
		if out, ok := res.Structured.(map[string]any); ok {
			if name := instancedRootName(ctx, call, string(in.ScenePath)); name != "" {
				out["node_path"] = childPath(parent, name)
			}
		}
	}
	return res, err
}

func attachScriptEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in attachScriptArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	return forward(ctx, ed, in.Scene, "cmd_attach_script", map[string]any{"node_path": np, "script_path": string(in.ScriptPath)},
		map[string]any{"node_path": np})
}

func setEditableChildrenEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in editableArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	parent := "."
	if i := strings.LastIndex(np, "/"); i >= 0 {
		parent = np[:i]
	}
	return forward(ctx, ed, in.Scene, "cmd_set_editable_children",
		map[string]any{"node_path": np, "editable": in.Editable == nil || *in.Editable},
		map[string]any{"node_path": parent, "probe_parent": true})
}

// extractSceneEditor: the addon previews an extraction itself (its preview
// flag), so a dry run sends the command with preview set (Editor.Apply does).
func extractSceneEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in extractArgs) (sdk.Result, error) {
	params := map[string]any{"node_path": normalizeNodePath(in.NodePath), "scene_path": string(in.ScenePath),
		"replace_with_instance": in.ReplaceWithInstance, "save_current": in.SaveCurrent, "preview": in.Preview}
	return forward(ctx, ed, in.Scene, "cmd_extract_scene", params, nil)
}

func connectSignalEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in signalArgs) (sdk.Result, error) {
	res, err := forward(ctx, ed, in.Scene, "cmd_connect_signal", in.params(),
		map[string]any{"node_path": normalizeNodePath(in.SourcePath)})
	if err != nil || !ed.DryRun() {
		return res, err
	}
	// already_connected, as headless answers it: from the source's
	// outgoing connections.
	out, ok := res.Structured.(map[string]any)
	if !ok {
		return res, nil
	}
	var conns struct {
		Connections []struct {
			Signal     string `json:"signal"`
			TargetPath string `json:"target_path"`
			Method     string `json:"method"`
		} `json:"connections"`
	}
	if err := ed.Query(ctx, "cmd_list_signal_connections", map[string]any{"node_path": normalizeNodePath(in.SourcePath)}, &conns); err != nil {
		return sdk.Result{}, err
	}
	already := false
	for _, c := range conns.Connections {
		already = already || (c.Signal == in.SignalName && normalizeNodePath(c.TargetPath) == normalizeNodePath(in.TargetPath) && c.Method == in.MethodName)
	}
	out["already_connected"] = already
	return res, nil
}

func disconnectSignalEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in signalArgs) (sdk.Result, error) {
	return forward(ctx, ed, in.Scene, "cmd_disconnect_signal", in.params(),
		map[string]any{"node_path": normalizeNodePath(in.SourcePath)})
}

func listSignalConnectionsEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
	return forward(ctx, ed, in.Scene, "cmd_list_signal_connections", map[string]any{"node_path": normalizeNodePath(in.NodePath)}, nil)
}

func addToGroupEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in groupArgs) (sdk.Result, error) {
	if err := checkGroup(in.Group); err != nil {
		return sdk.Result{}, err
	}
	np := normalizeNodePath(in.NodePath)
	res, err := forward(ctx, ed, in.Scene, "cmd_add_to_group", map[string]any{"node_path": np, "group": in.Group},
		map[string]any{"node_path": np})
	return groupAnswer(res, err, np, in.Group, "added", true)
}

func removeFromGroupEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in groupArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	res, err := forward(ctx, ed, in.Scene, "cmd_remove_from_group", map[string]any{"node_path": np, "group": in.Group},
		map[string]any{"node_path": np, "group": in.Group})
	return groupAnswer(res, err, np, in.Group, "removed", false)
}

// groupAnswer gives the addon's {node_path, group, added|removed,
// persisted…} the headless answer's shape, the reference server's
// GroupResult (nodeedit.GroupResult): in_group is what the call leaves
// (true after an add, false after a remove, as the reference says) and
// changed is the addon's added or removed (false in a dry run, which
// changes nothing). The addon's other fields (persisted, reason, hint)
// are kept.
func groupAnswer(res sdk.Result, err error, np, group, op string, inGroup bool) (sdk.Result, error) {
	if err != nil {
		return res, err
	}
	out, ok := res.Structured.(map[string]any)
	if !ok {
		return res, nil
	}
	changed, _ := out[op].(bool)
	for k, v := range nodeedit.GroupResult(np, group, op, inGroup, changed) {
		out[k] = v
	}
	return sdk.JSON(out), nil
}

func selectNodesEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in selectArgs) (sdk.Result, error) {
	paths, err := selectPaths(in)
	if err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.Scene, "cmd_select_nodes", map[string]any{"node_paths": paths}, nil)
}

// instancedRootName is the name of the root of the scene at sp, which an
// instance of it is named after ("" when the file cannot be read as a text
// scene: the answer then leaves node_path out).
func instancedRootName(ctx context.Context, call *sdk.Call, sp string) string {
	f, err := call.Workspace().Read(ctx, sp)
	if err != nil {
		return ""
	}
	file, err := godot.ParseFile(sp, f.Data)
	if err != nil || file.Root() == nil {
		return ""
	}
	return file.Root().Name()
}
