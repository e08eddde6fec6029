package godot

import (
	"strings"
	"testing"
)

const sessionScene = `[gd_scene format=3 uid="uid://abc"]

[ext_resource type="PackedScene" path="res://enemy.tscn" id="1_e"]

[node name="Main" type="Node2D"]

[node name="A" type="Node2D" parent="."]

[node name="A1" type="Node" parent="A"]

[node name="B" type="Node2D" parent="."]
position = Vector2(1, 2)

[node name="Enemy" parent="." instance=ExtResource("1_e")]

[connection signal="ready" from="A" to="." method="_on_a_ready"]
`

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := ParseFile("s.tscn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestNewScene(t *testing.T) {
	f, err := NewScene("n.tscn", "uid://xyz", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddNode("", "Level", "Node2D"); err != nil {
		t.Fatal(err)
	}
	got := string(f.Bytes())
	if !strings.HasPrefix(got, "[gd_scene format=3 uid=\"uid://xyz\"]\n\n[node name=\"Level\" type=\"Node2D\" unique_id=") || !strings.HasSuffix(got, "]\n") {
		t.Fatalf("got %q", got)
	}
	old, _ := NewScene("o.tscn", "", false)
	old.AddNode("", "Level", "Node2D")
	if got := string(old.Bytes()); got != "[gd_scene format=3]\n\n[node name=\"Level\" type=\"Node2D\"]\n" {
		t.Fatalf("got %q", got)
	}
}

func TestMoveNodeTo(t *testing.T) {
	f := mustParse(t, sessionScene)
	// Reorder under the same parent: B first.
	if err := f.MoveNodeTo("B", ".", 0); err != nil {
		t.Fatal(err)
	}
	got := string(f.Bytes())
	if strings.Index(got, `name="B"`) > strings.Index(got, `name="A"`) || !strings.Contains(got, "[node name=\"B\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(1, 2)\n\n[node name=\"A\"") {
		t.Fatalf("reorder:\n%s", got)
	}
	if f.Node("B").Index() != 0 || f.Node("A").Index() != 1 || f.Node("A/A1").Index() != 0 {
		t.Fatal("Index after reorder")
	}
	// Reparent at an index, with the subtree.
	if err := f.MoveNodeTo("A", "B", -1); err != nil {
		t.Fatal(err)
	}
	if f.Node("B/A/A1") == nil || !strings.Contains(string(f.Bytes()), `from="B/A"`) {
		t.Fatalf("reparent:\n%s", f.Bytes())
	}
	if err := f.MoveNodeTo("B", "B/A", 0); err == nil {
		t.Fatal("moving into a descendant must fail")
	}
	re := mustParse(t, string(f.Bytes()))
	if string(re.Bytes()) != string(f.Bytes()) {
		t.Fatal("does not round-trip")
	}
}

func TestSetEditable(t *testing.T) {
	f := mustParse(t, sessionScene)
	if ok, err := f.SetEditable("Enemy", true); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if !strings.HasSuffix(string(f.Bytes()), "method=\"_on_a_ready\"]\n\n[editable path=\"Enemy\"]\n") {
		t.Fatalf("got:\n%s", f.Bytes())
	}
	if ok, _ := f.SetEditable("Enemy", true); ok {
		t.Fatal("second enable must be a no-op")
	}
	if ok, _ := f.SetEditable("Enemy", false); !ok || string(f.Bytes()) != sessionScene {
		t.Fatalf("disable must restore the file:\n%s", f.Bytes())
	}
	if _, err := f.SetEditable("A", true); err == nil {
		t.Fatal("a node that is not an instance must be refused")
	}
}

func TestSetOrdered(t *testing.T) {
	f := mustParse(t, sessionScene)
	rank := func(k string) int { return map[string]int{"visible": 0, "position": 1, "rotation": 2, "script": 9}[k] }
	b := f.Node("B")
	b.SetOrdered("rotation", Float(1), rank)
	b.SetOrdered("visible", Bool(false), rank)
	b.SetOrdered("position", Vector2{X: 3, Y: 4}, rank)
	want := "[node name=\"B\" type=\"Node2D\" parent=\".\"]\nvisible = false\nposition = Vector2(3, 4)\nrotation = 1.0\n"
	if !strings.Contains(string(f.Bytes()), want) {
		t.Fatalf("want\n%s\nin\n%s", want, f.Bytes())
	}
	if !f.Node("Enemy").Declared() || !f.Node("A").Declared() {
		t.Fatal("Declared")
	}
}
