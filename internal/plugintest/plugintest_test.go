package plugintest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestProjectWritesNestedAndResPaths(t *testing.T) {
	dir := Project(t, map[string]string{"project.godot": "config_version=5\n", "res://a/b/c.gd": "extends Node\n"})
	for rel, want := range map[string]string{"project.godot": "config_version=5\n", "a/b/c.gd": "extends Node\n"} {
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, want)
		}
	}
}

func TestSameParams(t *testing.T) {
	a := map[string]any{"name": "jump", "confirm": true, "index": float64(0)}
	for _, c := range []struct {
		b    map[string]any
		want bool
	}{
		{map[string]any{"name": "jump", "confirm": true, "index": float64(0)}, true},
		{map[string]any{"name": "jump", "confirm": true}, false},
		{map[string]any{"name": "jump", "confirm": false, "index": float64(0)}, false},
		{map[string]any{"name": "jump", "confirm": true, "other": float64(0)}, false},
	} {
		if got := SameParams(a, c.b); got != c.want {
			t.Errorf("SameParams(%v, %v) = %v, want %v", a, c.b, got, c.want)
		}
	}
}
