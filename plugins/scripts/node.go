package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

type nodeArgs struct {
	NodePath  string        `json:"node_path,omitempty" jsonschema:"path of the node relative to the scene root; in the editor \"\" means the first selected node"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene holding the node (in the editor it becomes the active tab); default the active scene"`
}

// getForNodeEditor asks the editor, on scene_path's tab when it is given.
func getForNodeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(in.ScenePath)); err != nil {
		return sdk.Result{}, err
	}
	out, err := query(ctx, ed, "cmd_get_script_for_node", map[string]any{"node_path": in.NodePath})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func getForNode(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	if in.NodePath == "" {
		e := invalid("pass node_path: without an editor there is no selection", "node_path is required headless")
		e.Required = "node_or_selection"
		return sdk.Result{}, e
	}
	ws := call.Workspace()
	scene := string(in.ScenePath)
	if scene == "" {
		active, err := ws.ActiveScene(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		if active == "" {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "no scene is active",
				Hint: "pass scene_path (res://….tscn), or open a scene first", Required: "active_scene"}
		}
		scene = active
	}
	f, err := ws.Read(ctx, scene)
	if err != nil {
		return sdk.Result{}, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("%s cannot be parsed: %v", f.Path, err),
			Hint: "fix the scene file first", Err: err}
	}
	n := doc.Node(in.NodePath)
	if n == nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("no node %q in %s", in.NodePath, f.Path),
			Hint: "node paths are relative to the scene root, e.g. \"Player/Sprite2D\"; \".\" is the root"}
	}
	out := map[string]any{"node_path": in.NodePath, "script_path": nil, "content": nil}
	v, ok := n.Get("script")
	switch ref := v.(type) {
	case godot.ExtResource:
		if e := doc.ExtResource(ref.ID); e != nil {
			out["script_path"] = e.Path()
			if sf, err := ws.Read(ctx, e.Path()); err == nil {
				out["content"] = string(sf.Data)
			} else {
				out["warning"] = fmt.Sprintf("the script file %s cannot be read: %v", e.Path(), err)
			}
		}
	case godot.SubResource:
		// A built-in script: its text is the sub resource's script/source.
		if s := doc.SubResource(ref.ID); s != nil {
			out["script_path"] = f.Path + "::" + s.ID()
			if src, ok := s.Get("script/source"); ok {
				if str, ok := src.(godot.String); ok {
					out["content"] = string(str)
				}
			}
		}
	default:
		if ok {
			out["warning"] = "the node's script property is not a resource reference: " + strings.TrimSpace(fmt.Sprint(v))
		}
	}
	return sdk.JSON(out), nil
}
