package godot

import (
	"strings"
	"testing"
)

func TestMarkNodeReference(t *testing.T) {
	src := "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\" unique_id=1]\n\n[node name=\"N\" type=\"Node2D\" parent=\".\" unique_id=2 groups=[\"g\"]]\ntarget = NodePath(\"..\")\nother = 1\nnodes = [NodePath(\"..\")]\n"
	f, err := ParseFile("t.tscn", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n := f.Node("N")
	steps := []struct {
		prop string
		on   bool
		want string // the header, "" for unchanged text
	}{
		{"nodes", true, `[node name="N" type="Node2D" parent="." unique_id=2 node_paths=PackedStringArray("nodes") groups=["g"]]`},
		{"target", true, `[node name="N" type="Node2D" parent="." unique_id=2 node_paths=PackedStringArray("target", "nodes") groups=["g"]]`},
		{"target", true, `[node name="N" type="Node2D" parent="." unique_id=2 node_paths=PackedStringArray("target", "nodes") groups=["g"]]`},
		{"missing", true, `[node name="N" type="Node2D" parent="." unique_id=2 node_paths=PackedStringArray("target", "nodes") groups=["g"]]`},
		{"target", false, `[node name="N" type="Node2D" parent="." unique_id=2 node_paths=PackedStringArray("nodes") groups=["g"]]`},
		{"nodes", false, `[node name="N" type="Node2D" parent="." unique_id=2 groups=["g"]]`},
	}
	for i, s := range steps {
		n.MarkNodeReference(s.prop, s.on)
		if got := string(f.Bytes()); !strings.Contains(got, s.want+"\n") {
			t.Fatalf("step %d (%s %v): want %s in\n%s", i, s.prop, s.on, s.want, got)
		}
	}
	if got := string(f.Bytes()); got != src {
		t.Fatalf("marking and unmarking must give the file back:\n%s", got)
	}
	if p, ok := n.ResolveNodePath("../N"); !ok || p != "N" {
		t.Fatalf("ResolveNodePath: %q %v", p, ok)
	}
	if _, ok := n.ResolveNodePath("../../x"); ok {
		t.Fatal("a path above the root must not resolve")
	}
}
