package nodeedit

import (
	"strings"
	"testing"
)

// A Node3D's position, rotation and scale become the one transform the
// editor saves, computed in single precision as the engine does (-90°
// about X gives Godot's -4.371139e-08); other classes are left alone.
func TestWithTransform(t *testing.T) {
	out, err := WithTransform("MeshInstance3D", map[string]any{"position": []any{1.0, 2.0, 3.0}, "rotation_degrees": []any{-90.0, 0.0, 0.0}, "visible": false})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := out["transform"].(string)
	if !strings.HasPrefix(tr, "Transform3D(1, 0, 0, 0, -4.371139e-08, 1, 0, -1, -4.371139e-08, 1, 2, 3)") || out["visible"] != false || out["rotation_degrees"] != nil {
		t.Errorf("got %v", out)
	}
	same, _ := WithTransform("Node2D", map[string]any{"rotation": 1.0})
	if same["rotation"] != 1.0 || same["transform"] != nil {
		t.Errorf("a 2D node's rotation was changed: %v", same)
	}
	if _, err := WithTransform("Node3D", map[string]any{"rotation": []any{0.0, 0.0, 0.0}, "rotation_degrees": []any{0.0, 0.0, 0.0}}); err == nil {
		t.Error("rotation and rotation_degrees together were accepted")
	}
}
