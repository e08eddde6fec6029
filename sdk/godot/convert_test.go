package godot_test

import (
	"encoding/json"
	"errors"
	"strings"
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
		{`true`, "int", "1"},
		{`3`, "float", "3.0"},
		{`"1.5"`, "float", "1.5"},
		{`true`, "bool", "true"},
		{`0`, "bool", "false"},
		{`"false"`, "bool", "false"},
		{`"hi"`, "String", `"hi"`},
		{`3`, "String", `"3"`},
		{`"a/b"`, "NodePath", `NodePath("a/b")`},
		{`"x"`, "StringName", `&"x"`},
		{`{"x":1,"y":2.5}`, "Vector2", "Vector2(1, 2.5)"},
		{`[640,480]`, "Vector2i", "Vector2i(640, 480)"},
		{`"Vector2i(3, 4)"`, "Vector2i", "Vector2i(3, 4)"},
		{`"[3, 4]"`, "typedarray::int", "Array[int]([3, 4])"},
		{`"[1, 2.5]"`, "typedarray::float", "Array[float]([1.0, 2.5])"},
		{`"Array[String]([\"a\"])"`, "typedarray::String", `Array[String](["a"])`},
		{`" Vector2(1, 2) "`, "Vector2", "Vector2(1, 2)"},
		{`{"x":1,"y":2,"z":3}`, "Vector3", "Vector3(1, 2, 3)"},
		{`[1,2,3]`, "Vector3i", "Vector3i(1, 2, 3)"},
		{`[1,2,3,4]`, "Vector4", "Vector4(1, 2, 3, 4)"},
		{`{"x":1,"y":2,"z":3,"w":4}`, "Vector4i", "Vector4i(1, 2, 3, 4)"},
		{`[0,0,0,1]`, "Quaternion", "Quaternion(0, 0, 0, 1)"},
		{`{"x":0,"y":0,"z":0,"w":1}`, "Quaternion", "Quaternion(0, 0, 0, 1)"},
		{`"#ff000080"`, "Color", "Color(1, 0, 0, 0.5019608)"},
		{`"#ff0000"`, "Color", "Color(1, 0, 0, 1)"},
		{`"00ff00"`, "Color", "Color(0, 1, 0, 1)"},
		{`"#f00"`, "Color", "Color(1, 0, 0, 1)"},
		{`"#f008"`, "Color", "Color(1, 0, 0, 0.53333336)"},
		{`"red"`, "Color", "Color(1, 0, 0, 1)"},
		{`"cornflower_blue"`, "Color", "Color(0.39215687, 0.58431375, 0.92941177, 1)"},
		{`"Cornflower Blue"`, "Color", "Color(0.39215687, 0.58431375, 0.92941177, 1)"},
		{`"TRANSPARENT"`, "Color", "Color(1, 1, 1, 0)"},
		{`"Color(1, 0, 0, 1)"`, "Color", "Color(1, 0, 0, 1)"},
		{`[1,0,0]`, "Color", "Color(1, 0, 0, 1)"},
		{`[1,0,0,0.5]`, "Color", "Color(1, 0, 0, 0.5)"},
		{`{"r":0,"g":0,"b":1}`, "Color", "Color(0, 0, 1, 1)"},
		{`{"position":{"x":0,"y":0},"size":[4,5]}`, "Rect2", "Rect2(0, 0, 4, 5)"},
		{`{"x":1,"y":2,"width":3,"height":4}`, "Rect2", "Rect2(1, 2, 3, 4)"},
		{`[1,2,3,4]`, "Rect2", "Rect2(1, 2, 3, 4)"},
		{`[1,2,3,4]`, "Rect2i", "Rect2i(1, 2, 3, 4)"},
		{`{"position":[1,2],"size":{"x":3,"y":4}}`, "Rect2i", "Rect2i(1, 2, 3, 4)"},
		{`"Rect2(0, 0, 4, 5)"`, "Rect2", "Rect2(0, 0, 4, 5)"},
		{`{"position":[1,2,3],"size":[4,5,6]}`, "AABB", "AABB(1, 2, 3, 4, 5, 6)"},
		{`[1,2,3,4,5,6]`, "AABB", "AABB(1, 2, 3, 4, 5, 6)"},
		{`{"normal":[0,1,0],"d":2}`, "Plane", "Plane(0, 1, 0, 2)"},
		{`{"x":0,"y":1,"z":0,"d":2}`, "Plane", "Plane(0, 1, 0, 2)"},
		{`[0,1,0,2]`, "Plane", "Plane(0, 1, 0, 2)"},
		{`{"x":[1,0],"y":[0,1],"origin":[5,6]}`, "Transform2D", "Transform2D(1, 0, 0, 1, 5, 6)"},
		{`[1,0,0,1,5,6]`, "Transform2D", "Transform2D(1, 0, 0, 1, 5, 6)"},
		{`"Transform2D(1, 0, 0, 1, 5, 6)"`, "Transform2D", "Transform2D(1, 0, 0, 1, 5, 6)"},
		{`[1,0,0,0,1,0,0,0,1]`, "Basis", "Basis(1, 0, 0, 0, 1, 0, 0, 0, 1)"},
		{`{"x":[1,2,3],"y":[4,5,6],"z":[7,8,9]}`, "Basis", "Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)"},
		{`{"basis":[1,0,0,0,1,0,0,0,1],"origin":[1,2,3]}`, "Transform3D", "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)"},
		{`{"x":[1,0,0],"y":[0,1,0],"z":[0,0,1],"origin":[1,2,3]}`, "Transform3D", "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)"},
		{`[1,0,0,0,1,0,0,0,1,1,2,3]`, "Transform3D", "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)"},
		{`["a","b"]`, "PackedStringArray", `PackedStringArray("a", "b")`},
		{`[1,2]`, "PackedInt32Array", "PackedInt32Array(1, 2)"},
		{`[1,2]`, "PackedInt64Array", "PackedInt64Array(1, 2)"},
		{`[0.5]`, "PackedFloat32Array", "PackedFloat32Array(0.5)"},
		{`[0.5]`, "PackedFloat64Array", "PackedFloat64Array(0.5)"},
		{`[0,255]`, "PackedByteArray", "PackedByteArray(0, 255)"},
		{`[[1,2],{"x":3,"y":4}]`, "PackedVector2Array", "PackedVector2Array(1, 2, 3, 4)"},
		{`[[1,2,3]]`, "PackedVector3Array", "PackedVector3Array(1, 2, 3)"},
		{`["#ff0000",[0,1,0]]`, "PackedColorArray", "PackedColorArray(1, 0, 0, 1, 0, 1, 0, 1)"},
		{`"PackedVector2Array(1, 2)"`, "PackedVector2Array", "PackedVector2Array(1, 2)"},
		{`[[1,2],[3,4]]`, "typedarray::Vector2", "Array[Vector2]([Vector2(1, 2), Vector2(3, 4)])"},
		{`[1,2]`, "typedarray::int", "Array[int]([1, 2])"},
		{`{"1":"a"}`, "typeddictionary::int;String", "Dictionary[int, String]({\n1: \"a\"\n})"},
		{`[1,"a"]`, "Array", `[1, "a"]`},
		{`{"b":1,"a":2.5}`, "Dictionary", "{\n\"a\": 2.5,\n\"b\": 1\n}"},
		{`2`, "enum::Node.ProcessMode", "2"},
		{`1.5`, "", "1.5"},
		{`2`, "", "2"},
		{`null`, "Texture2D", "null"},
	}
	ok = append(ok, []struct{ json, typ, want string }{
		// str() text, as ToJSON returns the types the addon leaves to
		// JSON.stringify, reads back.
		{`"[X: (1, 0), Y: (0, 1), O: (5, 6)]"`, "Transform2D", "Transform2D(1, 0, 0, 1, 5, 6)"},
		{`"[X: (1, 2, 3), Y: (4, 5, 6), Z: (7, 8, 9)]"`, "Basis", "Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)"},
		{`"[X: (1, 0, 0), Y: (0, 1, 0), Z: (0, 0, 1), O: (1, 2, 3)]"`, "Transform3D", "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)"},
		{`"[N: (0, 1, 0), D: 2]"`, "Plane", "Plane(0, 1, 0, 2)"},
		{`"[P: (1, 2, 3), S: (4, 5, 6)]"`, "AABB", "AABB(1, 2, 3, 4, 5, 6)"},
		{`"(0, 0, 0, 1)"`, "Quaternion", "Quaternion(0, 0, 0, 1)"},
		{`"(1, 2)"`, "Vector2", "Vector2(1, 2)"},
		{`"[(1, 2), (3, 4.5)]"`, "PackedVector2Array", "PackedVector2Array(1, 2, 3, 4.5)"},
		{`"[0, 7, 255]"`, "PackedByteArray", "PackedByteArray(0, 7, 255)"},
		{`"[]"`, "PackedColorArray", "PackedColorArray()"},
	}...)
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
}

// A value that does not fit is refused with a ValueError that says what was
// given, why, and what to pass: never cut or padded to fit.
func TestFromJSONRefuses(t *testing.T) {
	bad := []struct{ json, typ, reason string }{
		{`1.5`, "int", "not a whole number"},
		{`"x"`, "int", ""},
		{`"1"`, "bool", ""},
		{`[1]`, "String", ""},
		{`{"x":1}`, "Vector2", "it has no y"},
		{`[1,2,3]`, "Vector2", "3 numbers; a Vector2 has 2"},
		{`[1]`, "Vector3", "1 numbers; a Vector3 has 3"},
		{`{"x":1,"y":2,"z":3}`, "Vector2", `it has "z"`},
		{`[1.5,2]`, "Vector2i", "whole numbers"},
		{`[1,"a"]`, "Vector2", "element 1"},
		{`"bluish"`, "Color", "not a colour name"},
		{`[1,0]`, "Color", "2 numbers; a Color has 3 or 4"},
		{`[1,0,0,1,1]`, "Color", "5 numbers"},
		{`"Vector3(1, 2, 3)"`, "Vector2", "it is a Vector3"},
		{`"Vector2(1, "`, "Vector2", "not valid Godot text"},
		{`"Array[String]([\"a\"])"`, "typedarray::int", "it is an Array[String]"},
		{`"[1, \"a\"]"`, "typedarray::int", "element 1 is a String"},
		{`"Vector2(1, 2)"`, "typedarray::int", "it is a Vector2"},
		{`[[1]]`, "PackedStringArray", "element 0"},
		{`[256]`, "PackedByteArray", "element 0, 256"},
		{`[1.5]`, "PackedInt32Array", "element 0"},
		{`[[1,2,3]]`, "PackedVector2Array", "element 0"},
		{`{"size":[1,1]}`, "Rect2", "it has no position"},
		{`[1,2,3]`, "Rect2", "3 numbers"},
		{`[1,2,3,4.5]`, "Rect2i", "whole numbers"},
		{`[1,2,3,4,5]`, "Transform2D", "5 numbers"},
		{`{"x":[1,0],"y":[0,1]}`, "Transform2D", "it has no origin"},
		{`3`, "Array", ""},
		{`[1,"a"]`, "typedarray::int", "element 1"},
		{`"PROCESS_MODE_ALWAYS"`, "enum::Node.ProcessMode", ""},
		{`1.5`, "enum::Node.ProcessMode", "not a whole number"},
		{`"res://a.png"`, "Texture2D", ""},
		{`"(1, 2, 3)"`, "Vector2", "3 numbers; the text of a Vector2 has 2"},
		{`"[X: (1, 0), Y: (0, one)]"`, "Transform2D", "not the text str() prints"},
		{`"[(1, 2), (3)]"`, "PackedVector2Array", "whole elements"},
	}
	for _, c := range bad {
		v, err := godot.FromJSON(decode(t, c.json), c.typ)
		var ve *godot.ValueError
		if err == nil || !errors.Is(err, godot.ErrInvalid) || !errors.As(err, &ve) {
			t.Errorf("FromJSON(%s, %s) = %v, %v; want a ValueError", c.json, c.typ, v, err)
			continue
		}
		if ve.Type != c.typ || ve.Accepted == "" || !strings.Contains(ve.Reason, c.reason) || !strings.Contains(err.Error(), ve.Given) {
			t.Errorf("FromJSON(%s, %s): %+v", c.json, c.typ, ve)
		}
	}
}

func TestToJSON(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"Vector2(1, 2.5)", `{"x":1,"y":2.5}`},
		{"Vector2i(1, 2)", `{"x":1,"y":2}`},
		{"Vector4i(1, 2, 3, 4)", `{"w":4,"x":1,"y":2,"z":3}`},
		{"Color(1, 0, 0, 1)", `{"a":1,"b":0,"g":0,"r":1}`},
		{"Rect2i(1, 2, 3, 4)", `{"position":{"x":1,"y":2},"size":{"x":3,"y":4}}`},
		{`NodePath("a/b")`, `"a/b"`},
		{`&"n"`, `"n"`},
		{"PackedFloat32Array(0.1, 2)", `[0.1,2]`},
		{`{1: "a", Vector2(1, 2): 3}`, `{"(1, 2)":3,"1":"a"}`},
		{"Transform2D(1, 0, 0, 1, 5, 6)", `"[X: (1, 0), Y: (0, 1), O: (5, 6)]"`},
		{"Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)", `"[X: (1, 2, 3), Y: (4, 5, 6), Z: (7, 8, 9)]"`},
		{"Quaternion(0, 0, 0, 1)", `"(0, 0, 0, 1)"`},
		{"Plane(0, 1, 0, 2)", `"[N: (0, 1, 0), D: 2]"`},
		{"AABB(1, 2, 3, 4, 5, 6)", `"[P: (1, 2, 3), S: (4, 5, 6)]"`},
		{"PackedVector2Array(1, 2)", `"[(1, 2)]"`},
		{`Object(InputEventKey,"keycode":4194309)`, `"InputEventKey"`},
		{`ExtResource("1")`, `"ExtResource(\"1\")"`},
	} {
		v, err := godot.ParseValue([]byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		b, _ := json.Marshal(godot.ToJSON(v))
		if string(b) != c.want {
			t.Errorf("ToJSON(%s) = %s, want %s", c.src, b, c.want)
		}
	}
}

func TestToJSONInResolvesReferences(t *testing.T) {
	f, err := godot.ParseFile("res://a.tscn", []byte("[gd_scene format=3]\n\n[ext_resource type=\"Texture2D\" path=\"res://icon.svg\" id=\"1\"]\n\n[sub_resource type=\"RectangleShape2D\" id=\"s\"]\n\n[node name=\"A\" type=\"Node2D\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    godot.Value
		want any
	}{
		{godot.ExtResource{ID: "1"}, "res://icon.svg"},
		{godot.ExtResource{ID: "9"}, nil},
		{godot.SubResource{ID: "s"}, "res://a.tscn::s"},
	} {
		if got := godot.ToJSONIn(c.v, f, ""); got != c.want {
			t.Errorf("ToJSONIn(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	arr := godot.ToJSONIn(godot.Array{Items: []godot.Value{godot.ExtResource{ID: "1"}}}, f, "")
	if b, _ := json.Marshal(arr); string(b) != `["res://icon.svg"]` {
		t.Errorf("array of references: %s", b)
	}
}

// ToJSON and FromJSON agree: a value survives the trip through JSON.
func TestJSONRoundTrip(t *testing.T) {
	for _, src := range []string{"Vector2(1, 2)", "Vector3i(1, 2, 3)", "Vector4(1, 2, 3, 4)", "Color(0.5, 0.25, 1, 1)",
		"Transform2D(1, 0, 0, 1, 5, 6)", "Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)", "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)",
		"Plane(0, 1, 0, 2.5)", "AABB(1, 2, 3, 4, 5, 6)", "Quaternion(0, 0, 0, 1)", "PackedVector2Array(1, 2, 3, 4)",
		"PackedColorArray(1, 0, 0, 1)", "PackedByteArray(1, 2)",
		`PackedStringArray("a")`, "PackedInt32Array(1, 2)", "PackedFloat32Array(0.5)", "Rect2i(1, 2, 3, 4)", "Rect2(1, 2, 3, 4)",
		`NodePath("a")`, "true", "7", "2.5", `[1, "a"]`} {
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
	for _, s := range []string{`1`, `"#fff"`, `"red"`, `[1,2]`, `[1,2,3]`, `[1,2,3,4,5,6]`, `{"x":1,"y":2}`, `{"position":[1,2],"size":[3,4]}`,
		`"Vector2(1, 2)"`, `null`, `{"a":[1,{"b":2}]}`, `{"x":[1,0],"y":[0,1],"origin":[0,0]}`} {
		for _, typ := range []string{"", "int", "float", "bool", "Vector2", "Vector2i", "Vector4i", "Quaternion", "Color", "Rect2", "Rect2i",
			"AABB", "Plane", "Transform2D", "Basis", "Transform3D", "PackedStringArray", "PackedByteArray", "PackedVector2Array",
			"PackedColorArray", "Dictionary", "Array", "String", "typedarray::Vector2", "typeddictionary::int;String", "enum::X"} {
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
		// What ToJSON gives for the value (str() text for transforms)
		// converts back to the same value.
		b, err := json.Marshal(godot.ToJSON(out))
		if err != nil {
			return // NaN and infinities have no JSON
		}
		var back any
		_ = json.Unmarshal(b, &back)
		again, err := godot.FromJSON(back, typ)
		if err != nil || godot.FormatValue(again) != text {
			t.Fatalf("FromJSON(%s, %q) = %s; its ToJSON %s converts back to %v (%v)", js, typ, text, b, again, err)
		}
	})
}

func TestNormalizeNodePath(t *testing.T) {
	for in, want := range map[string]string{
		"": ".", ".": ".", "/": ".", "/root": ".", "root": ".", "/root/": ".", " /root/Player ": "Player",
		"/root/Player/Sprite": "Player/Sprite", "Player/": "Player", "./Player": "Player", "././A/B": "A/B",
		"/Player": "Player", "Root": "Root", "rootling": "rootling",
	} {
		if got := godot.NormalizeNodePath(in); got != want {
			t.Errorf("NormalizeNodePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// A value argument sent as a string (its schema type) may be the JSON text
// of a list or an object: it converts as the JSON value would, except
// into String types, which keep the text.
func TestFromJSONTextOfListsAndObjects(t *testing.T) {
	for _, c := range []struct {
		in   any
		typ  string
		want string
	}{
		{"[16, 32]", "Vector2", "Vector2(16, 32)"},
		{` {"x": 1, "y": 2} `, "Vector2i", "Vector2i(1, 2)"},
		{"[1, 0, 0, 1]", "Color", "Color(1, 0, 0, 1)"},
		{"[1, 2]", "String", `"[1, 2]"`},
		{"42", "int", "42"},
	} {
		v, err := godot.FromJSON(c.in, c.typ)
		if err != nil {
			t.Errorf("FromJSON(%q, %s): %v", c.in, c.typ, err)
			continue
		}
		if got := godot.FormatValue(v); got != c.want {
			t.Errorf("FromJSON(%q, %s) = %s, want %s", c.in, c.typ, got, c.want)
		}
	}
	if _, err := godot.FromJSON("[1, 2, 3]", "Vector2"); err == nil {
		t.Error("the JSON text of three numbers became a Vector2")
	}
}
