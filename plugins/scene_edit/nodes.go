package main

import (
	"context"
	"fmt"
	"path"
	"strings"

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
	parent := orDot(in.ParentPath)
	if err := db().ValidNodeTypeFor(in.NodeType, call.Workspace().GodotVersion(ctx)); err != nil {
		return sdk.Result{}, invalid("node_type", "pick an instantiable Node class (the message names the closest)", "%v", err)
	}
	s, p, err := loadNode(ctx, call, string(in.Scene), parent)
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.NodeName
	if name == "" {
		name = in.NodeType
	}
	if err := validName(name); err != nil {
		return sdk.Result{}, err
	}
	name = freeName(s.file, p.Path(), name)
	n, err := s.file.AddNode(p.Path(), name, in.NodeType)
	if err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, "Create "+name, map[string]any{"node_path": n.Path(), "created": true, "scene_path": s.path})
}

type renameNodeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	NewName  string        `json:"new_name" jsonschema:"the new name"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func renameNode(ctx context.Context, call *sdk.Call, in renameNodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	if err := validName(in.NewName); err != nil {
		return sdk.Result{}, err
	}
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := s.ownNode(n, np, "rename"); err != nil {
		return sdk.Result{}, err
	}
	old := n.Name()
	if err := s.file.RenameNode(n.Path(), in.NewName); err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, fmt.Sprintf("Rename %s to %s", old, in.NewName), map[string]any{
		"node_path": n.Path(), "old_name": old, "new_name": in.NewName, "renamed": true})
}

// ownNode refuses an edit of n that only the scene's own nodes allow, when
// an instanced or inherited scene defines it: np is the path as the call
// named it, verb the edit ("rename", "delete", "duplicate").
func (s *scene) ownNode(n *godot.Node, np, verb string) error {
	if n.Declared() {
		return nil
	}
	return invalid(requiredNodePath, instancedHint(s, n, verb),
		"'%s' belongs to an instanced or inherited scene and cannot be %sd here", np, verb)
}

// instancedHint names the scene that defines a node this scene only
// overrides, as the place to verb it.
func instancedHint(s *scene, n *godot.Node, verb string) string {
	for q := n.Path(); q != "."; {
		if i := strings.LastIndex(q, "/"); i >= 0 {
			q = q[:i]
		} else {
			q = "."
		}
		if a := s.file.Node(q); a != nil {
			if inst, ok := a.Instance(); ok {
				if d := s.file.ExtResource(inst.ID); d != nil {
					return verb + " it in " + d.Path() + ", the scene that defines it"
				}
			}
		}
	}
	return verb + " it in the scene that defines it"
}

type setPropertyArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	Property string        `json:"property" jsonschema:"property name, e.g. position (see godot_inspection_get_node_property_list)"`
	Value    any           `json:"value" jsonschema:"the value as JSON, coerced to the property's type; null clears a resource"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func setNodeProperty(ctx context.Context, call *sdk.Call, in setPropertyArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	class := nodeClass(ctx, call, s.file, n)
	prop, raw := in.Property, in.Value
	if prop == "position" && db().Inherits(class, "Node3D") {
		// A 3D node saves its position as the origin of transform.
		if raw, err = withOrigin(n, raw); err != nil {
			return sdk.Result{}, err
		}
		prop = "transform"
	}
	v, clear, err := propertyValue(ctx, call, s, n, class, prop, raw)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": np, "property": in.Property, "value": toJSON(s.file, v), "set": true}
	if clear {
		n.Clear(prop)
		out["value"] = defaultJSON(s.file, class, prop)
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
		}
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
		if si := nodeScript(ctx, call, s.file, n); si != nil {
			if t, ok := si.vars[prop]; ok {
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
	if !ok || !strings.HasPrefix(p, "res://") {
		return nil, invalid(requiredValue, "pass a res:// path of an existing resource, or null to clear it",
			"Object properties accept a res:// path or null; got %s", godot.DescribeJSON(raw))
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
	rt, uid := resourceType(ctx, call, p)
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
	np := normalizeNodePath(in.NodePath)
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	if n.IsRoot() {
		return sdk.Result{}, invalid(requiredNodePath, "delete its children instead, or create a new scene", "Cannot delete the scene root.")
	}
	if err := s.ownNode(n, np, "delete"); err != nil {
		return sdk.Result{}, err
	}
	name := n.Name()
	if err := s.file.RemoveNode(n.Path()); err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, "Delete "+name, map[string]any{"node_path": np, "deleted": true})
}

func duplicateNode(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	if n.IsRoot() {
		return sdk.Result{}, invalid(requiredNodePath, "duplicate a child node, or copy the scene file", "Cannot duplicate the scene root.")
	}
	if err := s.ownNode(n, np, "duplicate"); err != nil {
		return sdk.Result{}, err
	}
	c, err := s.file.DuplicateNode(n.Path(), "")
	if err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, "Duplicate "+n.Name(), map[string]any{"node_path": c.Path(), "source_path": np})
}

type moveNodeArgs struct {
	NodePath      string        `json:"node_path" jsonschema:"path of the node to move, relative to the scene root"`
	NewParentPath string        `json:"new_parent_path" jsonschema:"path of the new parent (\".\" is the root)"`
	Index         *int          `json:"index,omitempty" default:"-1" minimum:"-1" jsonschema:"position among the new parent's children; -1 appends"`
	Scene         sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func moveNode(ctx context.Context, call *sdk.Call, in moveNodeArgs) (sdk.Result, error) {
	np, dest := normalizeNodePath(in.NodePath), normalizeNodePath(in.NewParentPath)
	index := -1
	if in.Index != nil {
		index = *in.Index
	}
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := s.node(dest)
	if err != nil {
		return sdk.Result{}, err
	}
	if n.IsRoot() {
		return sdk.Result{}, invalid(requiredNodePath, "move its children instead", "Cannot move the scene root.")
	}
	if p.Path() == n.Path() || strings.HasPrefix(p.Path()+"/", n.Path()+"/") {
		return sdk.Result{}, invalid(requiredNodePath, "choose a parent outside the node's own subtree",
			"Cannot move '%s' into itself or one of its descendants ('%s').", np, dest)
	}
	name := n.Name()
	if err := s.file.MoveNodeTo(n.Path(), p.Path(), index); err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, "Move "+name, map[string]any{"node_path": n.Path(), "moved": true})
}

type instanceArgs struct {
	ScenePath  sdk.ScenePath `json:"scene_path" jsonschema:"res:// path of the scene to instance"`
	ParentPath string        `json:"parent_path,omitempty" jsonschema:"path of the parent node; default \".\" (the root)"`
	Name       string        `json:"name,omitempty" jsonschema:"name of the instance; default: the instanced scene's root name"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func instanceScene(ctx context.Context, call *sdk.Call, in instanceArgs) (sdk.Result, error) {
	parent := orDot(in.ParentPath)
	sp := string(in.ScenePath)
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	if sp == s.path {
		return sdk.Result{}, invalid(requiredScenePath, "instance a different scene", "a scene cannot instance itself (%s)", sp)
	}
	p, err := s.node(parent)
	if err != nil {
		return sdk.Result{}, err
	}
	src, err := call.Workspace().Read(ctx, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	uid := ""
	if sf, err := godot.ParseFile(sp, src.Data); err == nil && sf.Root() != nil {
		if name == "" {
			name = sf.Root().Name()
		}
		uid = sf.UID()
	} else if strings.HasSuffix(sp, ".tscn") {
		return sdk.Result{}, invalid(requiredScenePath, "fix or re-save that scene first", "%s does not load: %v", sp, err)
	}
	if name == "" {
		name = strings.TrimSuffix(path.Base(sp), path.Ext(sp))
	}
	if err := validName(name); err != nil {
		return sdk.Result{}, err
	}
	name = freeName(s.file, p.Path(), name)
	ref, err := s.file.AddExtResource("PackedScene", sp, uid)
	if err != nil {
		return sdk.Result{}, editError(err, requiredScenePath)
	}
	n, err := s.file.AddInstance(p.Path(), name, ref)
	if err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	return s.commit(ctx, call, "Instance "+path.Base(sp), map[string]any{"node_path": n.Path(), "scene_path": sp, "instanced": true})
}

type attachScriptArgs struct {
	NodePath   string        `json:"node_path" jsonschema:"path of the node relative to the scene root"`
	ScriptPath sdk.ResPath   `json:"script_path" jsonschema:"res:// path of an existing script (.gd, .cs)"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func attachScript(ctx context.Context, call *sdk.Call, in attachScriptArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	sp := string(in.ScriptPath)
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	// Headless only: in the editor the addon checks the script itself.
	fi, err := call.Workspace().Stat(ctx, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	if !fi.Exists {
		return sdk.Result{}, notFound("create it first (godot_scripts tools) or check the path", "No script at %s.", sp)
	}
	typ, uid := resourceType(ctx, call, sp)
	if typ != "Script" {
		return sdk.Result{}, invalid("script_path", "pass a .gd or .cs file", "%s is not a script", sp)
	}
	ref, err := s.file.AddExtResource("Script", sp, uid)
	if err != nil {
		return sdk.Result{}, editError(err, "script_path")
	}
	n.SetOrdered("script", ref, propertyRank(nodeClass(ctx, call, s.file, n)))
	return s.commit(ctx, call, "Attach script to "+n.Name(), map[string]any{"node_path": np, "script_path": sp, "attached": true})
}

type editableArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of a node that instances another scene"`
	Editable *bool         `json:"editable,omitempty" jsonschema:"true (default) makes its children editable, false reverts"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func setEditableChildren(ctx context.Context, call *sdk.Call, in editableArgs) (sdk.Result, error) {
	np := normalizeNodePath(in.NodePath)
	editable := in.Editable == nil || *in.Editable
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	if _, err := s.file.SetEditable(n.Path(), editable); err != nil {
		return sdk.Result{}, editError(err, requiredNodePath)
	}
	verb := "Enable"
	if !editable {
		verb = "Disable"
	}
	return s.commit(ctx, call, verb+" editable children of "+n.Name(), map[string]any{"node_path": np, "editable": editable})
}

func orDot(p string) string {
	if strings.TrimSpace(p) == "" {
		return "."
	}
	return normalizeNodePath(p)
}

// withOrigin returns the node's transform (identity when the file has
// none) with its origin set to the JSON vector raw, in Godot's text form
// for coerce.
func withOrigin(n *godot.Node, raw any) (any, error) {
	o, err := coerceProperty("position", "Vector3", raw, "")
	if err != nil {
		return nil, err
	}
	t := godot.Transform3D{Basis: godot.Basis{Rows: [3]godot.Vector3{{X: 1}, {Y: 1}, {Z: 1}}}}
	if v, ok := n.Get("transform"); ok {
		if cur, ok := v.(godot.Transform3D); ok {
			t = cur
		}
	}
	t.Origin = o.(godot.Vector3)
	return godot.FormatValue(t), nil
}
