package godot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

// Fuzz targets. Properties: nothing panics or hangs; errors are positioned
// *SyntaxErrors; anything that parses is written back byte for byte, the
// output parses again, and edits produce files that still parse. Seeds are
// the corpus files (when present) plus small hand-written inputs.

// addCorpusSeeds adds corpus files accepted by keep. A missing corpus only
// means fewer seeds, so it does not skip the target.
func addCorpusSeeds(f *testing.F, keep func(rel string) bool) {
	root, err := fixtures.Locate()
	if err != nil {
		f.Logf("fuzzing with hand-written seeds only: %v", err)
		return
	}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
		return nil
	})
}

func isResourcePath(p string) bool {
	ext := filepath.Ext(p)
	return ext == ".tscn" || ext == ".tres"
}

func isConfigPath(p string) bool { return filepath.Ext(p) == ".godot" }

func checkSyntaxError(t *testing.T, err error) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error is %T, want *SyntaxError: %v", err, err)
	}
	if se.Line < 1 || se.Col < 1 || se.Msg == "" {
		t.Fatalf("bad error position or message: %+v", se)
	}
}

var valueSeeds = []string{
	`1`, `-1.5e-07`, `"a\"b\\c\n\u00e9\U01F600"`, `&"name"`, `NodePath("A/B:x")`,
	`Vector2(0, 0)`, `Vector3i(1, -2, 3)`, `Rect2(1, 2, 3, 4)`, `Transform2D(1, 0, 0, 1, 0, 0)`,
	`Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)`, `Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)`,
	`Color(1, 1, 1, 1)`, `#ff00ff80`, `[1, "a", null, inf, nan, -inf]`, `{"b": 1, &"a": [2], 3: {}}`,
	`Array[int]([1, 2])`, `Array[ExtResource("1_abc")]([])`, `Dictionary[String, int]({"a": 1})`,
	`PackedByteArray("AAEC")`, `PackedByteArray(1, 2, 3)`, `PackedVector4Array(1, 2, 3, 4)`,
	`PackedStringArray("a", "b",)`, `Object(InputEventKey,"keycode":65,"script":null)` + "\n",
	`Resource("uid://abc", "res://x.tres")`, `SubResource("x")`, `RID()`, `Signal()`, `Callable()`,
	`[[[[[]]]]]`, `{"a": `, `"\ud83d\ude00"`, `"\ud83d"`, `Vector2(1,)`, `Quat(0, 0, 0, 1)`,
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("[node name=\"a\" parent=\".\"]\nkey = 1 ; comment\n"))
	addCorpusSeeds(f, isResourcePath)
	f.Fuzz(func(t *testing.T, data []byte) {
		lx := lexer{src: data}
		last := -1
		for range len(data) + 2 {
			tok, err := lx.next()
			if err != nil {
				if err.off < 0 || err.off > len(data) {
					t.Fatalf("error offset %d out of range", err.off)
				}
				return
			}
			if tok.kind == tokEOF {
				return
			}
			if tok.pos <= last || tok.end <= tok.pos || tok.end > len(data) || lx.pos != tok.end {
				t.Fatalf("bad token span %d..%d (previous %d, lexer at %d)", tok.pos, tok.end, last, lx.pos)
			}
			last = tok.pos
		}
		t.Fatal("lexer did not reach EOF: it is not making progress")
	})
}

func FuzzParseValue(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseValue(data)
		if err != nil {
			checkSyntaxError(t, err)
			return
		}
		// The canonical text must parse, and reach a fixed point after one
		// more round (the first round may normalise lossy escapes such as
		// \a, which the engine writes but reads back as 'a').
		t1 := FormatValue(v)
		v2, err := ParseValue([]byte(t1))
		if err != nil {
			t.Fatalf("canonical text does not parse: %v\ninput: %q\ncanonical: %q", err, data, t1)
		}
		t2 := FormatValue(v2)
		v3, err := ParseValue([]byte(t2))
		if err != nil {
			t.Fatalf("second canonical text does not parse: %v\n%q", err, t2)
		}
		if t3 := FormatValue(v3); t3 != t2 {
			t.Fatalf("canonical form not stable:\n%q\n%q", t2, t3)
		}
	})
}

func FuzzParseFile(f *testing.F) {
	f.Add([]byte("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\n"))
	f.Add([]byte("[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = 1\n"))
	f.Add([]byte("[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=\"1\"]\n[sub_resource type=\"X\" id=\"s\"]\na = ExtResource(\"1\")\n[node name=\"A\" type=\"Node\"]\nb = SubResource(\"s\") ; c"))
	addCorpusSeeds(f, isResourcePath)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseFile("fuzz.tscn", data)
		if err != nil {
			checkSyntaxError(t, err)
			return
		}
		out := file.Bytes()
		if !bytes.Equal(out, data) {
			t.Fatalf("not lossless:\n%s", firstDiff(data, out))
		}
		if _, err := ParseFile("fuzz.tscn", out); err != nil {
			t.Fatalf("output does not parse: %v", err)
		}
		// An edit must leave a parseable file with the edit visible.
		target := file.Resource()
		if r := file.Root(); r != nil {
			target = r.Section
		}
		if target == nil {
			return
		}
		target.Set("metadata/fuzz", Int(7))
		edited := file.Bytes()
		again, err := ParseFile("fuzz.tscn", edited)
		if err != nil {
			t.Fatalf("edited output does not parse: %v\n%q", err, edited)
		}
		sec := again.Resource()
		if r := again.Root(); r != nil {
			sec = r.Section
		}
		if v, _ := sec.Get("metadata/fuzz"); !Equal(v, Int(7)) {
			t.Fatalf("edit lost: got %v\n%q", v, edited)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("; c\nconfig_version=5\n\n[application]\n\nconfig/name=\"x\"\n"))
	f.Add([]byte("[a\\]b]\nk=1"))
	addCorpusSeeds(f, isConfigPath)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProject("project.godot", data)
		if err != nil {
			checkSyntaxError(t, err)
			return
		}
		out := p.Bytes()
		if !bytes.Equal(out, data) {
			t.Fatalf("not lossless:\n%s", firstDiff(data, out))
		}
		p.SetSetting("fuzz/key", Int(7))
		p.SetSetting("top_level", Int(8))
		edited := p.Bytes()
		again, err := ParseProject("project.godot", edited)
		if err != nil {
			t.Fatalf("edited output does not parse: %v\n%q", err, edited)
		}
		for name, want := range map[string]Value{"fuzz/key": Int(7), "top_level": Int(8)} {
			if v, _ := again.Setting(name); !Equal(v, want) {
				t.Fatalf("edit of %s lost: got %v\n%q", name, v, edited)
			}
		}
	})
}
