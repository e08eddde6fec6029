package godot

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// largeScene builds a valid scene of about size bytes from one kind of
// content, the shapes that make real scenes large: many nodes, big packed
// arrays (meshes, tile data), arrays of boxed values (animation keys), and
// long strings.
func largeScene(kind string, size int) []byte {
	var b strings.Builder
	b.Grow(size + 1024)
	b.WriteString("[gd_scene load_steps=2 format=3 uid=\"uid://b1\"]\n\n")
	switch kind {
	case "nodes":
		b.WriteString("[node name=\"Root\" type=\"Node2D\"]\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "\n[node name=\"Sprite%d\" type=\"Sprite2D\" parent=\".\"]\nposition = Vector2(%d.5, %d.25)\nscale = Vector2(1.5, 1.5)\nz_index = %d\nmodulate = Color(1, 0.5, 0.25, 1)\n", i, i, i*2, i%7)
		}
	case "packed":
		b.WriteString("[sub_resource type=\"ArrayMesh\" id=\"m\"]\n_surfaces = [{\n\"format\": 34359742465,\n\"vertex_data\": PackedVector3Array(")
		for i := 0; b.Len() < size-64; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d.125, %d.5, -%d.75", i%1000, i%333, i%77)
		}
		b.WriteString(")\n}]\n\n[node name=\"Root\" type=\"Node3D\"]\n")
	case "boxed":
		b.WriteString("[sub_resource type=\"Animation\" id=\"a\"]\ntracks/0/keys = {\n\"values\": [")
		for i := 0; b.Len() < size-64; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "Vector2(%d.5, %d)", i%1000, i%333)
		}
		b.WriteString("]\n}\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	case "ints":
		b.WriteString("[node name=\"Root\" type=\"TileMapLayer\"]\ntile_map_data = PackedByteArray(")
		for i := 0; b.Len() < size-64; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", i%256)
		}
		b.WriteString(")\n")
	case "strings":
		b.WriteString("[node name=\"Root\" type=\"Node\"]\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "metadata/note_%d = \"%s\"\n", i, strings.Repeat("lorem ipsum ", 8))
		}
	}
	return []byte(b.String())
}

// BenchmarkParseLarge parses 8 MiB scenes of each content kind and reports
// the bytes allocated per input byte (B/in-byte) and the live heap the
// parsed file keeps per input byte (live/in-byte): the memory a large scene
// costs, which RSS follows.
func BenchmarkParseLarge(b *testing.B) {
	for _, kind := range []string{"nodes", "packed", "boxed", "ints", "strings"} {
		b.Run(kind, func(b *testing.B) {
			src := largeScene(kind, 8<<20)
			if _, err := ParseFile("large.tscn", src); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			var keep *File
			for range b.N {
				f, err := ParseFile("large.tscn", src)
				if err != nil {
					b.Fatal(err)
				}
				keep = f
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "B/in-byte")
			runtime.GC()
			var live runtime.MemStats
			runtime.ReadMemStats(&live)
			b.ReportMetric(float64(int64(live.HeapAlloc)-int64(before.HeapAlloc))/float64(len(src)), "live/in-byte")
			runtime.KeepAlive(keep)
		})
	}
}
