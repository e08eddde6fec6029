package main

import (
	"context"
	"maps"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// The addon builds the nodes of cmd_compose_node and cmd_batch_create_nodes
// with a converter that leaves an Object property's value as it came
// (handlers/composite.gd, _build_node, from_json), and Godot does not
// assign a String to a Resource property: a res:// or uid:// path there
// would be dropped without a word. cmd_set_node_property loads the path
// (handlers/mutation.gd, object_from_json), so those values are held back
// from the build and set one by one after it, in the same editor.

// resourcePaths splits props of a node of class into what the build may
// carry and the resource paths to set afterwards (nil when none).
func resourcePaths(class string, props map[string]any) (keep, later map[string]any) {
	db := nodeedit.DB()
	return split(props, func(k string, v any) bool {
		// A String or NodePath property keeps its path: the build sets it.
		t, ok := db.PropertyType(class, k)
		return isPath(v) && ok && db.Exists(t)
	})
}

// pathValues splits props into the values cmd_apply_node_edits may carry
// and every res:// or uid:// string, for a node whose class is not known
// (later is nil when there is none).
func pathValues(props map[string]any) (keep, later map[string]any) {
	return split(props, func(_ string, v any) bool { return isPath(v) })
}

// split moves the properties held back by held from props to later
// (nil when none), leaving props itself as it is.
func split(props map[string]any, held func(k string, v any) bool) (keep, later map[string]any) {
	for k, v := range props {
		if !held(k, v) {
			continue
		}
		if later == nil {
			later, keep = map[string]any{}, maps.Clone(props)
		}
		later[k] = v
		delete(keep, k)
	}
	if later == nil {
		return props, nil
	}
	return keep, later
}

// isPath reports whether v is a res:// or uid:// path.
func isPath(v any) bool {
	s, ok := v.(string)
	return ok && (strings.HasPrefix(s, "res://") || strings.HasPrefix(s, "uid://"))
}

// heldBack is one node's resource paths to set after the build.
type heldBack struct {
	node  string // path relative to the scene root
	props map[string]any
}

// setHeldBack sets the held-back paths with cmd_set_node_property, in a
// stable order.
func setHeldBack(ctx context.Context, ed *sdk.Editor, held []heldBack) error {
	for _, h := range held {
		for _, k := range sortedKeys(h.props) {
			var out map[string]any
			if err := ed.Apply(ctx, "cmd_set_node_property", map[string]any{"node_path": h.node, "property": k, "value": h.props[k]}, &out); err != nil {
				return err
			}
		}
	}
	return nil
}
