package classdb

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

func TestStoredRoundsFloat32Properties(t *testing.T) {
	db := MustEmbedded()
	third := godot.Float(1.0 / 3)
	for _, c := range []struct {
		class, prop string
		in, want    godot.Value
	}{
		{"Node2D", "rotation", third, godot.Float(float32(1.0 / 3))},
		{"Sprite2D", "rotation", third, godot.Float(float32(1.0 / 3))}, // inherited
		{"Control", "anchor_left", third, godot.Float(float32(1.0 / 3))},
		{"Timer", "wait_time", third, third}, // a double
		{"Node2D", "position", godot.Vector2{X: 1.0 / 3}, godot.Vector2{X: 1.0 / 3}},
		{"Node2D", "no_such", third, third},
	} {
		if got := db.Stored(c.class, c.prop, c.in); got != c.want {
			t.Errorf("%s.%s: %v, want %v", c.class, c.prop, got, c.want)
		}
	}
	if got := godot.FormatValue(db.Stored("Node2D", "rotation", third)); got != "0.33333334" {
		t.Errorf("written as %s", got)
	}
}
