package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// BenchmarkEditCost splits the in-process cost of one headless edit of the
// 20 KB csg.tscn of the corpus: parse, the edit itself, and render (Bytes).
// The end-to-end figure over MCP is host/e2e's BenchmarkSceneEditHeadless.
//
//	go test ./plugins/scene_edit -run '^$' -bench EditCost
func BenchmarkEditCost(b *testing.B) {
	dir := fixture(b, "3d-csg")
	src, err := os.ReadFile(filepath.Join(dir, "csg.tscn"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.Run("parse", func(b *testing.B) {
		for range b.N {
			if _, err := godot.ParseFile("csg.tscn", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("set_property", func(b *testing.B) {
		f, _ := godot.ParseFile("csg.tscn", src)
		n := f.Node("CameraHolder")
		rank := db().PropertyRank("Node3D")
		for i := range b.N {
			n.SetOrdered("position", godot.Vector3{X: float64(i % 2), Y: 1, Z: 2}, rank)
		}
	})
	b.Run("render", func(b *testing.B) {
		f, _ := godot.ParseFile("csg.tscn", src)
		f.Node("CameraHolder").Set("position", godot.Vector3{X: 1, Y: 1, Z: 2})
		for range b.N {
			_ = f.Bytes()
		}
	})
	b.Run("parse+create_node+render", func(b *testing.B) {
		for range b.N {
			f, _ := godot.ParseFile("csg.tscn", src)
			if _, err := f.AddNode(".", nodeedit.FreeName(f, ".", "Node3D"), "Node3D"); err != nil {
				b.Fatal(err)
			}
			_ = f.Bytes()
		}
	})
	b.Run("parse+set_property+render", func(b *testing.B) {
		rank := db().PropertyRank("Node3D")
		for i := range b.N {
			f, _ := godot.ParseFile("csg.tscn", src)
			f.Node("CameraHolder").SetOrdered("position", godot.Vector3{X: float64(i % 2), Y: 1, Z: 2}, rank)
			_ = f.Bytes()
		}
	})
}
