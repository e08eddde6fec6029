package importfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

// projects is the shared corpus of whole projects, whose .import files the
// Godot editor wrote.
func projects(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(fixtures.Dir(t), "..", "projects")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIPPING: no project corpus at %s", dir)
	}
	return dir
}

// A .import file the editor wrote after a first import with default
// options is what Build writes, byte for byte: the paths derived from the
// source's path, the uid, the options in order.
func TestBuildIsTheEditorsFile(t *testing.T) {
	root := projects(t)
	cases := []struct{ project, file string }{
		{"2d-pong", "ball.png"},
		{"2d-pong", "paddle.png"},
		{"3d-squash_the_creeps", "fonts/Montserrat-Medium.ttf"},
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join(root, c.project, c.file+".import"))
		if err != nil {
			t.Fatal(err)
		}
		info, err := Parse(c.file+".import", want)
		if err != nil {
			t.Fatal(err)
		}
		im, ok := For(c.file)
		if !ok {
			t.Fatalf("%s: no importer", c.file)
		}
		got := Build("res://"+c.file, im, info.UID)
		if string(got) != string(want) {
			t.Errorf("%s/%s: Build differs from the editor's file\n got:\n%s\nwant:\n%s", c.project, c.file, got, want)
		}
	}
}

// Every .import file of the corpus names the importer and type For picks,
// lists the options For's defaults list, in the same order, and differs
// from the defaults only where the project chose otherwise; the choices
// checked here are the ones the projects are known to have made.
func TestCorpusImportsUseTheDefaultOptions(t *testing.T) {
	root := projects(t)
	// Options the demo projects changed from the defaults, per importer.
	chosen := map[string][]string{
		"texture": {"compress/mode", "mipmaps/generate", "detect_3d/compress_to", "roughness/mode", "roughness/src_normal",
			"compress/normal_map", "process/premult_alpha", "process/fix_alpha_border", "svg/scale",
			"process/size_limit", "process/normal_map_invert_y"},
		"wav":          {"edit/trim", "edit/normalize", "edit/loop_mode"},
		"oggvorbisstr": {"loop", "loop_offset", "bpm"},
		// The scene options the demo projects hold from before they
		// existed, set by the editor for compatibility.
		"scene": {"nodes/apply_root_scale", "nodes/use_name_suffixes", "nodes/use_node_type_suffixes", "_subresources", "gltf/texture_map_mode"},
	}
	// Importers an image can be switched to in the Import dock.
	alsoImages := map[string]bool{"cubemap_texture": true, "3d_texture": true, "2d_array_texture": true,
		"cubemap_array_texture": true, "texture_atlas": true, "image": true, "font_data_image": true, "bitmap": true}
	seen := map[string]int{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".import") {
			return err
		}
		source := strings.TrimSuffix(filepath.Base(p), ".import")
		im, ok := For(source)
		if !ok {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := Parse(p, data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if im.Name == "texture" && alsoImages[info.Importer] {
			return nil // the project chose another image importer
		}
		if info.Importer != im.Name || info.Type != im.Type {
			t.Errorf("%s: importer %s type %s, For says %s %s", rel, info.Importer, info.Type, im.Name, im.Type)
			return nil
		}
		var keys []string
		for _, line := range strings.Split(string(data[strings.Index(string(data), "[params]"):]), "\n") {
			if k, _, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "\"") && !strings.HasPrefix(line, " ") {
				keys = append(keys, k)
			}
		}
		var want []string
		for _, prm := range im.Params {
			want = append(want, prm.Key)
		}
		if !slices.Equal(keys, want) {
			t.Errorf("%s: options\n%q\nwant\n%q", rel, keys, want)
			return nil
		}
		for _, prm := range im.Params {
			if got := info.Params[prm.Key]; got != prm.Value && !slices.Contains(chosen[im.Name], prm.Key) {
				t.Errorf("%s: %s=%s, default %s", rel, prm.Key, got, prm.Value)
			}
		}
		if want := "res://" + filepath.ToSlash(strings.TrimSuffix(rel[strings.Index(rel, "/")+1:], ".import")); info.SourceFile != want {
			t.Errorf("%s: source_file %s, want %s", rel, info.SourceFile, want)
		}
		seen[im.Name]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"texture", "wav", "oggvorbisstr", "font_data_dynamic", "scene"} {
		if seen[name] == 0 {
			t.Errorf("the corpus checked no %s import", name)
		}
	}
	t.Logf("checked %v", seen)
}

func TestBasePath(t *testing.T) {
	// From the corpus: 2d-pong/ball.png.import and 3d-squash_the_creeps.
	for src, want := range map[string]string{
		"res://ball.png":    "res://.godot/imported/ball.png-9a4ca347acb7532f6ae347744a6b04f7",
		"res://art/mob.glb": "res://.godot/imported/mob.glb-3afb43c03b9d1598b6af5154e2543eac",
	} {
		if got := BasePath(src); got != want {
			t.Errorf("BasePath(%s) = %s, want %s", src, got, want)
		}
	}
}

func TestForAndSourceMD5(t *testing.T) {
	for file, name := range map[string]string{"a.PNG": "texture", "b.jpeg": "texture", "c.svg": "texture", "d.wav": "wav",
		"e.ogg": "oggvorbisstr", "f.mp3": "mp3", "g.otf": "font_data_dynamic", "h.gltf": "scene"} {
		im, ok := For(file)
		if !ok || im.Name != name {
			t.Errorf("For(%s) = %q %v, want %s", file, im.Name, ok, name)
		}
	}
	if _, ok := For("x.tscn"); ok {
		t.Error("a scene is not imported")
	}
	svg, _ := For("x.svg")
	if v, ok := svg.Param("svg/scale"); !ok || v != "1.0" {
		t.Errorf("svg/scale = %q %v", v, ok)
	}
	png, _ := For("x.png")
	if _, ok := png.Param("svg/scale"); ok {
		t.Error("a PNG has no svg/scale option")
	}
	// A first import's scene options, from Godot's importer (the demo
	// projects hold older values for these, kept for compatibility).
	glb, _ := For("x.glb")
	for k, want := range map[string]string{"gltf/texture_map_mode": "1", "nodes/use_name_suffixes": "true",
		"nodes/use_node_type_suffixes": "true", "nodes/apply_root_scale": "true"} {
		if v, _ := glb.Param(k); v != want {
			t.Errorf("glb %s = %q, want %s", k, v, want)
		}
	}
	// WAV: no trim or normalize, QOA (the demo projects chose otherwise).
	wav, _ := For("x.wav")
	for k, want := range map[string]string{"edit/trim": "false", "edit/normalize": "false", "compress/mode": "2"} {
		if v, _ := wav.Param(k); v != want {
			t.Errorf("wav %s = %q, want %s", k, v, want)
		}
	}
	if got := SourceMD5([]byte("source_md5=\"0123\"\ndest_md5=\"4567\"\n\n")); got != "0123" {
		t.Errorf("SourceMD5 = %q", got)
	}
}
