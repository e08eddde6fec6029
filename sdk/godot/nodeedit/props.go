package nodeedit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// UnknownPropertyError is [Scene.SetProperty]'s refusal of a property the
// node does not have: not one of its class, its script's variables, a
// theme override or metadata. Batch edits skip such nodes (see
// [UnknownProperty]); the agent sees it as INVALID_ARGUMENT (Required
// "property") worded as the editor addon words it.
type UnknownPropertyError struct {
	Class, Property string
}

func (e *UnknownPropertyError) Error() string {
	return fmt.Sprintf("Node has no property '%s' (%s).", e.Property, e.Class)
}

// UnknownProperty reports whether err is SetProperty's refusal of a
// property the node does not have (an *UnknownPropertyError).
func UnknownProperty(err error) bool {
	var up *UnknownPropertyError
	return errors.As(err, &up)
}

// Assignment is what [Scene.Set] did to a node.
type Assignment struct {
	// Class is the node's class.
	Class string
	// Property is the property written: the one asked, or "transform"
	// for a 3D node's position, which Godot saves as its origin.
	Property string
	// Value is the value written (as the engine holds it); nil when
	// Cleared.
	Value godot.Value
	// Cleared: the value was null, the class default or (for a node of an
	// instanced scene) that scene's value, so the property was removed
	// from the section, as the editor saves only what differs.
	Cleared bool
	// Base is the value the instanced scene gives the property, read
	// from BaseFile; HasBase says whether it gives one.
	Base     godot.Value
	BaseFile *godot.File
	HasBase  bool
}

// Now is the value the node has after the edit: Value, or when Cleared
// the instanced scene's value or the class default (godot.Nil when
// neither is known).
func (a Assignment) Now() godot.Value {
	switch {
	case !a.Cleared:
		return a.Value
	case a.HasBase:
		return a.Base
	}
	if d, ok := DB().DefaultValue(a.Class, a.Property); ok {
		return d
	}
	return godot.Nil{}
}

// SetProperty is [Scene.Set] returning the value the node has after it
// (Assignment.Now).
func (s *Scene) SetProperty(n *godot.Node, prop string, raw any) (godot.Value, error) {
	a, err := s.Set(n, prop, raw)
	if err != nil {
		return nil, err
	}
	return a.Now(), nil
}

// Set converts and sets one property of a node as the editor saves it:
//
//   - checked against the node's class, else its script's variables
//     (typed as declared: a Node-typed variable holds a NodePath relative
//     to the node and is listed in node_paths; a Resource-typed one an
//     ext_resource), a Control's theme overrides and metadata/…; an
//     unknown one is an *UnknownPropertyError;
//   - a res:// or uid:// path declared as an ext_resource with its uid,
//     after checking the file exists and holds a resource of the
//     property's class; an inline resource becomes a [sub_resource] (one
//     the value replaces goes when nothing else uses it);
//   - null, the class default or, on a node of an instanced scene, that
//     scene's value clears the property;
//   - placed among the node's properties in the order Godot saves them;
//   - a 3D node's position is saved as the origin of its transform;
//   - "script" is [Scene.AttachScript] (null detaches the script).
//
// A value that does not convert leaves the scene as it was. n is a
// section of the scene; for a node of an instanced scene, the one
// [Scene.Override] returned.
func (s *Scene) Set(n *godot.Node, prop string, raw any) (Assignment, error) {
	s.sync()
	tn := s.overrides[n]
	class := s.class(n)
	if class == "" {
		class = NodeClass(s.ctx, s.call, s.Doc, n)
	}
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	a := Assignment{Class: class, Property: prop}
	if prop == "script" {
		return a, s.setScript(n, &a, raw)
	}
	var err error
	if prop == "position" && s.db.Inherits(class, "Node3D") {
		// A 3D node saves its position as the origin of transform.
		if raw, err = withOrigin(n, tn, raw); err != nil {
			return a, err
		}
		a.Property = "transform"
	}
	v, clear, err := s.propertyValue(n, class, a.Property, raw)
	if err != nil {
		return a, err
	}
	// Over an instanced scene the value to compare with is the one that
	// scene gives (the editor saves only what differs from it), not the
	// class default.
	if tn != nil {
		a.Base, a.BaseFile, a.HasBase = tn.Base(a.Property)
	}
	if a.HasBase && v != nil {
		clear = godot.Equal(v, a.Base)
	}
	if clear {
		n.Clear(a.Property)
		a.Cleared = true
	} else {
		n.SetOrdered(a.Property, v, s.db.PropertyRank(class))
		a.Value = v
	}
	s.markNodeRef(n, a.Property, clear)
	s.Edited = true
	return a, nil
}

// setScript attaches the script at raw (a res:// or uid:// path), or
// detaches the node's script for null.
func (s *Scene) setScript(n *godot.Node, a *Assignment, raw any) error {
	switch p := raw.(type) {
	case nil:
		n.Clear("script")
		a.Cleared = true
		s.Edited = true
		return nil
	case string:
		if err := s.AttachScript(n, p); err != nil {
			return err
		}
		a.Value, _ = n.Get("script")
		return nil
	}
	return Invalid("value", "pass the res:// path of a script (.gd, .cs), or null to detach it",
		"Setting 'script' failed: %s is not a script path", godot.DescribeJSON(raw))
}

// propertyValue checks a property against the node's class (or script)
// and converts the JSON value. clear means the value is the class default
// (or null), so the property is removed from the file, as Godot saves it.
func (s *Scene) propertyValue(n *godot.Node, class, prop string, raw any) (godot.Value, bool, error) {
	cdb := s.db
	if prop == "name" {
		return nil, false, Invalid("property", "use godot_scene_edit_rename_node to rename a node", "'name' is not set as a property")
	}
	if strings.HasPrefix(prop, "metadata/") {
		return infer(raw), raw == nil, nil
	}
	if t, ok := themeOverrideType(class, prop); ok {
		if raw == nil {
			return nil, true, nil
		}
		if isObjectType(t) {
			v, err := s.objectValue(prop, t, raw)
			return v, v == nil, err
		}
		v, err := convert(prop, t, raw, "pass a value of type "+t)
		return v, false, err
	}
	p, ok := cdb.Property(class, prop)
	if !ok || class == "" {
		if si := s.Script(n); si != nil {
			if t, ok := si.Vars[prop]; ok {
				if raw == nil {
					return nil, true, nil
				}
				v, err := s.scriptVarValue(n, t, prop, raw)
				return v, false, err
			}
		}
		if class == "" {
			return nil, false, Invalid("property", "set it in the Godot editor, which knows the instanced scene",
				"the class of '%s' is not known (its scene could not be read), so '%s' cannot be checked", n.Path(), prop)
		}
		hint := "godot_inspection_get_node_property_list lists the node's properties"
		if sug := cdb.PropertyHint(class, prop); sug != "" {
			hint = sug + " " + hint
		}
		up := &UnknownPropertyError{Class: class, Property: prop}
		return nil, false, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "property", Message: up.Error(), Hint: hint, Err: up}
	}
	if !p.Saved() {
		return nil, false, Invalid("property", "set the saved properties it is derived from instead: offset_left/top/right/bottom "+
			"for a Control's position and size, position/rotation/scale for a transform",
			"Godot does not save '%s' of %s in scenes (it is computed from other properties)", prop, class)
	}
	typ, _ := cdb.PropertyType(class, prop)
	if d, ok := cdb.DefaultValue(class, prop); ok && d.Kind() == godot.KindStringName && typ == "String" {
		typ = "StringName"
	}
	if isObjectType(typ) {
		v, err := s.objectValue(prop, typ, raw)
		return v, v == nil, err
	}
	if raw == nil {
		return nil, true, nil // back to the default
	}
	v, err := convert(prop, typ, raw, "pass a value of the property's type ("+typ+"); see the encodings in the tool description")
	if err != nil {
		return nil, false, err
	}
	// As the engine holds it, so it is written as the editor writes it.
	v = cdb.Stored(class, prop, v)
	return v, cdb.IsDefault(class, prop, v), nil
}

// ConvertType converts the JSON value v to typ, as a property's type is
// spelled in the class database or a script ("Array[int]" too), with no
// resources (classdb's DB.CoerceType).
func ConvertType(typ string, v any) (godot.Value, error) {
	if elem, ok := strings.CutPrefix(typ, "Array["); ok {
		typ = classdb.TypedArrayPrefix + strings.TrimSuffix(elem, "]")
	}
	return DB().CoerceType(typ, v, nil)
}

// convert converts the JSON value of prop to typ (ConvertType), or
// refuses it as [Err] does (hint when the converter names no shapes).
func convert(prop, typ string, raw any, hint string) (godot.Value, error) {
	v, err := ConvertType(typ, raw)
	if err != nil {
		return nil, valueErr(prop, err, hint)
	}
	return v, nil
}

// valueErr is the refusal of a value for prop that does not convert:
// "Setting 'prop' failed: …" naming what was given (and, inside an inline
// resource, the property of it: 'shape.size'), with a hint saying what to
// pass (the converter's shapes, else hint). Required "value".
func valueErr(prop string, err error, hint string) error {
	msg := err.Error()
	var ve *godot.ValueError
	if errors.As(err, &ve) {
		short := *ve
		short.Accepted, short.Property = "", ""
		if ve.Property != "" {
			prop = ve.Property
		}
		if ve.Accepted != "" {
			hint = "pass " + ve.Accepted
		}
		msg = short.Error()
	}
	if prop != "" {
		msg = fmt.Sprintf("Setting '%s' failed: %s", prop, msg)
	}
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "value", Hint: hint, Message: msg, Err: err}
}

// infer converts JSON to the closest Variant, for untyped script variables
// and metadata: numbers without a fraction become int.
func infer(v any) godot.Value {
	if val, err := godot.FromJSON(v, ""); err == nil {
		return val
	}
	return godot.String(godot.DescribeJSON(v))
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
		if DB().Exists(t) {
			return true
		}
	}
	return false
}

// objectValue turns a res:// or uid:// path into an ext_resource
// reference of the scene (declared once, with its uid; an existing
// declaration is reused) after checking the file holds a resource of typ,
// an inline resource or sub-resource reference into a sub-resource
// (inlineValue), or null into nil (clear). prop names the property in
// errors ("" for a path inside an inline resource).
func (s *Scene) objectValue(prop, typ string, raw any) (godot.Value, error) {
	if raw == nil {
		return nil, nil
	}
	p, ok := raw.(string)
	if ok && strings.HasPrefix(strings.TrimSpace(p), "{") {
		// An inline resource sent as JSON text, by a client that sends
		// value arguments as strings (their schema type).
		if j, isJSON := godot.JSONText(p); isJSON {
			raw, p, ok = j, "", false
		}
	}
	if _, isMap := raw.(map[string]any); isMap || ok && strings.Contains(p, "::") {
		return s.inlineValue(prop, typ, raw)
	}
	if ok && strings.HasPrefix(p, "uid://") {
		res, err := s.resolveUID(p)
		if err != nil {
			return nil, err
		}
		p, raw = res, res
	}
	if !ok || !strings.HasPrefix(p, "res://") {
		return nil, Invalid("value", "pass a res:// path of an existing resource, an inline resource "+
			`{"type": "<class>", "properties": {…}}, {"sub_resource": "<id>"} for one the scene has, or null to clear it`,
			"Object properties accept a res:// path, an inline resource or null; got %s", godot.DescribeJSON(raw))
	}
	p, err := sdk.CleanResPath("value", p)
	if err != nil {
		return nil, err
	}
	fi, err := s.ws.Stat(s.ctx, p)
	if err != nil {
		return nil, err
	}
	if !fi.Exists || fi.IsDir {
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Required: "value",
			Message: fmt.Sprintf("no resource at %s", p), Hint: "godot_project_search_files finds project files"}
	}
	rt, uid := ResourceType(s.ctx, s.call, p)
	want := strings.Split(typ, ",")
	if rt == "" {
		rt = want[0]
	}
	okType := false
	for _, w := range want {
		okType = okType || rt == w || s.db.Inherits(rt, w)
	}
	if !okType {
		return nil, Invalid("value", "pass a resource of type "+typ, "%s is a %s, not a %s", p, rt, typ)
	}
	ref, err := s.Doc.AddExtResource(rt, p, uid)
	if err != nil {
		return nil, EditError(err, "value")
	}
	return ref, nil
}

// inlineValue converts an inline resource ({"type", "properties"}, nested
// to any depth) into new [sub_resource] sections of the scene, or a
// sub-resource reference ({"sub_resource": id}, "res://scene.tscn::id")
// into the scene's existing one; res:// paths inside become
// ext_resources as objectValue makes them. A value that fails leaves no
// sub-resource behind.
func (s *Scene) inlineValue(prop, typ string, raw any) (godot.Value, error) {
	res := s.Resources()
	v, err := s.db.CoerceType(typ, raw, res)
	if err != nil {
		res.Discard()
		var ve *godot.ValueError
		if errors.As(err, &ve) && prop != "" {
			if ve.Property != "" {
				ve.Property = prop + "." + ve.Property
			} else {
				ve.Property = prop
			}
		}
		return nil, Err(err)
	}
	return v, nil
}

// themeOverrideType is the type of a Control's theme override property
// ("theme_override_colors/font_color"), which the class database does not
// list: the engine makes them per theme item.
func themeOverrideType(class, prop string) (string, bool) {
	group, _, ok := strings.Cut(prop, "/")
	if !ok || !DB().Inherits(class, "Control") && !DB().Inherits(class, "Window") {
		return "", false
	}
	t, ok := map[string]string{
		"theme_override_colors": "Color", "theme_override_constants": "int",
		"theme_override_font_sizes": "int", "theme_override_fonts": "Font",
		"theme_override_styles": "StyleBox", "theme_override_icons": "Texture2D",
	}[group]
	return t, ok
}

// withOrigin returns the node's transform (its effective one, identity
// when no scene sets it) with its origin set to the JSON vector raw, in
// Godot's text form for the converter.
func withOrigin(n *godot.Node, tn *godot.TreeNode, raw any) (any, error) {
	o, err := convert("position", "Vector3", raw, "")
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

// CheckProps refuses the first property of props (in the order Godot saves
// them) that class does not have, with the closest name or the Godot 3
// rename as the hint, before anything is written or sent. arg names the
// argument that holds props.
func CheckProps(arg, class string, props map[string]any) error {
	d := DB()
	for _, k := range SortedKeys(class, props) {
		if _, ok := d.Property(class, k); ok {
			continue
		}
		hint := `godot_describe_class({"class_name":"` + class + `","members":"properties","inherited":true}) lists its properties`
		if h := d.PropertyHint(class, k); h != "" {
			hint = h
		}
		return Invalid(arg, hint, "%s has no property '%s' (in %s)", class, k, arg)
	}
	return nil
}

// EditorProps checks props against class (CheckProps) and spells them for
// the editor addon, which converts a value to the property's type but
// knows no enum names: a name (BG_SKY, "Sky") becomes its number. An
// inline resource is refused: the addon takes resources only as paths.
func EditorProps(arg, class string, props map[string]any) (map[string]any, error) {
	if err := CheckProps(arg, class, props); err != nil {
		return nil, err
	}
	if HasInline(props) {
		return nil, EditorInline(arg)
	}
	d := DB()
	out := make(map[string]any, len(props))
	for k, v := range props {
		out[k] = v
		s, ok := v.(string)
		if !ok {
			continue
		}
		if t, _ := d.PropertyType(class, k); t == "int" || strings.Contains(t, "::") || strings.Contains(t, ".") {
			if c, err := d.Coerce(class, k, s, nil); err == nil {
				if i, ok := c.(godot.Int); ok {
					out[k] = int64(i)
				}
			}
		}
	}
	return out, nil
}

// ChildPath is the path the editor gives a new child name of parent
// (before a clash renames it).
func ChildPath(parent, name string) string {
	if p := OrDot(parent); p != "." {
		return p + "/" + name
	}
	return name
}
