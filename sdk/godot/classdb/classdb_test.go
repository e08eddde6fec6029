package classdb

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

const smallFixture = "testdata/extension_api_small.json"

func loadSmall(t testing.TB) *DB {
	t.Helper()
	db, err := LoadFile(smallFixture)
	if err != nil {
		t.Fatalf("LoadFile(%s): %v", smallFixture, err)
	}
	return db
}

func TestLoadSmall(t *testing.T) {
	db := loadSmall(t)
	want := Version{Major: 4, Minor: 7, Patch: 0, Status: "stable", Build: "official",
		FullName: "Godot Engine v4.7.stable.official", Precision: "single"}
	if db.Version() != want {
		t.Errorf("Version() = %+v, want %+v", db.Version(), want)
	}
	if db.Len() != 26 || len(db.Classes()) != 26 {
		t.Errorf("Len() = %d, Classes() has %d; the fixture has 26 classes", db.Len(), len(db.Classes()))
	}
	if !slices.IsSorted(db.Classes()) {
		t.Error("Classes() is not sorted")
	}
	if got := db.String(); got != "classdb: Godot 4.7, 26 classes" {
		t.Errorf("String() = %q", got)
	}

	c, ok := db.Class("CollisionObject2D")
	if !ok {
		t.Fatal("CollisionObject2D missing")
	}
	if c.Inherits != "Node2D" || c.APIType != APICore || c.Instantiable || c.RefCounted {
		t.Errorf("CollisionObject2D header fields: %+v", c)
	}
	if e, ok := c.Enum("DisableMode"); !ok || len(e.Values) != 3 || e.IsBitfield {
		t.Errorf("CollisionObject2D.DisableMode = %+v, %v", e, ok)
	}
	m, ok := c.Method("shape_owner_add_shape")
	if !ok || len(m.Arguments) != 2 || m.Arguments[0].Meta != "uint32" || m.Arguments[1].Meta != "required" {
		t.Errorf("shape_owner_add_shape = %+v, %v", m, ok)
	}
	if m, _ := c.Method("get_disable_mode"); m.ReturnType != "enum::CollisionObject2D.DisableMode" || !m.IsConst {
		t.Errorf("get_disable_mode = %+v", m)
	}
	if m, _ := c.Method("_input_event"); !m.IsVirtual {
		t.Errorf("_input_event not virtual: %+v", m)
	}
	if m, _ := db.Method("Control", "set_anchor"); len(m.Arguments) != 4 || m.Arguments[2].Default != "false" {
		t.Errorf("set_anchor arguments = %+v", m.Arguments)
	}
	if m, ok := db.Method("Sprite2D", "emit_signal"); !ok || !m.IsVararg || m.ReturnType != "enum::Error" {
		t.Errorf("inherited Object.emit_signal = %+v, %v", m, ok)
	}
	if _, ok := c.Method("move_and_slide"); ok {
		t.Error("Class.Method found a subclass's method")
	}
	if obj, _ := db.Class("Object"); obj.Inherits != "" {
		t.Errorf("Object inherits %q", obj.Inherits)
	}
	if rc, _ := db.Class("Resource"); !rc.RefCounted {
		t.Error("Resource not RefCounted")
	}
}

func TestExistsAndInstantiable(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		name                 string
		exists, instantiable bool
	}{
		{"Sprite2D", true, true},
		{"Node", true, true},
		{"CanvasItem", true, false},
		{"CollisionObject3D", true, false},
		{"EditorPlugin", true, true},
		{"EditorPaths", true, false},
		{"sprite2d", false, false},
		{"", false, false},
		{"Array[Font]", false, false},
	}
	for _, tt := range tests {
		if got := db.Exists(tt.name); got != tt.exists {
			t.Errorf("Exists(%q) = %v, want %v", tt.name, got, tt.exists)
		}
		if got := db.Instantiable(tt.name); got != tt.instantiable {
			t.Errorf("Instantiable(%q) = %v, want %v", tt.name, got, tt.instantiable)
		}
	}
}

func TestInherits(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		class, ancestor string
		want            bool
	}{
		{"Sprite2D", "Node2D", true},
		{"Sprite2D", "CanvasItem", true},
		{"Sprite2D", "Node", true},
		{"Sprite2D", "Object", true},
		{"Sprite2D", "Sprite2D", true}, // like ClassDB::is_parent_class
		{"Node2D", "Sprite2D", false},
		{"Sprite2D", "Node3D", false},
		{"CharacterBody2D", "CollisionObject2D", true},
		{"MeshInstance3D", "Node3D", true},
		{"SystemFont", "Resource", true},
		{"SystemFont", "RefCounted", true},
		{"Texture2D", "Node", false},
		{"MyExtensionSprite", "Sprite2D", true},
		{"Nope", "Object", false},
		{"Sprite2D", "Nope", false},
		{"Nope", "Nope", false},
	}
	for _, tt := range tests {
		if got := db.Inherits(tt.class, tt.ancestor); got != tt.want {
			t.Errorf("Inherits(%q, %q) = %v, want %v", tt.class, tt.ancestor, got, tt.want)
		}
	}
	if got := db.Chain("Sprite2D"); !slices.Equal(got, []string{"Sprite2D", "Node2D", "CanvasItem", "Node", "Object"}) {
		t.Errorf("Chain(Sprite2D) = %v", got)
	}
	if got := db.Chain("Nope"); got != nil {
		t.Errorf("Chain(Nope) = %v, want nil", got)
	}
}

func TestIsNode(t *testing.T) {
	db := loadSmall(t)
	for name, want := range map[string]bool{
		"Node": true, "Sprite2D": true, "CanvasItem": true, "Label": true, "Camera3D": true,
		"EditorPlugin": true, "Object": false, "Resource": false, "Texture2D": false,
		"EditorPaths": false, "PhysicsRayQueryParameters2D": false, "Missing": false,
	} {
		if got := db.IsNode(name); got != want {
			t.Errorf("IsNode(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestProperty(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		class, prop string
		ok          bool
		declaredBy  string
		typ         string
		index       int
	}{
		{"Sprite2D", "texture", true, "Sprite2D", "Texture2D", -1},
		{"Sprite2D", "position", true, "Node2D", "Vector2", -1},
		{"Sprite2D", "visible", true, "CanvasItem", "bool", -1},
		{"Sprite2D", "name", true, "Node", "StringName", -1},
		{"CharacterBody2D", "disable_mode", true, "CollisionObject2D", "int", -1},
		{"Label", "offset_top", true, "Control", "float", 1},
		{"Label", "offset_left", true, "Control", "float", 0},
		{"Camera3D", "position", true, "Node3D", "Vector3", -1}, // not Node2D's
		{"SystemFont", "fallbacks", true, "Font", "typedarray::24/17:Font", -1},
		{"Node2D", "texture", false, "", "", 0},
		{"Sprite2D", "tracks/0/keys", false, "", "", 0},
		{"Missing", "name", false, "", "", 0},
	}
	for _, tt := range tests {
		p, ok := db.Property(tt.class, tt.prop)
		if ok != tt.ok {
			t.Errorf("Property(%q, %q) found = %v, want %v", tt.class, tt.prop, ok, tt.ok)
			continue
		}
		if ok && (p.Class != tt.declaredBy || p.Type != tt.typ || p.Index != tt.index) {
			t.Errorf("Property(%q, %q) = %+v; want declared by %s, type %s, index %d",
				tt.class, tt.prop, p, tt.declaredBy, tt.typ, tt.index)
		}
	}

	props := db.Properties("Sprite2D")
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.Name
	}
	want := []string{"texture", "centered", "offset", "frame", "position", "rotation", "scale",
		"visible", "modulate", "texture_filter", "material", "name", "process_mode", "process_priority"}
	if !slices.Equal(names, want) {
		t.Errorf("Properties(Sprite2D) = %v\nwant %v", names, want)
	}
}

func TestPropertyType(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		class, prop, want string
	}{
		// The enum is only on the setter's argument.
		{"CollisionObject2D", "disable_mode", "enum::CollisionObject2D.DisableMode"},
		{"CharacterBody2D", "disable_mode", "enum::CollisionObject2D.DisableMode"},
		{"CharacterBody2D", "motion_mode", "enum::CharacterBody2D.MotionMode"},
		{"Sprite2D", "texture_filter", "enum::CanvasItem.TextureFilter"},
		{"Sprite2D", "process_mode", "enum::Node.ProcessMode"},
		{"Node3D", "rotation_edit_mode", "enum::Node3D.RotationEditMode"},
		{"Camera3D", "rotation_order", "enum::EulerOrder"}, // a global enum
		// Plain ints stay ints; widths live only in the setter's meta.
		{"Area2D", "collision_layer", "int"},
		// A setter missing from the file leaves the declared type.
		{"MeshInstance3D", "layers", "int"},
		{"Sprite2D", "frame", "int"},
		// Indexed setter: the value is the last argument, not the index.
		{"Label", "offset_left", "float"},
		// A resource hint list is more precise than the setter's Material.
		{"Sprite2D", "material", "CanvasItemMaterial,ShaderMaterial"},
		// Typed arrays lose their hint prefix.
		{"SystemFont", "fallbacks", "typedarray::Font"},
		{"PhysicsRayQueryParameters2D", "exclude", "typedarray::RID"},
		{"Sprite2D", "texture", "Texture2D"},
		{"Node3D", "visibility_parent", "NodePath"},
	}
	for _, tt := range tests {
		got, ok := db.PropertyType(tt.class, tt.prop)
		if !ok || got != tt.want {
			t.Errorf("PropertyType(%q, %q) = %q, %v; want %q", tt.class, tt.prop, got, ok, tt.want)
		}
	}
	if got, ok := db.PropertyType("Sprite2D", "nope"); ok || got != "" {
		t.Errorf("PropertyType of a missing property = %q, %v", got, ok)
	}
}

func TestEnum(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		name   string
		ok     bool
		values int
	}{
		{"CollisionObject2D.DisableMode", true, 3},
		{"enum::CollisionObject2D.DisableMode", true, 3},
		{"bitfield::CollisionObject2D.DisableMode", true, 3},
		{"Side", true, 4},
		{"enum::EulerOrder", true, 2},
		{"Variant.Type", true, 2},
		{"CollisionObject2D.Nope", false, 0},
		{"Sprite2D.DisableMode", false, 0}, // enums are named by the declaring class
		{"Nope.DisableMode", false, 0},
		{"DisableMode", false, 0},
		{"", false, 0},
	}
	for _, tt := range tests {
		e, ok := db.Enum(tt.name)
		if ok != tt.ok || len(e.Values) != tt.values {
			t.Errorf("Enum(%q) = %+v, %v; want found=%v with %d values", tt.name, e, ok, tt.ok, tt.values)
		}
	}
	e, _ := db.Enum("CollisionObject2D.DisableMode")
	if v, ok := e.Value("DISABLE_MODE_KEEP_ACTIVE"); !ok || v != 2 {
		t.Errorf("DISABLE_MODE_KEEP_ACTIVE = %d, %v", v, ok)
	}
	if _, ok := e.Value("NOPE"); ok {
		t.Error("Value found a missing constant")
	}
}

func TestValidNodeType(t *testing.T) {
	db := loadSmall(t)
	tests := []struct {
		name   string
		reason error // nil when valid
		detail func(*NodeTypeError) bool
		msg    []string
	}{
		{name: "Sprite2D"},
		{name: "Node"},
		{name: "Node3D"},
		{name: "Label"},
		{name: "CharacterBody2D"},
		{name: "MyExtensionSprite"}, // GDExtension classes are allowed
		{"Sprite2d", ErrUnknownClass,
			func(e *NodeTypeError) bool { return e.Suggestion == "Sprite2D" },
			[]string{`"Sprite2d" is not an engine class in Godot 4.7`, `did you mean "Sprite2D"?`}},
		{"Spirte2D", ErrUnknownClass,
			func(e *NodeTypeError) bool { return e.Suggestion == "Sprite2D" }, nil},
		{"Nod3D", ErrUnknownClass,
			func(e *NodeTypeError) bool { return e.Suggestion == "Node3D" }, nil},
		{"CharacterBody", ErrUnknownClass,
			func(e *NodeTypeError) bool { return e.Suggestion == "CharacterBody2D" }, nil},
		{"KinematicBody2D", ErrUnknownClass,
			func(e *NodeTypeError) bool { return e.Suggestion == "CharacterBody2D" && e.Godot3 },
			[]string{"the Godot 3 name; in Godot 4 it is CharacterBody2D"}},
		{"", ErrUnknownClass, nil, nil},
		{"Texture2D", ErrNotNode,
			func(e *NodeTypeError) bool {
				return slices.Equal(e.Chain, []string{"Texture2D", "Texture", "Resource", "RefCounted", "Object"})
			},
			[]string{"is not a Node (Texture2D -> Texture -> Resource -> RefCounted -> Object)"}},
		{"Object", ErrNotNode, nil, nil},
		// Not a Node is the more fundamental problem than editor-only.
		{"EditorPaths", ErrNotNode, nil, nil},
		{"EditorPlugin", ErrEditorOnly,
			func(e *NodeTypeError) bool { return e.APIType == APIEditor },
			[]string{`is editor-only (api_type "editor")`}},
		{"CanvasItem", ErrAbstract,
			func(e *NodeTypeError) bool {
				return slices.Equal(e.Concrete, []string{"Control", "Node2D", "Label"})
			},
			[]string{`is abstract`, `such as "Control", "Node2D" or "Label"`}},
		{"CollisionObject2D", ErrAbstract,
			func(e *NodeTypeError) bool {
				return slices.Equal(e.Concrete, []string{"Area2D", "CharacterBody2D"})
			},
			[]string{`such as "Area2D" or "CharacterBody2D"`}},
		{"VisualInstance3D", ErrAbstract,
			func(e *NodeTypeError) bool { return slices.Equal(e.Concrete, []string{"MeshInstance3D"}) },
			[]string{`such as "MeshInstance3D"`}},
		{"CollisionObject3D", ErrAbstract,
			func(e *NodeTypeError) bool { return len(e.Concrete) == 0 },
			nil},
	}
	for _, tt := range tests {
		err := db.ValidNodeType(tt.name)
		if tt.reason == nil {
			if err != nil {
				t.Errorf("ValidNodeType(%q) = %v, want nil", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, tt.reason) {
			t.Errorf("ValidNodeType(%q) = %v, want %v", tt.name, err, tt.reason)
			continue
		}
		var nte *NodeTypeError
		if !errors.As(err, &nte) || nte.Type != tt.name {
			t.Errorf("ValidNodeType(%q): %T is not a *NodeTypeError for the name", tt.name, err)
			continue
		}
		if tt.detail != nil && !tt.detail(nte) {
			t.Errorf("ValidNodeType(%q): unexpected details %+v", tt.name, nte)
		}
		for _, m := range tt.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("ValidNodeType(%q) = %q, missing %q", tt.name, err, m)
			}
		}
	}
}

func TestSuggest(t *testing.T) {
	db := loadSmall(t)
	tests := map[string]string{
		"sprite2d":      "Sprite2D",
		"SPRITE2D":      "Sprite2D",
		"Sprite":        "Sprite2D",
		"Node2":         "Node2D",
		"Lable":         "Label",
		"Camera":        "Camera3D",
		"Area3D":        "Area2D",
		"Xyz":           "",
		"":              "",
		"CompletelyOff": "",
	}
	for in, want := range tests {
		if got := db.Suggest(in); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTypeSpellings(t *testing.T) {
	tests := []struct {
		json, normalized, tscn string
	}{
		{"typedarray::Font", "typedarray::Font", "Array[Font]"},
		{"typedarray::24/17:Font", "typedarray::Font", "Array[Font]"},
		{"typedarray::StringName", "typedarray::StringName", "Array[StringName]"},
		{"typeddictionary::String;int", "typeddictionary::String;int", "Dictionary[String, int]"},
		{"typeddictionary::24/17:Font;4/0:String", "typeddictionary::Font;String", "Dictionary[Font, String]"},
		{"int", "int", "int"},
		{"enum::CollisionObject2D.DisableMode", "enum::CollisionObject2D.DisableMode", "enum::CollisionObject2D.DisableMode"},
		// Not a hint: only "<digits>/<digits>:" is stripped.
		{"typedarray::24:Font", "typedarray::24:Font", "Array[24:Font]"},
		{"typedarray::/17:Font", "typedarray::/17:Font", "Array[/17:Font]"},
		{"typedarray::24/x:Font", "typedarray::24/x:Font", "Array[24/x:Font]"},
		{"typedarray::24/17", "typedarray::24/17", "Array[24/17]"},
		{"typeddictionary::nosemicolon", "typeddictionary::nosemicolon", "typeddictionary::nosemicolon"},
	}
	for _, tt := range tests {
		if got := NormalizeType(tt.json); got != tt.normalized {
			t.Errorf("NormalizeType(%q) = %q, want %q", tt.json, got, tt.normalized)
		}
		if got := TSCNType(tt.json); got != tt.tscn {
			t.Errorf("TSCNType(%q) = %q, want %q", tt.json, got, tt.tscn)
		}
	}

	back := []struct{ tscn, json string }{
		{"Array[Font]", "typedarray::Font"},
		{"Array[StringName]", "typedarray::StringName"},
		{"Array[ Font ]", "typedarray::Font"},
		{"Dictionary[String, int]", "typeddictionary::String;int"},
		{"Dictionary[String,int]", "typeddictionary::String;int"},
		{"Array", "Array"},
		{"Array[]", "Array[]"},
		{"Dictionary", "Dictionary"},
		{"Dictionary[String]", "Dictionary[String]"},
		{"Dictionary[, int]", "Dictionary[, int]"},
		{"Vector2", "Vector2"},
		{"Array[Font", "Array[Font"},
	}
	for _, tt := range back {
		if got := JSONType(tt.tscn); got != tt.json {
			t.Errorf("JSONType(%q) = %q, want %q", tt.tscn, got, tt.json)
		}
	}
	// The two directions agree on normalized spellings.
	for _, s := range []string{"typedarray::Font", "typeddictionary::String;int"} {
		if got := JSONType(TSCNType(s)); got != s {
			t.Errorf("JSONType(TSCNType(%q)) = %q", s, got)
		}
	}
}

func TestVersion(t *testing.T) {
	tests := []struct {
		v    Version
		s    string
		at46 bool
		at47 bool
		at50 bool
	}{
		{Version{Major: 4, Minor: 7}, "4.7", true, true, false},
		{Version{Major: 4, Minor: 7, Patch: 1}, "4.7.1", true, true, false},
		{Version{Major: 4, Minor: 5}, "4.5", false, false, false},
		{Version{Major: 5, Minor: 0}, "5.0", true, true, true},
	}
	for _, tt := range tests {
		if tt.v.String() != tt.s || tt.v.AtLeast(4, 6) != tt.at46 || tt.v.AtLeast(4, 7) != tt.at47 || tt.v.AtLeast(5, 0) != tt.at50 {
			t.Errorf("%+v: String %q AtLeast(4.6) %v (4.7) %v (5.0) %v", tt.v, tt.v.String(),
				tt.v.AtLeast(4, 6), tt.v.AtLeast(4, 7), tt.v.AtLeast(5, 0))
		}
	}
}

func TestConcurrentReads(t *testing.T) {
	db := loadSmall(t)
	wantType, wantOK := db.PropertyType("CharacterBody2D", "disable_mode")
	wantValid := fmt.Sprint(db.ValidNodeType("Sprite2d"))
	wantInherits := db.Inherits("Label", "CanvasItem")
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 100 {
				typ, ok := db.PropertyType("CharacterBody2D", "disable_mode")
				valid := fmt.Sprint(db.ValidNodeType("Sprite2d"))
				inherits := db.Inherits("Label", "CanvasItem")
				if typ != wantType || ok != wantOK || valid != wantValid || inherits != wantInherits {
					errs <- fmt.Sprintf("concurrent read gave %q %v %s %v, alone %q %v %s %v", typ, ok, valid, inherits, wantType, wantOK, wantValid, wantInherits)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestRealDump loads an actual engine dump when one is available; the
// repository does not ship one (it is about 7 MB and version-specific).
func TestRealDump(t *testing.T) {
	path := os.Getenv("GODOT_MCP_EXTENSION_API")
	if path == "" {
		t.Skip("set GODOT_MCP_EXTENSION_API to an extension_api.json to test against a real dump")
	}
	db, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if db.Len() < 900 || db.Version().Major != 4 {
		t.Errorf("%s: suspicious dump", db)
	}
	for _, name := range []string{"Node", "Node2D", "Sprite2D", "Node3D", "TileMapLayer", "Control"} {
		if err := db.ValidNodeType(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got, _ := db.PropertyType("CharacterBody2D", "disable_mode"); got != "enum::CollisionObject2D.DisableMode" {
		t.Errorf("CharacterBody2D.disable_mode resolves to %q", got)
	}
	t.Log(db)
}
