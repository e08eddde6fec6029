package godot

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func mustParseValue(t *testing.T, src string) Value {
	t.Helper()
	v, err := ParseValue([]byte(src))
	if err != nil {
		t.Fatalf("ParseValue(%q): %v", src, err)
	}
	return v
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		src  string
		want Value
	}{
		{`null`, Nil{}},
		{`nil`, Nil{}},
		{`true`, Bool(true)},
		{`false`, Bool(false)},
		{`42`, Int(42)},
		{`-7`, Int(-7)},
		{`9223372036854775807`, Int(math.MaxInt64)},
		{`99999999999999999999`, Int(math.MaxInt64)}, // saturates like String::to_int
		{`-99999999999999999999`, Int(math.MinInt64)},
		{`1.0`, Float(1)},
		{`0.2`, Float(0.2)},
		{`6e-05`, Float(6e-05)},
		{`1E3`, Float(1000)},
		{`2.5e`, Float(2.5)}, // empty exponent reads as absent
		{`1.`, Float(1)},
		{`-0.0`, Float(math.Copysign(0, -1))},
		{`inf`, Float(math.Inf(1))},
		{`-inf`, Float(math.Inf(-1))},
		{`inf_neg`, Float(math.Inf(-1))},
		{`"a\"b\\c\nd\te"`, String("a\"b\\c\nd\te")},
		{"\"raw\nnewline\"", String("raw\nnewline")},
		{`"\u00e9\U01F600"`, String("é😀")},
		{`"\ud83d\ude00"`, String("😀")},
		{`"\q\'\?"`, String("q'?")},
		{`&"name"`, StringName("name")},
		{`@"name"`, StringName("name")},
		{`NodePath("A/B:x")`, NodePath("A/B:x")},
		{`Vector2(1, -2.5)`, Vector2{1, -2.5}},
		{`Vector2(inf, nan)`, Vector2{math.Inf(1), math.NaN()}},
		{`Vector2i(1, 2)`, Vector2i{1, 2}},
		{`Vector2i(1.9, -2.9)`, Vector2i{1, -2}},
		{`Vector3(1, 2, 3)`, Vector3{1, 2, 3}},
		{`Vector3i(1, 2, 3)`, Vector3i{1, 2, 3}},
		{`Vector4(1, 2, 3, 4)`, Vector4{1, 2, 3, 4}},
		{`Vector4i(1, 2, 3, 4)`, Vector4i{1, 2, 3, 4}},
		{`Rect2(1, 2, 3, 4)`, Rect2{Vector2{1, 2}, Vector2{3, 4}}},
		{`Rect2i(1, 2, 3, 4)`, Rect2i{Vector2i{1, 2}, Vector2i{3, 4}}},
		{`Transform2D(1, 2, 3, 4, 5, 6)`, Transform2D{Vector2{1, 2}, Vector2{3, 4}, Vector2{5, 6}}},
		{`Matrix32(1, 2, 3, 4, 5, 6)`, Transform2D{Vector2{1, 2}, Vector2{3, 4}, Vector2{5, 6}}},
		{`Plane(0, 1, 0, 5)`, Plane{Vector3{0, 1, 0}, 5}},
		{`Quaternion(0, 0, 0, 1)`, Quaternion{0, 0, 0, 1}},
		{`Quat(0, 0, 0, 1)`, Quaternion{0, 0, 0, 1}},
		{`AABB(1, 2, 3, 4, 5, 6)`, AABB{Vector3{1, 2, 3}, Vector3{4, 5, 6}}},
		{`Rect3(1, 2, 3, 4, 5, 6)`, AABB{Vector3{1, 2, 3}, Vector3{4, 5, 6}}},
		{`Basis(1, 2, 3, 4, 5, 6, 7, 8, 9)`, Basis{[3]Vector3{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}},
		{`Matrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)`, Basis{[3]Vector3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
		{`Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9)`, Transform3D{Basis{[3]Vector3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, Vector3{7, 8, 9}}},
		{`Transform(1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9)`, Transform3D{Basis{[3]Vector3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, Vector3{7, 8, 9}}},
		{`Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)`, Projection{[4]Vector4{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}}},
		{`Color(1, 0.5, 0, 1)`, Color{1, 0.5, 0, 1}},
		{`#ff000080`, Color{1, 0, 0, 128.0 / 255}},
		{`#f00`, Color{1, 0, 0, 1}},
		{`RID()`, RID{}},
		{`RID(12)`, RID{ID: 12}},
		{`Signal()`, Signal{}},
		{`Callable()`, Callable{}},
		{`[]`, Array{}},
		{`[1, "a", [2],]`, Array{Items: []Value{Int(1), String("a"), Array{Items: []Value{Int(2)}}}}},
		{`{}`, Dictionary{}},
		{"{\n\"b\": 1,\n&\"a\": 2,\n}", Dictionary{Entries: []DictEntry{{String("b"), Int(1)}, {StringName("a"), Int(2)}}}},
		{`Array[int]([1, 2])`, Array{Type: &TypeRef{Name: "int"}, Items: []Value{Int(1), Int(2)}}},
		{`Array[Resource]([])`, Array{Type: &TypeRef{Name: "Resource"}}},
		{`Array[ExtResource("1_x")]([])`, Array{Type: &TypeRef{Script: ExtResource{ID: "1_x"}}}},
		{`Dictionary[String, int]({"a": 1})`, Dictionary{KeyType: &TypeRef{Name: "String"}, ValueType: &TypeRef{Name: "int"}, Entries: []DictEntry{{String("a"), Int(1)}}}},
		{`PackedByteArray()`, PackedByteArray{Data: []byte{}}},
		{`PackedByteArray(1, 2, 255)`, PackedByteArray{Data: []byte{1, 2, 255}}},
		{`PackedByteArray("AQL/")`, PackedByteArray{Data: []byte{1, 2, 255}, Base64: true}},
		{`PoolByteArray(1)`, PackedByteArray{Data: []byte{1}}},
		{`PackedInt32Array(1, -2)`, PackedInt32Array{1, -2}},
		{`PoolIntArray(1)`, PackedInt32Array{1}},
		{`PackedInt64Array(9007199254740993)`, PackedInt64Array{9007199254740993}},
		{`PackedFloat32Array(0.141176, 1.5707964)`, PackedFloat32Array{0.141176, 1.5707964}},
		{`PackedRealArray(1)`, PackedFloat32Array{1}},
		{`PackedFloat64Array(0.1)`, PackedFloat64Array{0.1}},
		{`PackedStringArray("a", "b\n")`, PackedStringArray{"a", "b\n"}},
		{`PoolStringArray()`, PackedStringArray(nil)},
		{`PackedVector2Array(1, 2, 3, 4)`, PackedVector2Array{{1, 2}, {3, 4}}},
		{`PackedVector3Array(1, 2, 3)`, PackedVector3Array{{1, 2, 3}}},
		{`PackedVector4Array(1, 2, 3, 4)`, PackedVector4Array{{1, 2, 3, 4}}},
		{`PackedColorArray(1, 1, 1, 1)`, PackedColorArray{{1, 1, 1, 1}}},
		{`Object(InputEventKey,"keycode":65,"script":null)`, Object{Class: "InputEventKey", Props: []ObjectProp{{"keycode", Int(65)}, {"script", Nil{}}}}},
		{`Object(Node)`, Object{Class: "Node"}},
		{`ExtResource("1_abc")`, ExtResource{ID: "1_abc"}},
		{`ExtResource(3)`, ExtResource{ID: "3"}},
		{`SubResource("Shape_x")`, SubResource{ID: "Shape_x"}},
		{`Resource("res://a.tres")`, ResourceRef{Path: "res://a.tres"}},
		{`Resource("uid://b", "res://a.tres")`, ResourceRef{UID: "uid://b", Path: "res://a.tres"}},
		{"  ; comment\n 5 ; trailing", Int(5)},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got := mustParseValue(t, tt.src)
			if !equalNaN(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// equalNaN is reflect.DeepEqual that also treats NaN as equal to NaN.
func equalNaN(a, b Value) bool {
	return FormatValue(a) == FormatValue(b) && reflect.TypeOf(a) == reflect.TypeOf(b) &&
		(Equal(a, b) || strings.Contains(FormatValue(a), "nan"))
}

func TestParseValueErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{``, 1, 1, "expected a value, found end of file"},
		{`Vector2(1, 2, 3)`, 1, 1, "Vector2 expects 2 numbers, found 3"},
		{`Vector2(1 2)`, 1, 11, "expected ',' or ')' in Vector2(...), found number 2"},
		{`Vector2(1,)`, 1, 11, "expected a number in Vector2(...), found ')'"},
		{`Color(1, 1, 1)`, 1, 1, "Color expects 4 numbers, found 3"},
		{"[1,\n 2\n 3]", 3, 2, "expected ',' or ']' in array, found number 3"},
		{"{\"a\" 1}", 1, 6, "expected ':' after dictionary key, found number 1"},
		{"[1, 2", 1, 6, "unexpected end of file in array opened at line 1:1, expected ']'"},
		{`Foo(1)`, 1, 1, `unexpected identifier "Foo"`},
		{`"abc`, 1, 1, "unterminated string"},
		{`"\u12G4"`, 1, 6, "malformed hex constant"},
		{`"\ud83d"`, 1, 8, "unpaired lead surrogate"},
		{`"\ude00"`, 1, 2, "unpaired trail surrogate"},
		{`&x`, 1, 1, `expected '"' after '&'`},
		{`#12`, 1, 1, "invalid color code"},
		{"  ~", 1, 3, "unexpected character '~'"},
		{"[\"é\", ~]", 1, 7, "unexpected character '~'"}, // columns count characters
		{`PackedVector2Array(1, 2, 3)`, 1, 1, "needs a multiple of 2 numbers, found 3"},
		{`PackedByteArray("!!")`, 1, 17, "invalid base64"},
		{`Array[int](1)`, 1, 12, "expected '[' inside Array(...), found number 1"},
		{`Dictionary[int int]({})`, 1, 16, "expected ',' after the key type of Dictionary[...]"},
		{`Object(1)`, 1, 8, "expected a class name in Object(...)"},
		{`NodePath(1)`, 1, 10, "expected a string as the argument of NodePath()"},
		{`1 2`, 1, 3, "expected end of input after value, found number 2"},
		{strings.Repeat("[", maxDepth+1), 1, maxDepth + 1, "nested more than 512 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := ParseValue([]byte(tt.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SyntaxError", err)
			}
			if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %d:%d %q, want %d:%d containing %q", se.Line, se.Col, se.Msg, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestDeepNestingDoesNotExhaustStack(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("[", 1_000_000),
		strings.Repeat("{1:", 1_000_000),
		strings.Repeat("Array[int]([", 100_000),
		strings.Repeat("Object(A,\"a\":", 100_000),
	} {
		if _, err := ParseValue([]byte(src)); err == nil {
			t.Fatalf("deeply nested input of %d bytes parsed without error", len(src))
		}
	}
}

func TestDictionaryAccessors(t *testing.T) {
	d := mustParseValue(t, `{"a": 1, &"b": 2, 3: 4, "a": 5}`).(Dictionary)
	if v, _ := d.Lookup("a"); !Equal(v, Int(5)) {
		t.Errorf("Lookup(a) = %v, want the last duplicate 5", v)
	}
	if v, _ := d.Lookup("b"); !Equal(v, Int(2)) {
		t.Errorf("Lookup(b) = %v, want 2 (StringName key)", v)
	}
	if v, ok := d.Get(Int(3)); !ok || !Equal(v, Int(4)) {
		t.Errorf("Get(3) = %v, %v", v, ok)
	}
	if _, ok := d.Get(String("zz")); ok {
		t.Error("Get of a missing key succeeded")
	}
	o := mustParseValue(t, `Object(X,"p":1)`).(Object)
	if v, _ := o.Get("p"); !Equal(v, Int(1)) {
		t.Errorf("Object.Get = %v", v)
	}
}
