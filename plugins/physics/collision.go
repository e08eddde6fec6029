package main

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type setupCollisionArgs struct {
	NodePath          string         `json:"node_path" jsonschema:"path of the body or area (CollisionObject2D/3D) from the scene root that gets the shape"`
	ShapeType         string         `json:"shape_type" jsonschema:"the shape's class: RectangleShape2D, CircleShape2D, CapsuleShape2D, SegmentShape2D, WorldBoundaryShape2D, BoxShape3D, SphereShape3D, CapsuleShape3D, CylinderShape3D, WorldBoundaryShape3D, ..."`
	CollisionNodeType string         `json:"collision_node_type,omitempty" jsonschema:"CollisionShape2D or CollisionShape3D; default: the one of shape_type's dimension"`
	Properties        map[string]any `json:"properties,omitempty" jsonschema:"the shape's properties, e.g. {\"size\": [32, 48]} or {\"radius\": 8, \"height\": 30}; they win over what fit_to computes"`
	Name              string         `json:"name,omitempty" jsonschema:"name of the new collision node; default collision_node_type (a clash gets the next free name)"`
	FitTo             string         `json:"fit_to,omitempty" jsonschema:"path from the scene root of a Sprite2D (its texture or region size x scale, frames counted) or MeshInstance3D (its mesh's AABB x scale) to size the shape to; the collision node is placed at its centre. In the editor, read from the saved scene"`
	Scene             sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// resolve checks the classes and fills in the collision node's type.
func (in *setupCollisionArgs) resolve() error {
	if !db().Exists(in.ShapeType) || !(db().Inherits(in.ShapeType, "Shape2D") || db().Inherits(in.ShapeType, "Shape3D")) || !db().Instantiable(in.ShapeType) {
		hint := "pass a Shape2D or Shape3D class such as RectangleShape2D or BoxShape3D"
		if r, ok := db().ClassRename(in.ShapeType); ok {
			hint = r.Message()
		} else if s := db().Suggest(in.ShapeType); s != "" {
			hint = "did you mean \"" + s + "\"? " + hint
		}
		return nodeedit.Invalid("shape_type", hint, "'%s' is not a Shape2D/Shape3D.", in.ShapeType)
	}
	dim := dimension(in.ShapeType)
	if in.CollisionNodeType == "" {
		in.CollisionNodeType = "CollisionShape" + dim
	}
	if err := checkClass("collision_node_type", in.CollisionNodeType, "CollisionShape2D", "CollisionShape3D"); err != nil {
		return err
	}
	if dimension(in.CollisionNodeType) != dim {
		return nodeedit.Invalid("collision_node_type", "pass collision_node_type CollisionShape"+dim+" (or omit it) for a "+dim+" shape",
			"Dimension mismatch: %s is a %s shape but %s is %s.", in.ShapeType, dim, in.CollisionNodeType, dimension(in.CollisionNodeType))
	}
	if in.Name == "" {
		in.Name = in.CollisionNodeType
	}
	return nil
}

func setupCollision(ctx context.Context, call *sdk.Call, in setupCollisionArgs) (sdk.Result, error) {
	if err := in.resolve(); err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	_, class, err := s.NodeAndClass(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	if !isCollisionObject(class) {
		return sdk.Result{}, notBody(np, class)
	}
	if d := dimension(class); d != dimension(in.ShapeType) {
		return sdk.Result{}, nodeedit.Invalid("shape_type", "pass a "+d+" shape (e.g. "+map[string]string{"2D": "RectangleShape2D", "3D": "BoxShape3D"}[d]+") for a "+class,
			"Dimension mismatch: %s is a %s body but %s is a %s shape.", np, d, in.ShapeType, dimension(in.ShapeType))
	}
	shapeProps, at := map[string]any{}, map[string]any(nil)
	if in.FitTo != "" {
		f, err := fitScene(ctx, call, s, in.FitTo, in.ShapeType)
		if err != nil {
			return sdk.Result{}, err
		}
		shapeProps, at = f.props, f.at
	}
	for k, v := range in.Properties {
		shapeProps[k] = v
	}
	cn, err := s.CreateNode(np, in.Name, in.CollisionNodeType)
	if err != nil {
		return sdk.Result{}, err
	}
	for k, v := range at {
		if _, err := s.Set(cn, k, v); err != nil {
			return sdk.Result{}, err
		}
	}
	a, err := s.Set(cn, "shape", map[string]any{"type": in.ShapeType, "properties": shapeProps})
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": cn.Path(), "shape_type": in.ShapeType, "created": true,
		"shape": nodeedit.ValueJSON(s.Doc, s.Path, a.Now(), 1)}
	if at != nil {
		out["fitted_to"] = nodeedit.OrDot(in.FitTo)
	}
	return s.CommitAnswer("Add collision shape to "+strings.TrimPrefix(np, "./"), out)
}

func setupCollisionEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setupCollisionArgs) (sdk.Result, error) {
	if err := in.resolve(); err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setupCollision)
	}
	props := map[string]any{}
	if in.FitTo != "" {
		// The addon has no fitting: size the shape from the saved scene
		// and send the size as properties.
		if in.Scene == "" {
			return sdk.Result{}, nodeedit.Invalid("scene", "pass scene=\"res://...tscn\" (the scene the editor has open) so that fit_to can read the sprite or mesh from it",
				"fit_to in the editor reads the saved scene, and no scene was named")
		}
		s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
		if err != nil {
			return sdk.Result{}, err
		}
		f, err := fitScene(ctx, call, s, in.FitTo, in.ShapeType)
		if err != nil {
			return sdk.Result{}, err
		}
		for k, v := range f.props {
			props[k] = v
		}
	}
	for k, v := range in.Properties {
		props[k] = v
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_setup_collision", map[string]any{
		"node_path": nodeedit.OrDot(in.NodePath), "shape_type": in.ShapeType, "collision_node_type": in.CollisionNodeType,
		"properties": props, "name": in.Name,
	})
}
