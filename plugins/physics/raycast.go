package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type addRaycastArgs struct {
	ParentPath  string         `json:"parent_path" jsonschema:"path of the parent node from the scene root (\".\" is the root)"`
	Name        string         `json:"name,omitempty" jsonschema:"name of the new raycast; default raycast_type (a clash gets the next free name)"`
	RaycastType string         `json:"raycast_type,omitempty" jsonschema:"RayCast2D (default) or RayCast3D"`
	Properties  map[string]any `json:"properties,omitempty" jsonschema:"raycast properties as JSON: target_position ([x, y] or [x, y, z]), collision_mask, enabled, collide_with_areas, collide_with_bodies, exclude_parent, hit_from_inside"`
	Scene       sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

func (in *addRaycastArgs) resolve() error {
	if in.RaycastType == "" {
		in.RaycastType = "RayCast2D"
	}
	if err := checkClass("raycast_type", in.RaycastType, "RayCast2D", "RayCast3D"); err != nil {
		return err
	}
	if in.Name == "" {
		in.Name = in.RaycastType
	}
	return nodeedit.ValidName(in.Name)
}

func addRaycast(ctx context.Context, call *sdk.Call, in addRaycastArgs) (sdk.Result, error) {
	if err := in.resolve(); err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.CreateNode(nodeedit.OrDot(in.ParentPath), in.Name, in.RaycastType)
	if err != nil {
		return sdk.Result{}, err
	}
	props, err := s.SetAll(n, orEmpty(in.Properties))
	if err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "created": true, "properties": props})
}

func addRaycastEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in addRaycastArgs) (sdk.Result, error) {
	if err := in.resolve(); err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, addRaycast)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_add_raycast", map[string]any{
		"parent_path": nodeedit.OrDot(in.ParentPath), "name": in.Name, "raycast_type": in.RaycastType, "properties": orEmpty(in.Properties),
	})
}

// addRaycastDryRun is what a dry run of add_raycast answers without adding.
func addRaycastDryRun(in addRaycastArgs) map[string]any {
	rt := in.RaycastType
	if rt == "" {
		rt = "RayCast2D"
	}
	name := in.Name
	if name == "" {
		name = rt
	}
	return map[string]any{"node_path": godot.JoinNodePath(nodeedit.NormalizePath(nodeedit.OrDot(in.ParentPath)), name),
		"properties": orEmpty(in.Properties), "scene_path": sdk.EditedScene}
}
