package main

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// FuzzRewriteRefs: whatever a file holds, a rewrite leaves no reference
// to the old path, counts what it changed, keeps a parseable scene
// parseable, and counting alone agrees with the rewrite.
func FuzzRewriteRefs(f *testing.F) {
	const from, to = "res://gui/theme.tres", "res://ui/theme.tres"
	f.Add("scene.tscn", "[gd_scene format=3]\n\n[ext_resource type=\"Theme\" uid=\"uid://b\" path=\"res://gui/theme.tres\" id=\"1\"]\n\n[node name=\"A\" type=\"Control\"]\ntheme = ExtResource(\"1\")\n")
	f.Add("a.gd", "const T = preload(\"res://gui/theme.tres\")\nvar u = 'res://gui/theme.tres'\n")
	f.Add("project.godot", "[autoload]\n\nG=\"*res://gui/theme.tres\"\n")
	f.Add("r.tres", "[gd_resource type=\"Theme\" format=3]\n\n[resource]\nx = \"res://gui/theme.tres\"\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		switch name {
		case "scene.tscn", "r.tres", "a.gd", "project.godot":
		default:
			name = "scene.tscn"
		}
		_, counted := rewriteRefs(name, []byte(data), from, "", "", false)
		out, n := rewriteRefs(name, []byte(data), from, to, "", false)
		if n != counted {
			t.Fatalf("counting found %d references, the rewrite changed %d", counted, n)
		}
		if _, left := rewriteRefs(name, out, from, "", "", false); left != 0 {
			t.Fatalf("%d references left after the rewrite:\n%s", left, out)
		}
		if name == "scene.tscn" || name == "r.tres" {
			if _, err := godot.ParseFile(name, []byte(data)); err == nil {
				if _, err := godot.ParseFile(name, out); err != nil {
					t.Fatalf("the rewrite broke the file: %v\n%s", err, out)
				}
			}
		}
	})
}
