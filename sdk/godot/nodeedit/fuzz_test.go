package nodeedit_test

import (
	"encoding/json"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// FuzzParseScript: the GDScript declaration scanner never panics.
func FuzzParseScript(f *testing.F) {
	f.Add("extends Node\nsignal a(x: int)\n@export var b: float = 1\n@onready var c := $C\nfunc d(e):\n\tpass\nstatic func f() -> void:\n\tpass\n")
	f.Fuzz(func(t *testing.T, src string) {
		si := nodeedit.ParseScript("res://x.gd", src)
		if si.Signals == nil || si.Funcs == nil || si.Vars == nil {
			t.Fatal("nil maps")
		}
	})
}

// FuzzConvertType feeds arbitrary JSON values and property types to the value
// coercion: it must never panic, and whatever it accepts must be a value
// the writer renders and the parser reads back.
//
//	go test ./sdk/godot/nodeedit -run '^$' -fuzz FuzzConvertType -fuzztime 1m
func FuzzConvertType(f *testing.F) {
	for _, s := range []struct{ typ, js string }{
		{"Vector2", `{"x":1,"y":2}`}, {"Vector3", `[1,2]`}, {"Color", `"#ff000080"`}, {"Color", `[1,0,0]`},
		{"Rect2", `{"position":{"x":1},"size":[2,3]}`}, {"int", `3`}, {"float", `"2.5"`}, {"bool", `1`},
		{"String", `null`}, {"PackedVector2Array", `[[1,2],{"x":3}]`}, {"Array", `[1,"a",{"k":[true]}]`},
		{"Transform2D", `"Transform2D(1, 0, 0, 1, 5, 6)"`}, {"enum::Node.ProcessMode", `4`}, {"Dictionary", `{"b":1,"a":2}`},
		{"PackedByteArray", `[1,2,300]`}, {"Vector2i", `"Vector2i(1, 2)"`}, {"NodePath", `"../A"`}, {"Array[int]", `[1,2]`},
	} {
		f.Add(s.typ, s.js)
	}
	f.Fuzz(func(t *testing.T, typ, js string) {
		var v any
		if json.Unmarshal([]byte(js), &v) != nil {
			return
		}
		val, err := nodeedit.ConvertType(typ, v)
		if err != nil {
			return
		}
		text := godot.FormatValue(val)
		back, perr := godot.ParseValue([]byte(text))
		if perr != nil {
			t.Fatalf("ConvertType(%q, %s) = %s, which does not parse: %v", typ, js, text, perr)
		}
		if again := godot.FormatValue(back); again != text {
			t.Fatalf("ConvertType(%q, %s) = %s, re-renders as %s", typ, js, text, again)
		}
	})
}
