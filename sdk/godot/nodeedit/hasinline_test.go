package nodeedit

import "testing"

// HasInline finds an inline resource or a sub-resource reference anywhere
// in a value, also sent as JSON text (a client bound to a value
// argument's string type); paths and plain values are not inline.
func TestHasInline(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{map[string]any{"type": "RectangleShape2D"}, true},
		{map[string]any{"type": "RectangleShape2D", "properties": map[string]any{"size": []any{16.0, 32.0}}}, true},
		{map[string]any{"sub_resource": "RectangleShape2D_x4k2p"}, true},
		{[]any{1.0, map[string]any{"type": "Gradient"}}, true},
		{map[string]any{"a": map[string]any{"texture": map[string]any{"type": "GradientTexture2D"}}}, true},
		{`{"type": "RectangleShape2D", "properties": {"size": [16, 32]}}`, true},
		{` {"sub_resource": "1"}`, true},
		{`[{"type": "Gradient"}]`, true},
		{"res://shape.tres", false},
		{"uid://c7paddle0001", false},
		{`{"x": 1, "y": 2}`, false},
		{"[16, 32]", false},
		{"{not json", false},
		{map[string]any{"type": "Label", "name": "x"}, false}, // a node's description, not a resource
		{map[string]any{"x": 1.0, "y": 2.0}, false},
		{nil, false},
		{42.0, false},
	} {
		if got := HasInline(c.v); got != c.want {
			t.Errorf("HasInline(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}
