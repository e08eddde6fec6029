package main

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
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
	Value    any           `json:"value" jsonschema:"the value as JSON, coerced to the property's type; for a resource: a res:// path, an inline resource {\"type\": \"RectangleShape2D\", \"properties\": {\"size\": [16, 32]}} (nested to any depth) made a [sub_resource] of the scene, or {\"sub_resource\": \"<id>\"} for one the scene has, or null to clear it"`
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
	class := nodeedit.NodeClass(ctx, call, s.file, n)
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	prop, raw := in.Property, in.Value
	if prop == "position" && db().Inherits(class, "Node3D") {
		// A 3D node saves its position as the origin of transform.
		if raw, err = withOrigin(n, tn, raw); err != nil {
			return sdk.Result{}, err
		}
		prop = "transform"
	}
	v, clear, err := propertyValue(ctx, call, s, n, class, prop, raw)
	if err != nil {
		return sdk.Result{}, err
	}
	// Over an instanced scene the value to compare with is the one that
	// scene gives (the editor saves only what differs from it), not the
	// class default.
	var base godot.Value
	var baseFile *godot.File
	hasBase := false
	if tn != nil {
		base, baseFile, hasBase = tn.Base(prop)
	}
	if hasBase && v != nil {
		clear = godot.Equal(v, base)
	}
	out := map[string]any{"node_path": np, "property": in.Property, "value": toJSON(s.file, v), "set": true}
	if clear {
		n.Clear(prop)
		out["value"] = defaultJSON(s.file, class, prop)
		if hasBase {
			out["value"] = godot.ToJSONIn(base, baseFile, "")
		}
		out["default"] = true
	} else {
		n.SetOrdered(prop, v, propertyRank(class))
	}
	markNodeRef(ctx, call, s, n, prop, clear)
	if prop != in.Property {
		out["value"] = toJSON(s.file, v.(godot.Transform3D).Origin)
		out["saved_as"] = prop
		if clear {
			out["value"] = map[string]any{"x": 0.0, "y": 0.0, "z": 0.0}
			if t, ok := base.(godot.Transform3D); ok && hasBase {
				out["value"] = toJSON(s.file, t.Origin)
			}
		}
	}
	if tn != nil && !tn.Declared() {
		out["override"] = true
		if s.ed.MadeEditable {
			out["editable_children"] = true
		}
		s.pruned(n)
	}
	return s.commit(ctx, call, fmt.Sprintf("Set %s.%s", n.Name(), prop), out)
}

func defaultJSON(f *godot.File, class, prop string) any {
	if d, ok := db().DefaultValue(class, prop); ok {
		return toJSON(f, d)
	}
	return nil
}

// propertyValue checks a property against the node's class (or script) and
// converts the JSON value. clear means the value is the class default (or
// null), so the property is removed from the file, as Godot saves it.
func propertyValue(ctx context.Context, call *sdk.Call, s *scene, n *godot.Node, class, prop string, raw any) (godot.Value, bool, error) {
	cdb := db()
	if prop == "name" {
		return nil, false, invalid("property", "use godot_scene_edit_rename_node to rename a node", "'name' is not set as a property")
	}
	if prop == "script" {
		return nil, false, invalid("property", "use godot_scene_edit_attach_script", "'script' is set with attach_script")
	}
	if strings.HasPrefix(prop, "metadata/") {
		return infer(raw), raw == nil, nil
	}
	if t, ok := themeOverrideType(class, prop); ok {
		if raw == nil {
			return nil, true, nil
		}
		if isObjectType(t) {
			v, err := objectValue(ctx, call, s, t, raw)
			return v, v == nil, err
		}
		v, err := coerceProperty(prop, t, raw, "pass a value of type "+t)
		return v, false, err
	}
	p, ok := cdb.Property(class, prop)
	if !ok || class == "" {
		if si := s.ed.Script(n); si != nil {
			if t, ok := si.Vars[prop]; ok {
				if raw == nil {
					return nil, true, nil
				}
				v, err := scriptVarValue(ctx, call, s, n, t, prop, raw)
				return v, false, err
			}
		}
		if class == "" {
			return nil, false, invalid("property", "set it in the Godot editor, which knows the instanced scene",
				"the class of '%s' is not known (its scene could not be read), so '%s' cannot be checked", n.Path(), prop)
		}
		hint := "godot_inspection_get_node_property_list lists the node's properties"
		if sug := cdb.PropertyHint(class, prop); sug != "" {
			hint = sug + " " + hint
		}
		return nil, false, invalid("property", hint, "Node has no property '%s' (%s).", prop, class)
	}
	if !p.Saved() {
		return nil, false, invalid("property", "set the saved properties it is derived from instead: offset_left/top/right/bottom "+
			"for a Control's position and size, position/rotation/scale for a transform",
			"Godot does not save '%s' of %s in scenes (it is computed from other properties)", prop, class)
	}
	typ, _ := cdb.PropertyType(class, prop)
	if d, ok := cdb.DefaultValue(class, prop); ok && d.Kind() == godot.KindStringName && typ == "String" {
		typ = "StringName"
	}
	if isObjectType(typ) {
		v, err := objectValue(ctx, call, s, typ, raw)
		return v, v == nil, err
	}
	if raw == nil {
		return nil, true, nil // back to the default
	}
	v, err := coerceProperty(prop, typ, raw, "pass a value of the property's type ("+typ+"); see the encodings in the tool description")
	if err != nil {
		return nil, false, err
	}
	// As the engine holds it, so it is written as the editor writes it.
	v = cdb.Stored(class, prop, v)
	return v, cdb.IsDefault(class, prop, v), nil
}

func isBuiltinType(t string) bool {
	return godot.IsBuiltinType(t) || strings.HasPrefix(t, "Array[")
}

// isObjectType reports whether a property type names a class (a resource
// or node reference) rather than a Variant type.
func isObjectType(typ string) bool {
	if typ == "" || strings.Contains(typ, "::") {
		return false
	}
	for _, t := range strings.Split(typ, ",") {
		if db().Exists(t) {
			return true
		}
	}
	return false
}

// objectValue turns a res:// path into an ext_resource reference of the
// scene (declared once; an existing declaration is reused), or null into
// nil (clear).
func objectValue(ctx context.Context, call *sdk.Call, s *scene, typ string, raw any) (godot.Value, error) {
	if raw == nil {
		return nil, nil
	}
	p, ok := raw.(string)
	if _, isMap := raw.(map[string]any); isMap || ok && strings.Contains(p, "::") {
		return inlineValue(ctx, call, s, typ, raw)
	}
	if ok && strings.HasPrefix(p, "uid://") {
		res, err := nodeedit.ResolveUID(ctx, call, p)
		if err != nil {
			return nil, err
		}
		p, raw = res, res
	}
	if !ok || !strings.HasPrefix(p, "res://") {
		return nil, invalid(requiredValue, "pass a res:// path of an existing resource, an inline resource "+
			`{"type": "<class>", "properties": {…}}, {"sub_resource": "<id>"} for one the scene has, or null to clear it`,
			"Object properties accept a res:// path, an inline resource or null; got %s", godot.DescribeJSON(raw))
	}
	p, err := sdk.CleanResPath("value", p)
	if err != nil {
		return nil, err
	}
	fi, err := call.Workspace().Stat(ctx, p)
	if err != nil {
		return nil, err
	}
	if !fi.Exists || fi.IsDir {
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Required: requiredValue,
			Message: fmt.Sprintf("no resource at %s", p), Hint: "godot_project_search_files finds project files"}
	}
	rt, uid := nodeedit.ResourceType(ctx, call, p)
	want := strings.Split(typ, ",")
	if rt == "" {
		rt = want[0]
	}
	okType := false
	for _, w := range want {
		okType = okType || rt == w || db().Inherits(rt, w)
	}
	if !okType {
		return nil, invalid(requiredValue, "pass a resource of type "+typ, "%s is a %s, not a %s", p, rt, typ)
	}
	ref, err := s.file.AddExtResource(rt, p, uid)
	if err != nil {
		return nil, editError(err, requiredValue)
	}
	return ref, nil
}

// inlineValue converts an inline resource ({"type", "properties"}, nested
// to any depth) into new [sub_resource] sections of the scene, or a
// sub-resource reference ({"sub_resource": id}, "res://scene.tscn::id")
// into the scene's existing one; res:// paths inside become
// ext_resources as objectValue makes them. A value that fails leaves no
// sub-resource behind.
func inlineValue(ctx context.Context, call *sdk.Call, s *scene, typ string, raw any) (godot.Value, error) {
	res := &nodeedit.FileResources{Doc: s.file, Path: s.path, RefFunc: func(t, p string) (godot.Value, error) {
		return objectValue(ctx, call, s, t, p)
	}}
	v, err := db().CoerceType(typ, raw, res)
	if err != nil {
		res.Discard()
		if ne := nodeedit.Err(err); ne != err {
			return nil, ne
		}
		return nil, err
	}
	return v, nil
}

// themeOverrideType is the type of a Control's theme override property
// ("theme_override_colors/font_color"), which the class database does not
// list: the engine makes them per theme item.
func themeOverrideType(class, prop string) (string, bool) {
	group, _, ok := strings.Cut(prop, "/")
	if !ok || !db().Inherits(class, "Control") && !db().Inherits(class, "Window") {
		return "", false
	}
	t, ok := map[string]string{
		"theme_override_colors": "Color", "theme_override_constants": "int",
		"theme_override_font_sizes": "int", "theme_override_fonts": "Font",
		"theme_override_styles": "StyleBox", "theme_override_icons": "Texture2D",
	}[group]
	return t, ok
}

// propertyRank orders a node's properties as Godot saves them (classdb's
// DB.PropertyRank).
func propertyRank(class string) func(string) int { return db().PropertyRank(class) }

type nodeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func deleteNode(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	name := path.Base("/" + normalizeNodePath(in.NodePath))
	if err := s.editor(ctx, call).Delete(in.NodePath); err != nil {
		return sdk.Result{}, err
	}
	return s.commit(ctx, call, "Delete "+name, map[string]any{"node_path": normalizeNodePath(in.NodePath), "deleted": true})
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
	n, tn, err := s.lookup(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	name := path.Base("/" + np)
	if tn != nil {
		// Also an instance that an instanced scene declares: its path goes
		// through the outer instance, which becomes editable too.
		_, err = s.ed.Built().SetEditable(tn.Path(), editable)
	} else {
		_, err = s.file.SetEditable(n.Path(), editable)
		name = n.Name()
	}
	if err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	verb := "Enable"
	if !editable {
		verb = "Disable"
	}
	return s.commit(ctx, call, verb+" editable children of "+name, map[string]any{"node_path": np, "editable": editable})
}

func orDot(p string) string {
	if strings.TrimSpace(p) == "" {
		return "."
	}
	return normalizeNodePath(p)
}

// withOrigin returns the node's transform (its effective one, identity
// when no scene sets it) with its origin set to the JSON vector raw, in Godot's text form
// for coerce.
func withOrigin(n *godot.Node, tn *godot.TreeNode, raw any) (any, error) {
	o, err := coerceProperty("position", "Vector3", raw, "")
	if err != nil {
		return nil, err
	}
	t := godot.Transform3D{Basis: godot.Basis{Rows: [3]godot.Vector3{{X: 1}, {Y: 1}, {Z: 1}}}}
	v, ok := n.Get("transform")
	if !ok && tn != nil {
		v, _, ok = tn.Get("transform")
	}
	if ok {
		if cur, ok := v.(godot.Transform3D); ok {
			t = cur
		}
	}
	t.Origin = o.(godot.Vector3)
	return godot.FormatValue(t), nil
}
