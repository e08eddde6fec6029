package main

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// The packed arrays the addon leaves to JSON.stringify read as Godot's
// str() prints them.
func TestGodotStrPackedArrays(t *testing.T) {
	for _, c := range []struct {
		v    godot.Value
		want string
	}{
		{godot.PackedVector2Array{{X: 1, Y: 2}, {X: 3, Y: 4.5}}, "[(1, 2), (3, 4.5)]"},
		{godot.PackedVector3Array{{X: 1, Y: 2, Z: 3}}, "[(1, 2, 3)]"},
		{godot.PackedColorArray{{R: 1, G: 0.5, B: 0, A: 1}, {A: 1}}, "[(1, 0.5, 0, 1), (0, 0, 0, 1)]"},
		{godot.PackedByteArray{Data: []byte{0, 7, 255}}, "[0, 7, 255]"},
		{godot.PackedVector2Array{}, "[]"},
	} {
		if got := toJSON(c.v, nil, ""); got != c.want {
			t.Errorf("%T: got %v, want %s", c.v, got, c.want)
		}
	}
}
