package nodeedit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// FileResources is the [classdb.Resources] of one scene or resource file
// being edited: paths become ext_resources (through RefFunc), inline
// resources new [sub_resource] sections with editor-form ids, and
// {"sub_resource": id} the file's existing one. One value's conversion
// that fails partway leaves sub-resources nothing uses: call Discard then.
type FileResources struct {
	Doc *godot.File
	// Path is the file's res:// path, which "res://x.tscn::id" must name.
	Path string
	// RefFunc declares a res:// or uid:// path; nil refuses paths.
	RefFunc classdb.ResourceFunc

	made []string
}

var _ classdb.Resources = (*FileResources)(nil)

// Ref declares a file through RefFunc.
func (r *FileResources) Ref(typ, path string) (godot.Value, error) {
	return r.RefFunc.Ref(typ, path)
}

// Sub returns the file's sub-resource id.
func (r *FileResources) Sub(file, id string) (string, godot.Value, error) {
	if file != "" && file != r.Path {
		return "", nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "value",
			Message: fmt.Sprintf("%s::%s is a sub-resource of another file; a file can only use its own sub-resources", file, id),
			Hint:    "pass an inline resource {\"type\": ..., \"properties\": {...}} to make a copy here, or save the resource as a .tres and pass its path"}
	}
	s := r.Doc.SubResource(id)
	if s == nil {
		return "", nil, &sdk.Error{Code: sdk.CodeNotFound, Required: "value",
			Message: fmt.Sprintf("%s has no sub-resource %q", r.Path, id), Hint: r.subHint()}
	}
	return s.Type(), s.Ref(), nil
}

func (r *FileResources) subHint() string {
	var ids []string
	for _, s := range r.Doc.SubResources() {
		ids = append(ids, s.ID())
	}
	if len(ids) == 0 {
		return "the file has no sub-resources; pass an inline resource {\"type\": ..., \"properties\": {...}} to make one"
	}
	if len(ids) > 12 {
		ids = append(ids[:12], "…")
	}
	return "its sub-resources are " + strings.Join(ids, ", ") + " (godot_resources_edit_list_sub_resources shows them)"
}

// Inline adds a [sub_resource] of class with props, in their order.
func (r *FileResources) Inline(class string, props []godot.Property) (godot.Value, error) {
	s, err := r.Doc.AddSubResource(class)
	if err != nil {
		return nil, EditError(err, "value")
	}
	for _, p := range props {
		s.Set(p.Key, p.Value)
	}
	r.made = append(r.made, s.ID())
	return s.Ref(), nil
}

// Made returns the ids of the sub-resources made so far.
func (r *FileResources) Made() []string { return slices.Clone(r.made) }

// Discard removes the sub-resources made since the last Discard or Keep
// that nothing refers to: what a failed conversion left behind.
func (r *FileResources) Discard() {
	if len(r.made) > 0 {
		r.Doc.RemoveSubResources(r.made...)
	}
	r.made = nil
}

// Keep forgets the sub-resources made so far (they are in use now).
func (r *FileResources) Keep() { r.made = nil }

// SubResourceJSON is a sub-resource as the tools show it: its class, id,
// path (the "res://file::id" a loaded one's resource_path reads) and
// properties (nested sub-resources shown the same way, to depth).
func SubResourceJSON(f *godot.File, path, id string, depth int) map[string]any {
	s := f.SubResource(id)
	if s == nil {
		return nil
	}
	props := map[string]any{}
	for _, p := range s.Properties() {
		props[p.Key] = ValueJSON(f, path, p.Value, depth-1)
	}
	return map[string]any{"type": s.Type(), "id": id, "path": path + "::" + id, "properties": props}
}

// ValueJSON is [godot.ToJSONIn] except that a sub-resource reference is the
// sub-resource itself ({"type", "id", "properties"}) up to depth levels
// down, then its "res://file::id" path.
func ValueJSON(f *godot.File, path string, v godot.Value, depth int) any {
	switch x := v.(type) {
	case godot.SubResource:
		if depth > 0 {
			if j := SubResourceJSON(f, path, x.ID, depth); j != nil {
				return j
			}
		}
	case godot.Array:
		if hasSub(v) {
			out := make([]any, len(x.Items))
			for i, it := range x.Items {
				out[i] = ValueJSON(f, path, it, depth)
			}
			return out
		}
	}
	return godot.ToJSONIn(v, f, path)
}

func hasSub(v godot.Value) bool {
	a, ok := v.(godot.Array)
	if !ok {
		return false
	}
	for _, it := range a.Items {
		if _, ok := it.(godot.SubResource); ok {
			return true
		}
	}
	return false
}

// HasInline reports whether the JSON value v holds, anywhere, an inline
// resource ({"type": ..., "properties": {...}}) or a sub-resource
// reference ({"sub_resource": id}), also as the JSON text of an object or
// a list (a client bound to a value argument's string type sends it so):
// the values the editor addon's commands cannot take, since they take a
// resource as a path.
func HasInline(v any) bool {
	switch x := v.(type) {
	case string:
		if j, ok := godot.JSONText(x); ok {
			return HasInline(j)
		}
	case map[string]any:
		if _, ok := x[classdb.SubResourceKey]; ok && len(x) == 1 {
			return true
		}
		if t, ok := x[classdb.InlineTypeKey].(string); ok && t != "" {
			if _, extra := x[classdb.InlinePropertiesKey]; len(x) == 1 || extra && len(x) == 2 {
				return true
			}
		}
		for _, e := range x {
			if HasInline(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if HasInline(e) {
				return true
			}
		}
	}
	return false
}

// EditorInline is the refusal of an inline resource in editor mode. The
// addon cannot build a resource from a description: the one command that
// converts a value to a resource, cmd_set_node_property, loads a res:// or
// uid:// path and refuses anything else ("Object properties accept a
// res:// path or null"), and the others (compose, batch and edits, the
// resource writers) pass an object-typed value through unconverted, so
// Godot drops it (ADDON-PROTOCOL §4.2; docs/two-modes.md says where in the
// addon).
func EditorInline(arg string) error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "headless",
		Message: arg + " holds an inline resource or a {\"sub_resource\": id} reference, which the Godot editor addon cannot build " +
			"(it takes a resource only as a res:// path, and loads one only in set_node_property)",
		Hint: "save the resource as a .tres with godot_resources_edit_create_resource {\"type\", \"path\", \"properties\"} " +
			"and set its res:// path with godot_scene_edit_set_node_property, " +
			"or detach the editor and edit the scene headless, where the inline resource becomes a [sub_resource]"}
}
