package godot

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestFormatValue(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		want string
	}{
		{"nil", Nil{}, "null"},
		{"bool", Bool(true), "true"},
		{"int", Int(-12), "-12"},
		// Scalar floats always read back as floats: ".0" when needed.
		{"float one", Float(1), "1.0"},
		{"float fraction", Float(0.2), "0.2"},
		{"float small", Float(6e-05), "6e-05"},
		{"float tiny", Float(4e-07), "4e-07"},
		{"float negative", Float(-512), "-512.0"},
		{"float big", Float(1e21), "1e+21"},
		{"float zero", Float(0), "0.0"},
		{"float negative zero", Float(math.Copysign(0, -1)), "0.0"},
		{"float inf", Float(math.Inf(1)), "inf"},
		{"float -inf", Float(math.Inf(-1)), "inf_neg"},
		{"float nan", Float(math.NaN()), "nan"},
		// A value that is exactly a float32 uses the float32 shortest text.
		{"float32 exact", Float(float64(float32(0.1))), "0.1"},
		{"float64 only", Float(0.1), "0.1"},
		{"float32 pi/2", Float(float64(float32(1.5707964))), "1.5707964"},
		// Legacy 6-digit values written by older editors are stable.
		{"legacy 6 digits", Float(0.141176), "0.141176"},
		// Components of constructors get no ".0", and -0 becomes 0.
		{"vector2 zero", Vector2{0, 0}, "Vector2(0, 0)"},
		{"vector2 negative zero", Vector2{math.Copysign(0, -1), 1.5}, "Vector2(0, 1.5)"},
		{"vector2i", Vector2i{-1, 2}, "Vector2i(-1, 2)"},
		{"vector3", Vector3{1, 2, 3}, "Vector3(1, 2, 3)"},
		{"vector4i", Vector4i{1, 2, 3, 4}, "Vector4i(1, 2, 3, 4)"},
		{"rect2", Rect2{Vector2{1, 2}, Vector2{3, 4}}, "Rect2(1, 2, 3, 4)"},
		{"transform2d", Transform2D{Vector2{1, 0}, Vector2{0, 1}, Vector2{10, 20}}, "Transform2D(1, 0, 0, 1, 10, 20)"},
		{"basis", Basis{[3]Vector3{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}, "Basis(1, 2, 3, 4, 5, 6, 7, 8, 9)"},
		{"transform3d", Transform3D{Basis{[3]Vector3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, Vector3{1, 2, 3}}, "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3)"},
		{"projection", Projection{[4]Vector4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}}, "Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)"},
		{"plane", Plane{Vector3{0, 1, 0}, 2}, "Plane(0, 1, 0, 2)"},
		{"quaternion", Quaternion{0, 0, 0, 1}, "Quaternion(0, 0, 0, 1)"},
		{"aabb", AABB{Vector3{0, 0, 0}, Vector3{1, 1, 1}}, "AABB(0, 0, 0, 1, 1, 1)"},
		{"color", Color{0.219608, 0.372549, 0.380392, 1}, "Color(0.219608, 0.372549, 0.380392, 1)"},
		{"rid", RID{}, "RID()"},
		{"signal", Signal{}, "Signal()"},
		{"callable", Callable{}, "Callable()"},
		// Strings: a plain String escapes only \ and " (newlines stay raw).
		{"string", String("a\"b\\c\nd\te?'"), "\"a\\\"b\\\\c\nd\te?'\""},
		// StringName, NodePath and PackedStringArray items use the full C escape.
		{"stringname", StringName("a\"b\n?'"), `&"a\"b\n\?\'"`},
		{"nodepath", NodePath("A/B:x\t"), `NodePath("A/B:x\t")`},
		{"packed strings", PackedStringArray{"a", "b\nc"}, `PackedStringArray("a", "b\nc")`},
		{"array", Array{Items: []Value{Int(1), String("a"), Float(2)}}, `[1, "a", 2.0]`},
		{"typed array", Array{Type: &TypeRef{Name: "int"}, Items: []Value{Int(20), Int(80)}}, `Array[int]([20, 80])`},
		{"typed array script", Array{Type: &TypeRef{Script: ExtResource{ID: "2_x"}}}, `Array[ExtResource("2_x")]([])`},
		{"empty dictionary", Dictionary{}, "{}"},
		// Dictionaries: one entry per line, keys sorted.
		{"dictionary", Dictionary{Entries: []DictEntry{{String("b"), Int(1)}, {String("a"), Array{}}}}, "{\n\"a\": [],\n\"b\": 1\n}"},
		{"dictionary mixed keys", Dictionary{Entries: []DictEntry{{StringName("b"), Int(1)}, {String("a"), Int(2)}, {Int(5), Int(3)}}}, "{\n5: 3,\n\"a\": 2,\n&\"b\": 1\n}"},
		{"typed dictionary", Dictionary{KeyType: &TypeRef{Name: "String"}, ValueType: &TypeRef{Name: "int"}, Entries: []DictEntry{{String("a"), Int(1)}}}, "Dictionary[String, int]({\n\"a\": 1\n})"},
		{"half typed dictionary", Dictionary{ValueType: &TypeRef{Name: "int"}}, "Dictionary[Variant, int]({})"},
		// Objects end with ")\n", which puts array elements on new lines.
		{"object", Object{Class: "InputEventKey", Props: []ObjectProp{{"keycode", Int(65)}, {"script", Nil{}}}}, "Object(InputEventKey,\"keycode\":65,\"script\":null)\n"},
		{"objects in array", Array{Items: []Value{Object{Class: "A"}, Object{Class: "B"}}}, "[Object(A,)\n, Object(B,)\n]"},
		// PackedByteArray keeps the spelling it was read with.
		{"bytes as ints", PackedByteArray{Data: []byte{1, 2, 255}}, "PackedByteArray(1, 2, 255)"},
		{"bytes as base64", PackedByteArray{Data: []byte{1, 2, 255}, Base64: true}, `PackedByteArray("AQL/")`},
		{"empty bytes", PackedByteArray{Base64: true}, "PackedByteArray()"},
		{"int32s", PackedInt32Array{1, -2}, "PackedInt32Array(1, -2)"},
		{"float32s", PackedFloat32Array{0.141176, 1.5707964, 0}, "PackedFloat32Array(0.141176, 1.5707964, 0)"},
		{"float64s", PackedFloat64Array{0.1, 1}, "PackedFloat64Array(0.1, 1)"},
		{"vector2s", PackedVector2Array{{0, 0}, {480, 720.5}}, "PackedVector2Array(0, 0, 480, 720.5)"},
		{"vector4s", PackedVector4Array{{1, 2, 3, 4}}, "PackedVector4Array(1, 2, 3, 4)"},
		{"colors", PackedColorArray{{1, 1, 1, 1}}, "PackedColorArray(1, 1, 1, 1)"},
		{"ext", ExtResource{ID: "1_th3tw"}, `ExtResource("1_th3tw")`},
		{"sub", SubResource{ID: "RectangleShape2D_x"}, `SubResource("RectangleShape2D_x")`},
		{"resource", ResourceRef{Path: "res://a.tres"}, `Resource("res://a.tres")`},
		{"resource uid", ResourceRef{UID: "uid://b", Path: "res://a.tres"}, `Resource("uid://b", "res://a.tres")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FormatValue(tt.v)
			if got != tt.want {
				t.Fatalf("FormatValue = %q, want %q", got, tt.want)
			}
			// Everything the writer produces reads back.
			if _, err := ParseValue([]byte(got)); err != nil {
				t.Fatalf("output does not parse: %v", err)
			}
		})
	}
}

// Legacy 6-significant-digit floats must survive a parse/format round trip
// unchanged in every context that stores them.
func TestLegacyFloatsStable(t *testing.T) {
	for _, s := range []string{"0.141176", "0.219608", "0.372549", "105.959", "81.9594", "-0.000236", "1.5707964", "6e-05", "4e-07", "9e-22"} {
		for _, wrap := range []string{"Vector2(%s, 0)", "PackedFloat32Array(%s)", "PackedFloat64Array(%s)", "Color(%s, 0, 0, 1)"} {
			src := strings.Replace(wrap, "%s", s, 1)
			if got := FormatValue(mustParseValue(t, src)); got != src {
				t.Errorf("%s -> %s", src, got)
			}
		}
		if got := FormatValue(mustParseValue(t, s)); got != s {
			t.Errorf("scalar %s -> %s", s, got)
		}
	}
}

// The writer must reproduce every header and property of the corpus from its
// parsed value: that is what guarantees an edited file looks as the editor
// would have saved it.
func TestCanonicalWriterMatchesCorpus(t *testing.T) {
	total := 0
	for _, c := range loadCorpus(t) {
		var d *document
		if c.isConfig() {
			p, err := ParseProject(c.rel, c.data)
			if err != nil {
				t.Fatal(err)
			}
			d = p.doc
		} else {
			f, err := ParseFile(c.rel, c.data)
			if err != nil {
				t.Fatal(err)
			}
			d = f.doc
		}
		w := d.writer()
		for _, s := range d.sections {
			if !s.headerless && !d.config {
				fresh := *s
				fresh.fields = nil
				for _, f := range s.fields {
					fresh.fields = append(fresh.fields, field{name: f.name, value: f.value})
				}
				total++
				if got := fresh.appendHeader(nil, w); !bytes.Equal(got, s.doc.text(s.raw)) {
					t.Errorf("%s: header\n want %s\n  got %s", c.rel, s.doc.text(s.raw), got)
				}
			}
			for i := range s.entries {
				e := &s.entries[i]
				total++
				if got := w.append(nil, e.value); !bytes.Equal(got, s.doc.text(e.raw)[e.headLen:]) {
					t.Errorf("%s: %s\n want %.300s\n  got %.300s", c.rel, e.key, s.doc.text(e.raw)[e.headLen:], got)
				}
			}
		}
	}
	t.Logf("%d headers and properties re-rendered identically", total)
}

// In resource files the format field decides how byte arrays are spelled:
// format=3 writes integer lists, format=4 base64, even for small arrays.
func TestByteArraySpellingFollowsFileFormat(t *testing.T) {
	for _, tt := range []struct{ format, want string }{
		{"3", "PackedByteArray(1, 2)"},
		{"4", `PackedByteArray("AQI=")`},
	} {
		src := "[gd_resource type=\"Resource\" format=" + tt.format + "]\n\n[resource]\na = 1\n"
		f := mustParseFile(t, "r.tres", src)
		f.Resource().Set("data", PackedByteArray{Data: []byte{1, 2}})
		if got := string(f.Bytes()); !strings.Contains(got, "data = "+tt.want+"\n") {
			t.Errorf("format=%s: got\n%s", tt.format, got)
		}
	}
}

// The format=3|4 rule: a byte array over 64 bytes (or a PackedVector4Array)
// makes the file format=4, and then every byte array is base64; removing it
// goes back to format=3 with integer lists.
func TestFormatRule(t *testing.T) {
	src := "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nsmall = PackedByteArray(1, 2)\nname = \"x\"\n"
	f := mustParseFile(t, "r.tres", src)
	big := PackedByteArray{Data: bytes.Repeat([]byte{7}, 65)}
	f.Resource().Set("big", big)
	out := string(f.Bytes())
	for _, want := range []string{"format=4]", `small = PackedByteArray("AQI=")`, `big = PackedByteArray("BwcH`, `name = "x"`} {
		if !strings.Contains(out, want) {
			t.Errorf("after adding 65 bytes, missing %q in\n%s", want, out)
		}
	}
	f.Resource().Clear("big")
	if got := string(f.Bytes()); got != src {
		t.Errorf("after removing it again:\n%s\nwant the original\n%s", got, src)
	}

	// Exactly 64 bytes stays format=3.
	f = mustParseFile(t, "r.tres", src)
	f.Resource().Set("edge", PackedByteArray{Data: make([]byte, 64)})
	if out := string(f.Bytes()); !strings.Contains(out, "format=3]") {
		t.Errorf("64 bytes switched the format:\n%s", out)
	}

	// A PackedVector4Array forces format=4 as well.
	f = mustParseFile(t, "r.tres", src)
	f.Resource().Set("v4", PackedVector4Array{{1, 2, 3, 4}})
	if out := string(f.Bytes()); !strings.Contains(out, "format=4]") || !strings.Contains(out, `small = PackedByteArray("AQI=")`) {
		t.Errorf("PackedVector4Array did not switch to format=4:\n%s", out)
	}
}
