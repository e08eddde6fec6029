package main

import (
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// addNode creates a node of typ named name (default def) under parent and
// sets props on it.
func addNode(s *nodeedit.Scene, parent, name, typ string, props map[string]any) (*godot.Node, error) {
	n, err := s.CreateNode(parent, name, typ)
	if err != nil {
		return nil, err
	}
	return n, s.SetProps(n, typ, props)
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
