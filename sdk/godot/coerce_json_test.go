package godot_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

func decode(t testing.TB, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFromJSON(t *testing.T) {
	ok := []struct {
		json, typ, want string
	}{
		{`3`, "int", "3"},
		{`"42"`, "int", "42"},
		{`3`, "float", "3.0"},
		{`true`, "bool", "true"},
		{`"hi"`, "String", `"hi"`},
		{`"a/b"`, "NodePath", `NodePath("a/b")`},
		{`"x"`, "StringName", `&"x"`},
		{`{"x":1,"y":2.5}`, "Vector2", "Vector2(1, 2.5)"},
		{`[640,480]`, "Vector2i", "Vector2i(640, 480)"},
		{`"Vector2i(3, 4)"`, "Vector2i", "Vector2i(3, 4)"},
		{`{"x":1,"y":2,"z":3}`, "Vector3", "Vector3(1, 2, 3)"},
		{`"#ff000080"`, "Color", "Color(1, 0, 0, 0.5019608)"},
		{`"00ff00"`, "Color", "Color(0, 1, 0, 1)"},
		{`[1,0,0]`, "Color", "Color(1, 0, 0, 1)"},
		{`{"r":0,"g":0,"b":1}`, "Color", "Color(0, 0, 1, 1)"},
		{`{"position":{"x":0,"y":0},"size":[4,5]}`, "Rect2", "Rect2(0, 0, 4, 5)"},
		{`["a","b"]`, "PackedStringArray", `PackedStringArray("a", "b")`},
		{`[1,2]`, "PackedInt32Array", "PackedInt32Array(1, 2)"},
		{`[1,"a"]`, "Array", `[1, "a"]`},
		{`{"b":1,"a":2.5}`, "Dictionary", "{\n\"a\": 2.5,\n\"b\": 1\n}"},
		{`1.5`, "", "1.5"},
		{`2`, "", "2"},
		{`null`, "Texture2D", "null"},
	}
	for _, c := range ok {
		v, err := godot.FromJSON(decode(t, c.json), c.typ)
		if err != nil {
			t.Errorf("FromJSON(%s, %s): %v", c.json, c.typ, err)
			continue
		}
		if got := godot.FormatValue(v); got != c.want {
			t.Errorf("FromJSON(%s, %s) = %s, want %s", c.json, c.typ, got, c.want)
		}
	}
	bad := []struct{ json, typ string }{
		{`1.5`, "int"}, {`"x"`, "int"}, {`"1"`, "bool"}, {`3`, "String"}, {`{"x":1}`, "Vector2"},
		{`[1,2,3]`, "Vector2"}, {`{"x":1,"y":2,"q":3}`, "Vector2"}, {`[1.5,2]`, "Vector2i"}, {`"red"`, "Color"},
		{`"Vector3(1, 2, 3)"`, "Vector2"}, {`[1]`, "PackedStringArray"}, {`{"size":[1,1]}`, "Rect2"}, {`3`, "Array"},
	}
	for _, c := range bad {
		if v, err := godot.FromJSON(decode(t, c.json), c.typ); err == nil || !errors.Is(err, godot.ErrInvalid) {
			t.Errorf("FromJSON(%s, %s) = %v, %v; want an ErrInvalid", c.json, c.typ, v, err)
		}
	}
}

// ToJSON and FromJSON agree: a value survives the trip through JSON.
func TestJSONRoundTrip(t *testing.T) {
	for _, src := range []string{"Vector2(1, 2)", "Vector3i(1, 2, 3)", "Color(0.5, 0.25, 1, 1)", `PackedStringArray("a")`, "Rect2i(1, 2, 3, 4)", "true", "7", "2.5"} {
		v, err := godot.ParseValue([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(godot.ToJSON(v))
		back, err := godot.FromJSON(decode(t, string(b)), v.Kind().String())
		if err != nil || !godot.Equal(back, v) {
			t.Errorf("%s -> %s -> %v (%v)", src, b, back, err)
		}
	}
}

// FuzzFromJSON: any JSON and any type name either converts to a value the
// writer can print and the parser reads back, or fails with ErrInvalid.
func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{`1`, `"#fff"`, `[1,2]`, `{"x":1,"y":2}`, `"Vector2(1, 2)"`, `null`, `{"a":[1,{"b":2}]}`} {
		for _, typ := range []string{"", "int", "float", "Vector2", "Vector2i", "Color", "Rect2", "PackedStringArray", "Dictionary", "Array", "String"} {
			f.Add(s, typ)
		}
	}
	f.Fuzz(func(t *testing.T, js, typ string) {
		var v any
		if json.Unmarshal([]byte(js), &v) != nil {
			return
		}
		out, err := godot.FromJSON(v, typ)
		if err != nil {
			if !errors.Is(err, godot.ErrInvalid) {
				t.Fatalf("error without ErrInvalid: %v", err)
			}
			return
		}
		text := godot.FormatValue(out)
		if _, err := godot.ParseValue([]byte(text)); err != nil {
			t.Fatalf("FromJSON(%s, %q) wrote %q, which does not parse: %v", js, typ, text, err)
		}
	})
}
