package main

import "testing"

// Only property values count as inline resources in editor mode: a
// command's {"type": "Label"} argument has the same shape and must pass.
func TestInlineLooksAtPropertyValuesOnly(t *testing.T) {
	for _, c := range []struct {
		args   any
		refuse bool
	}{
		{map[string]any{"commands": []any{map[string]any{"command": "find_nodes_by_type", "params": map[string]any{"type": "Label"}}}}, false},
		{map[string]any{"node_type": "Sprite2D", "children": []any{map[string]any{"type": "Sprite2D"}}}, false},
		{map[string]any{"properties": map[string]any{"shape": map[string]any{"type": "RectangleShape2D"}}}, true},
		{map[string]any{"edits": []any{map[string]any{"property": "shape", "value": map[string]any{"sub_resource": "Shape_1"}}}}, true},
		{map[string]any{"children": []any{map[string]any{"properties": map[string]any{"texture": map[string]any{"type": "GradientTexture2D", "properties": map[string]any{}}}}}}, true},
	} {
		if got := hasInlineProperty(c.args); got != c.refuse {
			t.Errorf("hasInlineProperty(%v) = %v, want %v", c.args, got, c.refuse)
		}
	}
}
