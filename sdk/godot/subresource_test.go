package godot

import (
	"strings"
	"testing"
)

const placeScene = `[gd_scene load_steps=3 format=3]

[sub_resource type="RectangleShape2D" id="1"]
size = Vector2(8, 32)

[sub_resource type="CircleShape2D" id="2"]

[node name="Main" type="Node2D"]

[node name="A" type="CollisionShape2D" parent="."]
shape = SubResource("1")

[node name="B" type="CollisionShape2D" parent="."]

[node name="C" type="CollisionShape2D" parent="."]
shape = SubResource("2")
`

// A sub resource added for a node goes where the editor's saver writes it
// (after the ones used before that node, before the ones used after),
// the existing ones keep their order, and load_steps follows the count.
func TestNewSubResourcePlacement(t *testing.T) {
	f, err := ParseFile("res://main.tscn", []byte(placeScene))
	if err != nil {
		t.Fatal(err)
	}
	grad, _ := f.AddSubResource("Gradient")
	tex, _ := f.AddSubResource("GradientTexture2D")
	tex.Set("gradient", grad.Ref())
	f.Node("B").Set("shape", tex.Ref()) // not a shape, but placement only looks at references
	got := string(f.Bytes())
	var order []string
	for _, s := range f.SubResources() {
		order = append(order, s.Type())
	}
	if strings.Join(order, " ") != "RectangleShape2D Gradient GradientTexture2D CircleShape2D" {
		t.Errorf("order %v:\n%s", order, got)
	}
	if !strings.HasPrefix(got, "[gd_scene load_steps=5 format=3]") {
		t.Errorf("load_steps not kept right:\n%s", got)
	}
	if g, err := ParseFile("x", []byte(got)); err != nil || string(g.Bytes()) != got {
		t.Fatalf("written file does not parse and round-trip: %v", err)
	}
	// The last user letting go removes both, and load_steps follows.
	f.Node("B").Clear("shape")
	if got := string(f.Bytes()); strings.Contains(got, "Gradient") || !strings.HasPrefix(got, "[gd_scene load_steps=3 format=3]") {
		t.Errorf("after clearing:\n%s", got)
	}
}

// CopySubResource is Make Unique: shallow shares what the original uses,
// deep copies it too; users and RemoveSubResources see the result.
func TestCopySubResource(t *testing.T) {
	src := `[gd_resource type="GradientTexture2D" format=3]

[sub_resource type="Gradient" id="Gradient_a"]
offsets = PackedFloat32Array(0, 1)

[sub_resource type="GradientTexture2D" id="GradientTexture2D_b"]
gradient = SubResource("Gradient_a")

[resource]
gradient = SubResource("Gradient_a")
`
	for _, deep := range []bool{false, true} {
		f, err := ParseFile("res://t.tres", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c, err := f.CopySubResource("GradientTexture2D_b", deep)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := c.Get("gradient")
		shared := v.(SubResource).ID == "Gradient_a"
		if shared == deep {
			t.Errorf("deep=%v: copy's gradient %v", deep, v)
		}
		if users := f.SubResourceUsers("Gradient_a"); len(users) < 2 || users[len(users)-1].Property != "gradient" {
			t.Errorf("users of Gradient_a: %+v", users)
		}
		removed := f.RemoveSubResources(c.ID())
		if len(removed) == 0 || f.SubResource(c.ID()) != nil {
			t.Errorf("unused copy not removed: %v", removed)
		}
		if got := string(f.Bytes()); got != src {
			t.Errorf("deep=%v: removing the copies did not restore the file:\n%s", deep, got)
		}
	}
}
