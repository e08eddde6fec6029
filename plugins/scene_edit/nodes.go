package main

import (
	"context"
	"fmt"
	"path"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

type createNodeArgs struct {
	NodeType   string        `json:"node_type" jsonschema:"engine class of the new node, e.g. Sprite2D (must be an instantiable Node class)"`
	ParentPath string        `json:"parent_path,omitempty" jsonschema:"path of the parent node relative to the scene root; default \".\" (the root)"`
	NodeName   string        `json:"node_name,omitempty" jsonschema:"name of the new node; default: the type. A clash gets Godot's next free name"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func createNode(ctx context.Context, call *sdk.Call, in createNodeArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	ed := s.editor(ctx, call)
	n, err := ed.CreateNode(in.ParentPath, in.NodeName, in.NodeType)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"created": true, "scene_path": s.path, "node_path": n.Path()}
	if ed.MadeEditable {
		out["editable_children"] = true
	}
	return s.commit(ctx, call, "Create "+n.Name(), out)
}

type renameNodeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	NewName  string        `json:"new_name" jsonschema:"the new name"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func renameNode(ctx context.Context, call *sdk.Call, in renameNodeArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	ed := s.editor(ctx, call)
	n, old, updated, err := ed.Rename(in.NodePath, in.NewName)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": n.Path(), "old_name": old, "new_name": in.NewName, "renamed": true}
	if len(updated) > 0 {
		out["updated_scenes"] = updated
	}
	return s.commit(ctx, call, fmt.Sprintf("Rename %s to %s", old, in.NewName), out, ed.Writes()...)
}

type setPropertyArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	Property string        `json:"property" jsonschema:"property name, e.g. position (see godot_inspection_get_node_property_list)"`
	Value    any           `json:"value" jsonschema:"the value as JSON, coerced to the property's type; for a resource: a res:// path, an inline resource {\"type\": \"RectangleShape2D\", \"properties\": {\"size\": [16, 32]}} (nested to any depth) made a [sub_resource] of the scene, or {\"sub_resource\": \"<id>\"} for one the scene has, or null to clear it" godot:"value"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func setNodeProperty(ctx context.Context, call *sdk.Call, in setPropertyArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	// A node of an instanced scene gets an override section, as the
	// editor writes it; its class and current values are the instanced
	// scene's.
	n, tn, err := s.override(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	if in.Property == "script" {
		return sdk.Result{}, invalid("property", "use godot_scene_edit_attach_script", "'script' is set with attach_script")
	}
	a, err := s.ed.Set(n, in.Property, in.Value)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": np, "property": in.Property, "value": toJSON(s.file, a.Value), "set": true}
	if a.Cleared {
		out["value"] = defaultJSON(s.file, a.Class, a.Property)
		if a.HasBase {
			out["value"] = godot.ToJSONIn(a.Base, a.BaseFile, "")
		}
		out["default"] = true
	}
	if a.Property != in.Property {
		out["saved_as"] = a.Property
		if a.Cleared {
			out["value"] = map[string]any{"x": 0.0, "y": 0.0, "z": 0.0}
			if t, ok := a.Base.(godot.Transform3D); ok && a.HasBase {
				out["value"] = toJSON(s.file, t.Origin)
			}
		} else {
			out["value"] = toJSON(s.file, a.Value.(godot.Transform3D).Origin)
		}
	}
	if tn != nil && !tn.Declared() {
		out["override"] = true
		if s.ed.MadeEditable {
			out["editable_children"] = true
		}
		s.pruned(n)
	}
	return s.commit(ctx, call, fmt.Sprintf("Set %s.%s", n.Name(), a.Property), out)
}

func defaultJSON(f *godot.File, class, prop string) any {
	if d, ok := db().DefaultValue(class, prop); ok {
		return toJSON(f, d)
	}
	return nil
}

type nodeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func deleteNode(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := normalizeNodePath(in.NodePath)
	if err := s.editor(ctx, call).Delete(in.NodePath); err != nil {
		return sdk.Result{}, err
	}
	return s.commit(ctx, call, "Delete "+path.Base("/"+np), map[string]any{"node_path": np, "deleted": true})
}

func duplicateNode(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := normalizeNodePath(in.NodePath)
	c, err := s.editor(ctx, call).Duplicate(np)
	if err != nil {
		return sdk.Result{}, err
	}
	return s.commit(ctx, call, "Duplicate "+path.Base("/"+np), map[string]any{"node_path": c.Path(), "source_path": np})
}

type moveNodeArgs struct {
	NodePath      string        `json:"node_path" jsonschema:"path of the node to move, relative to the scene root"`
	NewParentPath string        `json:"new_parent_path" jsonschema:"path of the new parent (\".\" is the root)"`
	Index         *int          `json:"index,omitempty" default:"-1" minimum:"-1" jsonschema:"position among the new parent's children; -1 appends"`
	Scene         sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func moveNode(ctx context.Context, call *sdk.Call, in moveNodeArgs) (sdk.Result, error) {
	index := -1
	if in.Index != nil {
		index = *in.Index
	}
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.editor(ctx, call).Move(in.NodePath, in.NewParentPath, index)
	if err != nil {
		return sdk.Result{}, err
	}
	return s.commit(ctx, call, "Move "+n.Name(), map[string]any{"node_path": n.Path(), "moved": true})
}

type instanceArgs struct {
	ScenePath  sdk.ScenePath `json:"scene_path" jsonschema:"res:// path of the scene to instance"`
	ParentPath string        `json:"parent_path,omitempty" jsonschema:"path of the parent node; default \".\" (the root)"`
	Name       string        `json:"name,omitempty" jsonschema:"name of the instance; default: the instanced scene's root name"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func instanceScene(ctx context.Context, call *sdk.Call, in instanceArgs) (sdk.Result, error) {
	sp := string(in.ScenePath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	ed := s.editor(ctx, call)
	n, err := ed.Instance(in.ParentPath, in.Name, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"scene_path": sp, "instanced": true, "node_path": n.Path()}
	if ed.MadeEditable {
		out["editable_children"] = true
	}
	return s.commit(ctx, call, "Instance "+path.Base(sp), out)
}

type attachScriptArgs struct {
	NodePath   string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	ScriptPath sdk.ResPath   `json:"script_path" jsonschema:"res:// path of an existing script (.gd, .cs)"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func attachScript(ctx context.Context, call *sdk.Call, in attachScriptArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	sp := string(in.ScriptPath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	n, tn, err := s.override(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	// Headless only: in the editor the addon checks the script itself.
	if err := s.ed.AttachScript(n, sp); err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": np, "script_path": sp, "attached": true}
	if tn != nil && !tn.Declared() {
		out["override"] = true
		if s.ed.MadeEditable {
			out["editable_children"] = true
		}
	}
	return s.commit(ctx, call, "Attach script to "+n.Name(), out)
}

type editableArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of a node that instances another scene"`
	Editable *bool         `json:"editable,omitempty" jsonschema:"true (default) makes its children editable, false reverts"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func setEditableChildren(ctx context.Context, call *sdk.Call, in editableArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	editable := in.Editable == nil || *in.Editable
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	name, err := s.editor(ctx, call).SetEditable(np, editable)
	if err != nil {
		return sdk.Result{}, err
	}
	verb := "Enable"
	if !editable {
		verb = "Disable"
	}
	return s.commit(ctx, call, verb+" editable children of "+name, map[string]any{"node_path": np, "editable": editable})
}
