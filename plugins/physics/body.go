package main

import (
	"context"
	"path"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// bodyTypes are the classes setup_body creates.
var bodyTypes = []string{
	"StaticBody2D", "RigidBody2D", "CharacterBody2D", "AnimatableBody2D", "Area2D",
	"StaticBody3D", "RigidBody3D", "CharacterBody3D", "AnimatableBody3D", "Area3D",
}

type setupBodyArgs struct {
	NodePath   string         `json:"node_path" jsonschema:"path of the body or area from the scene root (\".\" is the root); with body_type, the path of the body to create"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"body properties as JSON, converted to each property's type: mass, gravity_scale, linear_damp, angular_damp, freeze, lock_rotation, motion_mode, floor_max_angle, monitoring, gravity_space_override, ..."`
	BodyType   string         `json:"body_type,omitempty" jsonschema:"create the body first, of this class: StaticBody2D, RigidBody2D, CharacterBody2D, AnimatableBody2D, Area2D or their 3D forms; node_path's parent must exist and node_path must not"`
	Friction   *float64       `json:"friction,omitempty" jsonschema:"friction of the body's physics_material_override (a PhysicsMaterial, made inline when it has none), 0 to 1; static, rigid and animatable bodies only"`
	Bounce     *float64       `json:"bounce,omitempty" jsonschema:"bounce of the body's physics_material_override, 0 to 1; static, rigid and animatable bodies only"`
	Scene      sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// material is the physics material's properties the arguments set.
func (in setupBodyArgs) material() map[string]any {
	m := map[string]any{}
	if in.Friction != nil {
		m["friction"] = *in.Friction
	}
	if in.Bounce != nil {
		m["bounce"] = *in.Bounce
	}
	return m
}

func (in setupBodyArgs) check() error {
	if in.BodyType != "" {
		if err := checkClass("body_type", in.BodyType, bodyTypes...); err != nil {
			return err
		}
		if nodeedit.OrDot(in.NodePath) == "." {
			return nodeedit.Invalid("node_path", "name the new body, e.g. Player or Level/Wall", "node_path must name the body to create, not the root")
		}
	}
	if _, ok := in.Properties["physics_material_override"]; ok && len(in.material()) > 0 {
		return nodeedit.Invalid("friction", "give the material either in properties or as friction/bounce", "physics_material_override and friction/bounce both set the body's material")
	}
	return nil
}

func setupBody(ctx context.Context, call *sdk.Call, in setupBodyArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	created := false
	if in.BodyType != "" {
		parent, name := path.Dir(np), path.Base(np)
		if _, _, err := s.Lookup(np); err == nil {
			return sdk.Result{}, nodeedit.Invalid("node_path", "omit body_type to configure the existing node, or pick a free name",
				"'%s' already exists", np)
		}
		n, err := s.CreateNode(parent, name, in.BodyType)
		if err != nil {
			return sdk.Result{}, err
		}
		np, created = n.Path(), true
	}
	n, class, err := s.NodeAndClass(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	if !isCollisionObject(class) {
		return sdk.Result{}, notBody(np, class)
	}
	applied, err := s.SetAll(n, orEmpty(in.Properties))
	if err != nil {
		return sdk.Result{}, err
	}
	if m := in.material(); len(m) > 0 {
		v, err := setMaterial(s, n, class, m)
		if err != nil {
			return sdk.Result{}, err
		}
		applied["physics_material_override"] = v
	}
	out := map[string]any{"node_path": np, "properties": applied, "body_type": class}
	if created {
		out["created"] = true
	}
	return s.CommitAnswer("Configure body "+n.Name(), out)
}

// setMaterial sets friction/bounce on the body's PhysicsMaterial: the
// scene's sub-resource it has, else a new inline one.
func setMaterial(s *nodeedit.Scene, n *godot.Node, class string, m map[string]any) (any, error) {
	if _, ok := db().Property(class, "physics_material_override"); !ok {
		return nil, nodeedit.Invalid("friction", "friction and bounce belong to StaticBody, RigidBody and AnimatableBody; a CharacterBody slides by its own code",
			"%s has no physics material", class)
	}
	if cur, ok := n.Get("physics_material_override"); ok {
		ref, isSub := cur.(godot.SubResource)
		if !isSub {
			return nil, nodeedit.Invalid("friction", "edit that file with godot_resources_edit_set_resource_property, or pass physics_material_override in properties to replace it",
				"the body's physics material is a separate file (%s)", s.Doc.FormatValue(cur))
		}
		sub := s.Doc.SubResource(ref.ID)
		if sub == nil || sub.Type() != "PhysicsMaterial" {
			return nil, nodeedit.Invalid("friction", "pass physics_material_override in properties to replace it", "the body's physics_material_override is not a PhysicsMaterial of this scene")
		}
		for _, k := range []string{"friction", "bounce"} {
			raw, ok := m[k]
			if !ok {
				continue
			}
			v, err := nodeedit.Coerce("PhysicsMaterial", k, raw, nil)
			if err != nil {
				return nil, err
			}
			if db().IsDefault("PhysicsMaterial", k, v) {
				sub.Clear(k)
			} else {
				sub.Set(k, v)
			}
		}
		s.Edited = true
		return nodeedit.SubResourceJSON(s.Doc, s.Path, ref.ID, 1), nil
	}
	a, err := s.Set(n, "physics_material_override", map[string]any{"type": "PhysicsMaterial", "properties": m})
	if err != nil {
		return nil, err
	}
	return nodeedit.ValueJSON(s.Doc, s.Path, a.Now(), 1), nil
}

func setupBodyEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setupBodyArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	// friction and bounce make an inline PhysicsMaterial: like an inline
	// property, the addon cannot build it, so the scene's file gets it.
	if nodeedit.HasInline(in.Properties) || len(in.material()) > 0 {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setupBody)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	if in.BodyType != "" {
		var made struct {
			NodePath string `json:"node_path"`
		}
		params := map[string]any{"parent_path": path.Dir(np), "node_type": in.BodyType, "name": path.Base(np)}
		if err := ed.Apply(ctx, "cmd_create_node", params, &made); err != nil {
			return sdk.Result{}, err
		}
		if made.NodePath != "" {
			np = made.NodePath
		}
	}
	return ed.Forward(ctx, "cmd_setup_physics_body", map[string]any{"node_path": np, "properties": orEmpty(in.Properties)})
}
