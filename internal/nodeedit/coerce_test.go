package nodeedit

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

func TestCoerce(t *testing.T) {
	db := DB()
	noExt := func(typ, path string) (godot.Value, error) { return godot.String(typ + ":" + path), nil }
	ok := []struct {
		class, prop string
		in          any
		want        string
	}{
		{"Node2D", "position", []any{1.0, 2.5}, "Vector2(1, 2.5)"},
		{"Node2D", "position", map[string]any{"x": 3.0, "y": 4.0}, "Vector2(3, 4)"},
		{"Node2D", "position", "Vector2(5, 6)", "Vector2(5, 6)"},
		{"CanvasItem", "modulate", []any{1.0, 0.0, 0.0}, "Color(1, 0, 0, 1)"},
		{"Timer", "wait_time", 2.0, "2.0"},
		{"Timer", "one_shot", true, "true"},
		{"Label", "text", "Vector2(1, 2)", `"Vector2(1, 2)"`},
		{"Node", "process_mode", "PROCESS_MODE_ALWAYS", "3"},
		{"Node", "process_mode", 4.0, "4"},
		{"Sprite2D", "texture", "res://a.png", `"Texture2D:res://a.png"`},
		{"Sprite2D", "texture", nil, "null"},
		{"", "anything", 3.0, "3"},
		{"", "anything", 0.5, "0.5"},
	}
	for _, c := range ok {
		v, err := Coerce(db, c.class, c.prop, c.in, noExt)
		if err != nil {
			t.Errorf("%s.%s = %v: %v", c.class, c.prop, c.in, err)
			continue
		}
		if got := godot.FormatValue(v); got != c.want {
			t.Errorf("%s.%s = %v: got %s, want %s", c.class, c.prop, c.in, got, c.want)
		}
	}
	bad := []struct {
		class, prop string
		in          any
		want        string
	}{
		{"Node2D", "positon", 1.0, `did you mean "position"?`},
		{"Node2D", "pause_mode", 1.0, "pause_mode is the Godot 3 name; in Godot 4 it is process_mode"},
		{"RectangleShape2D", "extents", 1.0, "extents is the Godot 3 name; in Godot 4 it is size"},
		{"Node2D", "position", "left", `cannot make a Vector2 of "left"`},
		{"Node2D", "position", []any{1.0}, "cannot make a Vector2"},
		{"Timer", "wait_time", "Vector2(1, 2)", "expected float, got Vector2"},
		{"Node", "process_mode", 1.5, "not an integer"},
		{"Node", "process_mode", "SOMETIMES", "not a constant"},
		{"Sprite2D", "texture", 3.0, "expected a resource path"},
		{"Node", "script", "a.gd", "res:// path"},
	}
	for _, c := range bad {
		_, err := Coerce(db, c.class, c.prop, c.in, noExt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s.%s = %v: error %v, want %q", c.class, c.prop, c.in, err, c.want)
		}
	}
}
