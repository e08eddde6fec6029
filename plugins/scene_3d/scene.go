package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// commit writes the scene as one undoable action and answers out with
// dry_run and the files changed.
func commit(s *nodeedit.Scene, name string, out map[string]any) (sdk.Result, error) {
	res, err := s.Commit(name)
	if err != nil {
		return sdk.Result{}, err
	}
	out["scene_path"] = s.Path
	out["dry_run"] = res.DryRun
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// setProps sets props on the node n (of class), each checked against the
// class database and converted as the editor saves it.
func setProps(s *nodeedit.Scene, n *godot.Node, class string, props map[string]any) error {
	props, err := nodeedit.WithTransform(class, props)
	if err != nil {
		return err
	}
	for _, k := range nodeedit.SortedKeys(class, props) {
		if _, err := s.Set(n, k, props[k]); err != nil {
			return err
		}
	}
	return nil
}

// addNode creates a node of typ named name (default def) under parent and
// sets props on it.
func addNode(s *nodeedit.Scene, parent, name, typ string, props map[string]any) (*godot.Node, error) {
	n, err := s.CreateNode(parent, name, typ)
	if err != nil {
		return nil, err
	}
	return n, setProps(s, n, typ, props)
}

// inline is the converter's spelling of a new resource of class with
// props: {"type": class, "properties": props}.
func inline(class string, props map[string]any) map[string]any {
	if props == nil {
		props = map[string]any{}
	}
	return map[string]any{"type": class, "properties": props}
}

// isInline reports whether m is already an inline resource
// ({"type": ..., "properties": ...}).
func isInline(m map[string]any) bool {
	t, ok := m["type"].(string)
	if !ok || t == "" {
		return false
	}
	_, hasProps := m["properties"]
	return len(m) == 1 || len(m) == 2 && hasProps
}
