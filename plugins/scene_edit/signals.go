package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type signalArgs struct {
	SourcePath string        `json:"source_path" jsonschema:"path of the node that emits the signal"`
	SignalName string        `json:"signal_name" jsonschema:"the signal, e.g. pressed or body_entered"`
	TargetPath string        `json:"target_path" jsonschema:"path of the node whose method is called"`
	MethodName string        `json:"method_name" jsonschema:"the method called on the target"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func (in signalArgs) params() map[string]any {
	return map[string]any{"source_path": normalizeNodePath(in.SourcePath), "signal_name": in.SignalName,
		"target_path": normalizeNodePath(in.TargetPath), "method_name": in.MethodName}
}

func connectSignal(ctx context.Context, call *sdk.Call, in signalArgs) (sdk.Result, error) {
	out := in.params()
	out["connected"] = true
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	already, err := s.editor(ctx, call).Connect(in.SourcePath, in.SignalName, in.TargetPath, in.MethodName)
	if err != nil {
		return sdk.Result{}, err
	}
	out["already_connected"] = already
	if already {
		return s.commit(ctx, call, "", out) // nothing changes: no write, no undo step
	}
	return s.commit(ctx, call, fmt.Sprintf("Connect %s.%s to %s", pathName(normalizeNodePath(in.SourcePath)), in.SignalName, in.MethodName), out)
}

func disconnectSignal(ctx context.Context, call *sdk.Call, in signalArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	c, err := s.editor(ctx, call).Disconnect(in.SourcePath, in.SignalName, in.TargetPath, in.MethodName)
	if err != nil {
		return sdk.Result{}, err
	}
	out := in.params()
	out["disconnected"] = true
	return s.commit(ctx, call, fmt.Sprintf("Disconnect %s.%s", pathName(c.From), c.Signal), out)
}

func pathName(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func listSignalConnections(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	if _, _, err := s.lookup(ctx, call, np); err != nil {
		return sdk.Result{}, err
	}
	conns := []map[string]any{}
	for _, c := range s.file.Connections() {
		if normalizeNodePath(c.From) == np {
			conns = append(conns, map[string]any{"signal": c.Signal, "target_path": c.To, "method": c.Method,
				"persistent": c.Flags&godot.ConnectPersist != 0})
		}
	}
	s.keep()
	return sdk.JSON(map[string]any{"node_path": np, "connections": conns}), nil
}

type groupArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	Group    string        `json:"group" jsonschema:"the group name"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func addToGroup(ctx context.Context, call *sdk.Call, in groupArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	if err := checkGroup(in.Group); err != nil {
		return sdk.Result{}, err
	}
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	// A node of an instanced scene joins the group through an override.
	n, added, err := s.editor(ctx, call).AddToGroup(np, in.Group)
	if err != nil {
		return sdk.Result{}, err
	}
	out := nodeedit.GroupResult(np, in.Group, "added", true, added)
	if !added {
		return s.commit(ctx, call, "", out)
	}
	return s.commit(ctx, call, fmt.Sprintf("Add %s to group %s", n.Name(), in.Group), out)
}

// checkGroup refuses an empty group name, in both modes.
func checkGroup(g string) error { return nodeedit.CheckGroup(g) }

func removeFromGroup(ctx context.Context, call *sdk.Call, in groupArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	// Groups an instanced scene gives a node are that scene's to remove.
	ed := s.editor(ctx, call)
	n, removed, err := ed.RemoveFromGroup(np, in.Group)
	if err != nil {
		return sdk.Result{}, err
	}
	// A group an instanced scene gives the node stays: in_group says so.
	out := nodeedit.GroupResult(np, in.Group, "removed", ed.InGroup(np, in.Group), removed)
	if !removed {
		return s.commit(ctx, call, "", out)
	}
	return s.commit(ctx, call, fmt.Sprintf("Remove %s from group %s", n.Name(), in.Group), out)
}

type selectArgs struct {
	NodePaths []string      `json:"node_paths" jsonschema:"paths of the nodes to select, relative to the scene root"`
	Scene     sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene (see godot_scene_edit_open_scene)"`
}

func selectNodes(ctx context.Context, call *sdk.Call, in selectArgs) (sdk.Result, error) {
	paths, err := selectPaths(in)
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	for _, p := range paths {
		if _, _, err := s.lookup(ctx, call, p); err != nil {
			return sdk.Result{}, err
		}
	}
	s.keep()
	return sdk.JSON(map[string]any{"scene_path": s.path, "selected": paths, "count": len(paths),
		"note": "headless: there is no editor selection; the paths exist and are echoed"}), nil
}

// selectPaths checks and normalizes select_nodes' paths, in both modes.
func selectPaths(in selectArgs) ([]string, error) {
	if len(in.NodePaths) == 0 {
		return nil, invalid("node_paths", "pass at least one node path", "node_paths must not be empty")
	}
	paths := make([]string, len(in.NodePaths))
	for i, p := range in.NodePaths {
		paths[i] = normalizeNodePath(p)
	}
	return paths, nil
}

func rescanFilesystem(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	return sdk.JSON(map[string]any{"scanned": true, "scanning": false,
		"note": "headless: every call reads the project files fresh; there is no cache to rescan"}), nil
}
