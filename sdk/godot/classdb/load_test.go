package classdb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLoadErrors(t *testing.T) {
	const obj = `{"name": "Object", "is_refcounted": false, "is_instantiable": true, "api_type": "core"}`
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty input", ``, []string{"empty input", "expected extension_api.json"}},
		{"whitespace only", "  \n", []string{"empty input"}},
		{"not JSON", `not json`, []string{"malformed JSON near byte", "invalid character"}},
		{"array at top", `[]`, []string{`must be a JSON object, found "["`}},
		{"string at top", `"x"`, []string{`must be a JSON object, found the string "x"`}},
		{"truncated", `{"header": {"version_major": 4`, []string{"input ends early", "truncated"}},
		{"truncated in classes", `{"classes": [` + obj, []string{"input ends early"}},
		{"bad syntax in classes", `{"classes": [{"name": "A",,}]}`, []string{"malformed JSON near byte", "invalid character ','"}},
		{"bad syntax in skipped section", `{"builtin_classes": [1 2], "classes": []}`, []string{"malformed JSON near byte"}},
		{"missing classes", `{"header": {"version_major": 4}}`, []string{`no "classes" array`, "--dump-extension-api"}},
		{"classes not an array", `{"classes": {}}`, []string{`"classes" must be an array, found "{"`}},
		{"classes null", `{"classes": null}`, []string{`"classes" must be an array, found null`}},
		{"class without name", `{"classes": [` + obj + `, {"inherits": "Object"}]}`, []string{"classes[1] has no name"}},
		{"class with empty name", `{"classes": [{"name": ""}]}`, []string{"classes[0] has no name"}},
		{"duplicate class", `{"classes": [` + obj + `,` + obj + `]}`, []string{`class "Object" is listed twice (classes[1])`}},
		{"wrong field type", `{"classes": [{"name": "A", "is_instantiable": "yes"}]}`,
			[]string{`classes[0]: field "is_instantiable" holds a JSON string, expected bool`}},
		{"wrong nested type", `{"classes": [{"name": "A", "methods": [{"name": "m", "arguments": [{"name": "x", "type": 3}]}]}]}`,
			[]string{`classes[0]: field "methods.arguments.type" holds a JSON number, expected string`}},
		{"wrong header type", `{"header": {"version_major": "4"}, "classes": []}`, []string{`header: field "version_major"`}},
		{"trailing data", `{"classes": []} {}`, []string{"unexpected data after the JSON object"}},
		{"self cycle", `{"classes": [{"name": "A", "inherits": "A"}]}`, []string{"inheritance cycle A -> A", "must end at Object"}},
		{"two-class cycle", `{"classes": [` + obj + `, {"name": "A", "inherits": "B"}, {"name": "B", "inherits": "A"}]}`,
			[]string{"inheritance cycle A -> B -> A"}},
		{"cycle above a valid chain", `{"classes": [{"name": "C", "inherits": "B"}, {"name": "A", "inherits": "B"}, {"name": "B", "inherits": "A"}]}`,
			[]string{"inheritance cycle A -> B -> A"}},
	}
	for _, tt := range tests {
		db, err := Load(strings.NewReader(tt.in))
		if err == nil {
			t.Errorf("%s: Load succeeded (%v), want an error", tt.name, db)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tt.name, err, w)
			}
		}
		if !strings.HasPrefix(err.Error(), "classdb: ") {
			t.Errorf("%s: error %q lacks the package prefix", tt.name, err)
		}
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestLoadReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	_, err := Load(io.MultiReader(strings.NewReader(`{"classes": [`), failingReader{boom}))
	if !errors.Is(err, boom) {
		t.Errorf("Load with a failing reader = %v, want it to wrap the read error", err)
	}
	_, err = LoadFile("testdata/does-not-exist.json")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile of a missing file = %v, want os.ErrNotExist", err)
	}
}

func TestLoadFileNamesFile(t *testing.T) {
	path := t.TempDir() + "/broken.json"
	if err := os.WriteFile(path, []byte(`{"classes": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("LoadFile error %v should name the file", err)
	}
}

func TestLoadLenient(t *testing.T) {
	// No header, an unknown api_type, extra keys, and a parent that is not
	// in the file: all accepted, as trimmed or future dumps may have them.
	in := `{"future_key": {"x": [1, 2, {"y": null}]}, "classes": [
		{"name": "Orphan", "inherits": "MissingParent", "is_instantiable": true, "api_type": "core", "new_field": 1},
		{"name": "Thing", "api_type": "something_new", "description": "docs dump field"}
	]}`
	db, err := Load(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if db.Version() != (Version{}) {
		t.Errorf("Version() = %+v, want zero without a header", db.Version())
	}
	if got := db.Chain("Orphan"); len(got) != 1 || got[0] != "Orphan" {
		t.Errorf("Chain(Orphan) = %v", got)
	}
	if db.IsNode("Orphan") || db.Inherits("Orphan", "MissingParent") {
		t.Error("a class with a missing parent must not count as deriving from anything absent")
	}
	if err := db.ValidNodeType("Orphan"); !errors.Is(err, ErrNotNode) {
		t.Errorf("ValidNodeType(Orphan) = %v, want ErrNotNode", err)
	}
	if err := db.ValidNodeType("Nope"); err == nil || strings.Contains(err.Error(), " in Godot ") {
		t.Errorf("without a header the error must not name a version: %v", err)
	}
	c, _ := db.Class("Thing")
	if c.APIType != "something_new" || c.APIType.EditorOnly() {
		t.Errorf("unknown api_type handled as %+v", c)
	}
}

// DBs only come from Load, which rejects cycles, but the chain walk must
// still stop on one rather than spin.
func TestWalkGuardsCycles(t *testing.T) {
	db := &DB{classes: map[string]*Class{
		"A": {Name: "A", Inherits: "B"},
		"B": {Name: "B", Inherits: "A"},
		"C": {Name: "C", Inherits: "C"},
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if db.Inherits("A", "Node") || db.IsNode("C") {
			t.Error("cycle reported as reaching a missing ancestor")
		}
		if !db.Inherits("A", "B") {
			t.Error("Inherits(A, B) = false")
		}
		if n := len(db.Chain("A")); n > len(db.classes) {
			t.Errorf("Chain(A) has %d entries for %d classes", n, len(db.classes))
		}
		db.Property("A", "x")
		db.PropertyType("C", "x")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("walking a cyclic chain did not terminate")
	}
}

// syntheticAPI builds an extension_api.json in the real schema with n
// classes in a shallow tree under Node, plus a skipped section of similar
// weight to builtin_classes.
func syntheticAPI(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"header": {"version_major": 4, "version_minor": 7, "version_patch": 0, "version_status": "stable", "version_build": "official", "version_full_name": "Godot Engine v4.7.stable.official", "precision": "single"},`)
	b.WriteString(`"builtin_classes": [`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "Builtin%d", "is_keyed": false, "methods": [`, i)
		for j := range 50 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name": "m%d", "return_type": "float", "is_vararg": false, "is_const": true, "is_static": false, "hash": %d, "arguments": [{"name": "a", "type": "float"}]}`, j, 1000+j)
		}
		b.WriteString(`], "has_destructor": false}`)
	}
	b.WriteString(`], "classes": [`)
	b.WriteString(`{"name": "Object", "is_refcounted": false, "is_instantiable": true, "api_type": "core"},`)
	b.WriteString(`{"name": "Node", "is_refcounted": false, "is_instantiable": true, "inherits": "Object", "api_type": "core"}`)
	for i := range n - 2 {
		parent := "Node"
		if i >= 10 {
			parent = fmt.Sprintf("Class%d", i/10)
		}
		fmt.Fprintf(&b, `,{"name": "Class%d", "is_refcounted": false, "is_instantiable": %t, "inherits": %q, "api_type": "core",`, i, i%7 != 0, parent)
		fmt.Fprintf(&b, `"enums": [{"name": "Mode", "is_bitfield": false, "values": [{"name": "MODE_A", "value": 0}, {"name": "MODE_B", "value": 1}]}],`)
		b.WriteString(`"methods": [`)
		for j := range 12 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name": "set_p%d", "is_const": false, "is_vararg": false, "is_static": false, "is_virtual": false, "hash": %d, "arguments": [{"name": "value", "type": "enum::Class%d.Mode", "meta": "int32"}]}`, j, i*100+j, i)
		}
		b.WriteString(`], "signals": [{"name": "changed"}], "properties": [`)
		for j := range 8 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"type": "int", "name": "p%d", "setter": "set_p%d", "getter": "get_p%d"}`, j, j, j)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`], "singletons": [{"name": "Engine", "type": "Engine"}]}`)
	return b.Bytes()
}

func TestSyntheticAPI(t *testing.T) {
	db, err := Load(bytes.NewReader(syntheticAPI(100)))
	if err != nil {
		t.Fatal(err)
	}
	if db.Len() != 100 {
		t.Errorf("Len() = %d", db.Len())
	}
	if got, _ := db.PropertyType("Class97", "p3"); got != "enum::Class97.Mode" {
		t.Errorf("PropertyType = %q", got)
	}
	if !db.IsNode("Class97") {
		t.Error("Class97 should be a Node")
	}
}

func BenchmarkLoad(b *testing.B) {
	data := syntheticAPI(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/load")
}

// fuzzSeed is a compact document in the real schema. The seeds stay small
// on purpose: the fuzzer minimizes every new interesting input, which takes
// minutes on a 20 KB fixture and starves the actual fuzzing.
const fuzzSeed = `{"header": {"version_major": 4, "version_minor": 7},
"builtin_classes": [{"name": "Vector2", "members": [{"name": "x", "type": "float"}]}],
"global_enums": [{"name": "Side", "is_bitfield": false, "values": [{"name": "SIDE_LEFT", "value": 0}]}],
"classes": [
{"name": "CanvasItem", "is_instantiable": false, "inherits": "Node", "api_type": "core"},
{"name": "CollisionObject2D", "is_instantiable": false, "inherits": "Node2D", "api_type": "core",
 "enums": [{"name": "DisableMode", "values": [{"name": "DISABLE_MODE_REMOVE", "value": 0}]}],
 "methods": [{"name": "set_disable_mode", "arguments": [{"name": "mode", "type": "enum::CollisionObject2D.DisableMode"}]}],
 "properties": [{"type": "int", "name": "disable_mode", "setter": "set_disable_mode", "index": 0}]},
{"name": "EditorPlugin", "is_instantiable": true, "inherits": "Node", "api_type": "editor"},
{"name": "Font", "is_instantiable": false, "inherits": "Object", "api_type": "core",
 "properties": [{"type": "typedarray::24/17:Font", "name": "fallbacks"}]},
{"name": "Node", "is_instantiable": true, "inherits": "Object", "api_type": "core"},
{"name": "Node2D", "is_instantiable": true, "inherits": "CanvasItem", "api_type": "core"},
{"name": "Object", "is_instantiable": true, "api_type": "core",
 "methods": [{"name": "get_class", "return_value": {"type": "String"}}]}
]}`

func FuzzLoad(f *testing.F) {
	f.Add([]byte(fuzzSeed))
	for _, s := range []string{
		``, `{}`, `[]`, `{"classes": []}`, `{"classes": [{"name": "A", "inherits": "A"}]}`,
		`{"classes": [{"name": "Node", "inherits": "Object", "is_instantiable": true}, {"name": "Object"}]}`,
		`{"classes": [{"name": "A", "properties": [{"name": "p", "type": "int", "setter": "s"}], "methods": [{"name": "s"}]}]}`,
		`{"global_enums": [{"name": "E", "values": [{"name": "X", "value": 9223372036854775807}]}], "classes": []}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		db, err := Load(bytes.NewReader(in))
		if err != nil {
			if db != nil {
				t.Fatal("Load returned a DB with an error")
			}
			return
		}
		for _, name := range db.Classes() {
			if !db.Inherits(name, name) {
				t.Fatalf("Inherits(%q, itself) = false", name)
			}
			chain := db.Chain(name)
			if len(chain) == 0 || len(chain) > db.Len() {
				t.Fatalf("Chain(%q) = %v", name, chain)
			}
			_ = db.ValidNodeType(name)
			c, _ := db.Class(name)
			for _, p := range c.Properties {
				if _, ok := db.PropertyType(name, p.Name); !ok {
					t.Fatalf("PropertyType(%q, %q) not found for a declared property", name, p.Name)
				}
			}
		}
		_ = db.ValidNodeType("Sprite2d")
	})
}
