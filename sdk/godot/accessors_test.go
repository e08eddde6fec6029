package godot

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Demo.tscn instances Player.tscn with editable children and overrides three
// of its nodes: the case where a scene refers to nodes it does not declare.
func TestInstancedSceneWithEditableChildren(t *testing.T) {
	src := string(readFixture(t, "2d-finite_state_machine/Demo.tscn"))
	f := mustParseFile(t, "Demo.tscn", src)
	if got := f.EditablePaths(); !slices.Equal(got, []string{"Player"}) {
		t.Fatalf("editable = %v", got)
	}
	sm := f.Node("Player/StateMachine")
	if sm == nil || sm.Type() != "" || sm.Parent() != f.Node("Player") {
		t.Fatal("override node not found under the instance")
	}
	if err := f.MoveNode("Player/StateMachine", "Control"); !errors.Is(err, ErrInvalid) {
		t.Errorf("moving a node of the instanced scene: %v", err)
	}
	if _, err := f.DuplicateNode("Player/StateMachine", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("duplicating a node of the instanced scene: %v", err)
	}
	// A connection may target a node inside the instance.
	if err := f.AddConnection(Connection{Signal: "s", From: "Player/Inner/Deep", To: ".", Method: "m"}); err != nil {
		t.Errorf("connection into the instanced scene: %v", err)
	}

	// Renaming the instance updates the overrides and [editable].
	g := mustParseFile(t, "Demo.tscn", src)
	if err := g.RenameNode("Player", "Hero"); err != nil {
		t.Fatal(err)
	}
	if g.Node("Hero/StateMachine") == nil || !slices.Equal(g.EditablePaths(), []string{"Hero"}) {
		t.Fatalf("rename did not follow:\n%s", g.Bytes())
	}
	if got, _ := g.Node("Hero/StateMachine").Get("start_state"); got != nil && !strings.Contains(FormatValue(got), "Idle") {
		t.Errorf("start_state = %v", got)
	}

	// Removing the instance removes the overrides, [editable], the
	// animations only its AnimationPlayer override used, and the
	// PackedScene ext_resource.
	h := mustParseFile(t, "Demo.tscn", src)
	if err := h.RemoveNode("Player"); err != nil {
		t.Fatal(err)
	}
	if len(h.EditablePaths()) != 0 || h.ExtResource("1") != nil || len(h.SubResources()) != 0 {
		t.Fatalf("left behind: editable %v, ext 1 %v, subs %d\n%s", h.EditablePaths(), h.ExtResource("1"), len(h.SubResources()), h.Bytes())
	}
	mustParseFile(t, "Demo.tscn", string(h.Bytes()))
}

func TestAddInstance(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	scene, err := f.AddExtResource("PackedScene", "res://enemy.tscn", "uid://cenemy")
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.AddInstance("A", "Enemy", scene)
	if err != nil {
		t.Fatal(err)
	}
	if ext, ok := n.Instance(); !ok || ext != scene || n.Type() != "" {
		t.Fatalf("instance = %v %v", ext, ok)
	}
	id, _ := n.UniqueID()
	want := "[node name=\"Enemy\" parent=\"A\" unique_id=" + itoa(int(id)) + " instance=ExtResource(\"" + scene.ID + "\")]\n"
	if !strings.Contains(string(f.Bytes()), "[node name=\"Leaf\" type=\"Node\" parent=\"A/B\" unique_id=4]\n\n"+want) {
		t.Fatalf("instance not placed after A's subtree:\n%s", f.Bytes())
	}
	if _, err := f.AddInstance(".", "X", ExtResource{ID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown ext: %v", err)
	}
	if _, err := f.AddNode(".", "T", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty type: %v", err)
	}
}

func TestAccessors(t *testing.T) {
	src := "[gd_resource type=\"Resource\" script_class=\"Stats\" format=3 uid=\"uid://s\"]\n\n" +
		"[ext_resource type=\"Script\" uid=\"uid://scr\" path=\"res://stats.gd\" id=\"1_abcde\"]\n\n" +
		"[sub_resource type=\"Curve\" id=\"Curve_x\"]\npoint_count = 2\n\n" +
		"[resource]\nscript = ExtResource(\"1_abcde\")\ncurve = SubResource(\"Curve_x\")\nhp = 10\n"
	f := mustParseFile(t, "stats.tres", src)
	if f.Name() != "stats.tres" || f.ScriptClass() != "Stats" || f.ResourceType() != "Resource" || f.UID() != "uid://s" || f.LoadSteps() != 0 {
		t.Fatal("header accessors")
	}
	var names []string
	for _, fl := range f.Header() {
		names = append(names, fl.Name)
	}
	if !slices.Equal(names, []string{"type", "script_class", "format", "uid"}) {
		t.Errorf("header fields %v", names)
	}
	e := f.ExtResources()[0]
	if e.ID() != "1_abcde" || e.Type() != "Script" || e.Path() != "res://stats.gd" || e.UID() != "uid://scr" || e.Ref() != (ExtResource{ID: "1_abcde"}) {
		t.Fatal("ext accessors")
	}
	if f.ExtResource("1_abcde") != e || f.ExtResourceByPath("res://stats.gd") != e || f.ExtResource("x") != nil {
		t.Fatal("ext lookup")
	}
	s := f.SubResources()[0]
	if s.ID() != "Curve_x" || s.Type() != "Curve" || s.Ref() != (SubResource{ID: "Curve_x"}) || s.Tag() != "sub_resource" {
		t.Fatal("sub accessors")
	}
	if fs := s.Fields(); len(fs) != 2 || fs[1] != (Field{Name: "id", Value: String("Curve_x")}) {
		t.Fatalf("fields %v", fs)
	}
	r := f.Resource()
	if !slices.Equal(r.Keys(), []string{"script", "curve", "hp"}) || r.Tag() != "resource" {
		t.Fatalf("keys %v", r.Keys())
	}
	var buf bytes.Buffer
	if n, err := f.WriteTo(&buf); err != nil || n != int64(len(src)) || buf.String() != src {
		t.Fatalf("WriteTo = %d, %v", n, err)
	}

	p := mustParseProject(t, "config_version=5\n\n[application]\n\nconfig/name=\"x\"\nrun/main_scene=\"res://m.tscn\"\n")
	if got := p.Settings(); !slices.Equal(got, []string{"config_version", "application/config/name", "application/run/main_scene"}) {
		t.Errorf("settings %v", got)
	}
	if p.Name() != "project.godot" || p.Section("application") == nil || p.Section("nope") != nil {
		t.Error("config accessors")
	}
	buf.Reset()
	if _, err := p.WriteTo(&buf); err != nil || buf.String() != string(p.Bytes()) {
		t.Error("config WriteTo")
	}
	if k := KindPackedVector4Array.String(); k != "PackedVector4Array" || Kind(200).String() != "Kind(?)" {
		t.Errorf("Kind.String = %q", k)
	}
}

func TestEqual(t *testing.T) {
	vals := []Value{
		Nil{}, Bool(true), Int(1), Float(1), String("a"), StringName("a"), NodePath("a"),
		Vector2{1, 2}, Array{Items: []Value{Int(1)}}, Array{Type: &TypeRef{Name: "int"}, Items: []Value{Int(1)}},
		Dictionary{Entries: []DictEntry{{String("a"), Int(1)}}}, PackedByteArray{Data: []byte{1}},
		PackedInt32Array{1}, PackedInt64Array{1}, PackedFloat32Array{1}, PackedFloat64Array{1},
		PackedStringArray{"a"}, PackedVector2Array{{1, 2}}, PackedVector3Array{{1, 2, 3}},
		PackedVector4Array{{1, 2, 3, 4}}, PackedColorArray{{1, 1, 1, 1}},
		Object{Class: "A"}, ExtResource{ID: "1"}, SubResource{ID: "1"}, ResourceRef{Path: "p"},
	}
	for i, a := range vals {
		for j, b := range vals {
			if got := Equal(a, b); got != (i == j) {
				t.Errorf("Equal(%s, %s) = %v", FormatValue(a), FormatValue(b), got)
			}
		}
	}
	if !Equal(PackedByteArray{Data: []byte{1}, Base64: true}, PackedByteArray{Data: []byte{1}}) {
		t.Error("byte arrays differing only in spelling should be equal")
	}
	if Equal(nil, Int(1)) || !Equal(nil, nil) {
		t.Error("nil handling")
	}
}
