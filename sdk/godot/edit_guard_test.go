package godot

import (
	"errors"
	"strings"
	"testing"
)

const instancedScene = `[gd_scene format=3]

[ext_resource type="PackedScene" path="res://p.tscn" id="1_abcde"]

[node name="Main" type="Node2D"]

[node name="Player" parent="." instance=ExtResource("1_abcde")]

[node name="Sprite" parent="Player"]
modulate = Color(1, 0, 0, 1)
`

// A node that overrides one inside an instanced scene is found by name;
// renaming it would orphan the override, so the edit is refused and the
// file is untouched.
func TestRenameRefusesNodesOfAnInstancedScene(t *testing.T) {
	f := mustParseFile(t, "main.tscn", instancedScene)
	err := f.RenameNode("Player/Sprite", "Sprite9")
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "instanced") {
		t.Fatalf("RenameNode = %v, want ErrInvalid naming the instanced scene", err)
	}
	if got := string(f.Bytes()); got != instancedScene {
		t.Fatalf("a refused rename changed the file:\n%s", got)
	}
	if err := f.RenameNode("Player", "Hero"); err != nil {
		t.Fatalf("renaming the instance itself must still work: %v", err)
	}
}

// Duplicating a node whose connection points at a missing node must not
// fail after the copy has been inserted: the dangling connection (which
// Godot drops on load anyway) is not copied, everything else is.
func TestDuplicateWithDanglingConnectionCompletes(t *testing.T) {
	src := `[gd_scene format=3]

[node name="Main" type="Node"]

[node name="A" type="Node" parent="."]

[node name="B" type="Node" parent="."]

[connection signal="ready" from="A" to="Missing" method="f"]
[connection signal="ready" from="A" to="B" method="g"]
`
	f := mustParseFile(t, "main.tscn", src)
	n, err := f.DuplicateNode("A", "")
	if err != nil {
		t.Fatalf("DuplicateNode: %v", err)
	}
	out := string(f.Bytes())
	if !strings.Contains(out, `from="`+n.Name()+`" to="B" method="g"`) {
		t.Errorf("the good connection was not copied:\n%s", out)
	}
	if strings.Count(out, `to="Missing"`) != 1 {
		t.Errorf("the dangling connection must stay once, not be copied:\n%s", out)
	}
}
