package classdb_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// res records the resources Coerce declares.
func res(declared *[]string) classdb.ResourceFunc {
	return func(typ, path string) (godot.Value, error) {
		*declared = append(*declared, typ+" "+path)
		return godot.ExtResource{ID: "1"}, nil
	}
}

func TestCoerce(t *testing.T) {
	db := classdb.MustEmbedded()
	for _, c := range []struct {
		class, prop, json, want, declared string
	}{
		{"Node2D", "position", `[1,2]`, "Vector2(1, 2)", ""},
		{"Node2D", "position", `{"x":1,"y":2}`, "Vector2(1, 2)", ""},
		{"Sprite2D", "modulate", `"#ff0000"`, "Color(1, 0, 0, 1)", ""},
		{"Sprite2D", "modulate", `"red"`, "Color(1, 0, 0, 1)", ""},
		{"Node", "process_mode", `"PROCESS_MODE_ALWAYS"`, "3", ""},
		{"Node", "process_mode", `"always"`, "3", ""},
		{"Node", "process_mode", `3`, "3", ""},
		{"CollisionObject2D", "collision_layer", `5`, "5", ""},
		{"Control", "size_flags_horizontal", `"SIZE_FILL|SIZE_EXPAND"`, "3", ""},
		{"Control", "size_flags_horizontal", `["SIZE_FILL","SIZE_EXPAND"]`, "3", ""},
		{"Sprite2D", "texture", `"res://icon.svg"`, `ExtResource("1")`, "Texture2D res://icon.svg"},
		{"Sprite2D", "texture", `"uid://abc"`, `ExtResource("1")`, "Texture2D uid://abc"},
		{"Sprite2D", "texture", `null`, "null", ""},
		{"Node2D", "script", `"res://a.gd"`, `ExtResource("1")`, "Script res://a.gd"},
		{"Control", "size", `[10,20]`, "Vector2(10, 20)", ""},
		{"ColorRect", "color", `{"r":0,"g":1,"b":0}`, "Color(0, 1, 0, 1)", ""},
		{"", "anything", `2`, "2", ""},
		{"", "anything", `"Vector2(1, 2)"`, "Vector2(1, 2)", ""},
	} {
		var declared []string
		v, err := db.Coerce(c.class, c.prop, jsonValue(t, c.json), res(&declared))
		if err != nil {
			t.Errorf("Coerce(%s.%s, %s): %v", c.class, c.prop, c.json, err)
			continue
		}
		if got := godot.FormatValue(v); got != c.want || strings.Join(declared, ";") != c.declared {
			t.Errorf("Coerce(%s.%s, %s) = %s declaring %q, want %s declaring %q", c.class, c.prop, c.json, got, declared, c.want, c.declared)
		}
	}
}

func TestCoerceRefuses(t *testing.T) {
	db := classdb.MustEmbedded()
	for _, c := range []struct {
		class, prop, json, msg string
	}{
		{"Node2D", "position", `[1,2,3]`, `property "position": [1,2,3] is not a Vector2 (3 numbers; a Vector2 has 2); pass {"x":…,"y":…}, [x, y] or "Vector2(x, y)"`},
		{"Node", "process_mode", `"SOMETIMES"`, `"SOMETIMES" is not one of its constants`},
		{"Node", "process_mode", `["PROCESS_MODE_ALWAYS"]`, "a list is only for flags"},
		{"Sprite2D", "texture", `"icon.svg"`, `pass a "res://" or "uid://" path of a Texture2D, or null`},
		{"Sprite2D", "texture", `3`, `property "texture": 3 is not a Texture2D`},
		{"Node2D", "script", `3`, `property "script"`},
		{"", "anything", `[1,2]`, "does not name the node's class"},
	} {
		_, err := db.Coerce(c.class, c.prop, jsonValue(t, c.json), res(new([]string)))
		var ve *godot.ValueError
		if !errors.As(err, &ve) || !errors.Is(err, godot.ErrInvalid) || !strings.Contains(err.Error(), c.msg) || ve.Property != c.prop {
			t.Errorf("Coerce(%s.%s, %s) = %v, want a ValueError with %q", c.class, c.prop, c.json, err, c.msg)
		}
	}
	_, err := db.Coerce("Node2D", "postion", 1.0, nil)
	var up *classdb.UnknownPropertyError
	if !errors.As(err, &up) || up.Suggestion != "position" || !errors.Is(err, godot.ErrNotFound) {
		t.Errorf("unknown property: %v (%+v)", err, up)
	}
}

// FuzzCoerce: any JSON for any property of a few classes converts to a
// value the writer prints and the parser reads back, or fails with one of
// the converter's errors; nothing panics.
func FuzzCoerce(f *testing.F) {
	for _, s := range []string{`1`, `"ALWAYS"`, `"A|B"`, `["SIZE_FILL",2]`, `"res://a.png"`, `[1,2,3]`, `"#fff"`, `null`} {
		for _, prop := range []string{"process_mode", "size_flags_horizontal", "texture", "position", "modulate", "script", "nope"} {
			f.Add(s, prop)
		}
	}
	db := classdb.MustEmbedded()
	f.Fuzz(func(t *testing.T, js, prop string) {
		var v any
		if json.Unmarshal([]byte(js), &v) != nil {
			return
		}
		for _, class := range []string{"Sprite2D", "Control", ""} {
			out, err := db.Coerce(class, prop, v, classdb.ResourceFunc(func(string, string) (godot.Value, error) { return godot.ExtResource{ID: "1"}, nil }))
			if err != nil {
				var ve *godot.ValueError
				var up *classdb.UnknownPropertyError
				if !errors.As(err, &ve) && !errors.As(err, &up) {
					t.Fatalf("Coerce(%s.%s, %s): unexpected error %v", class, prop, js, err)
				}
				continue
			}
			if _, err := godot.ParseValue([]byte(godot.FormatValue(out))); err != nil {
				t.Fatalf("Coerce(%s.%s, %s) = %s, which does not parse", class, prop, js, godot.FormatValue(out))
			}
		}
	})
}
