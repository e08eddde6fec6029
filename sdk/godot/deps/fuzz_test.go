package deps

import (
	"testing"
)

// FuzzSummarise feeds arbitrary bytes to every summariser: none may panic,
// and every reference and finding must point at a line of the input.
//
//	go test -fuzz FuzzSummarise ./godot/deps
func FuzzSummarise(f *testing.F) {
	f.Add([]byte("extends Node\nconst A = preload(\"res://a.tscn\") # x\nfunc _r():\n\tb.pressed.connect(_x)\n\tconnect(\"hit\", self, \"_h\")\n"), uint8(0))
	f.Add([]byte("[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=\"1\"]\n\n[node name=\"R\" type=\"Node\"]\nscript = ExtResource(\"1\")\n\n[node name=\"C\" parent=\"X\"]\n\n[connection signal=\"s\" from=\"Q\" to=\".\" method=\"m\"]\n"), uint8(1))
	f.Add([]byte("config_version=5\n[application]\nrun/main_scene=\"res://m.tscn\"\n[autoload]\nA=\"*res://a.gd\"\n"), uint8(2))
	f.Add([]byte("shader_type canvas_item;\n#include \"res://inc.gdshaderinc\"\n"), uint8(3))
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		kinds := []struct {
			path string
			kind Kind
		}{{"res://a.gd", KindScript}, {"res://a.tscn", KindScene}, {"res://project.godot", KindProject},
			{"res://a.gdshader", KindShader}, {"res://a.tres", KindResource}, {"res://export_presets.cfg", KindExportPresets},
			{"res://a.png.import", KindImport}, {"res://a.gd.uid", KindUID}}
		k := kinds[int(which)%len(kinds)]
		fi := summarise(k.path, k.kind, src)
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, r := range fi.Refs {
			if r.Line < 0 || r.Line > lines {
				t.Fatalf("ref line %d outside 1..%d: %+v", r.Line, lines, r)
			}
		}
		for _, f := range fi.Findings {
			if f.Line < 0 || f.Line > lines || f.Code == "" || f.Hint == "" {
				t.Fatalf("bad finding %+v (lines %d)", f, lines)
			}
		}
		newGraph([]*FileInfo{fi}).Integrity(nil)
	})
}
