package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

const projectGodot = "config_version=5\n\n[application]\n\nconfig/name=\"Assets\"\nconfig/features=PackedStringArray(\"4.6\")\n"

// pngBytes is a real w×h PNG of one colour.
func pngBytes(t *testing.T, w, h int, c color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// wavBytes is a short, valid 8-bit mono WAV.
func wavBytes() []byte {
	data := bytes.Repeat([]byte{128}, 64)
	le32 := func(n int) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }
	var b bytes.Buffer
	b.WriteString("RIFF")
	b.Write(le32(36 + len(data)))
	b.WriteString("WAVEfmt ")
	b.Write(le32(16))
	b.Write([]byte{1, 0, 1, 0})
	b.Write(le32(8000))
	b.Write(le32(8000))
	b.Write([]byte{1, 0, 8, 0})
	b.WriteString("data")
	b.Write(le32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func writeOutside(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readProject(t *testing.T, dir, res string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(res, "res://"))))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exists(dir, res string) bool {
	_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(res, "res://"))))
	return err == nil
}

type importOut struct {
	Imported     bool              `json:"imported"`
	TargetPath   string            `json:"target_path"`
	DetectedType string            `json:"detected_type"`
	Importer     string            `json:"importer"`
	UID          string            `json:"uid"`
	Settings     map[string]string `json:"import_settings"`
	Next         string            `json:"next"`
}

// An allowed file is copied byte for byte, with the .import file the
// editor writes for it: importer, type, uid, paths, default options.
func TestImportAssetCopiesWithTheEditorsImportFile(t *testing.T) {
	outside := t.TempDir()
	t.Setenv(AllowEnv, outside)
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	cases := []struct {
		name, target, importer, typ string
		data                        []byte
	}{
		{"hero.png", "res://art/hero.png", "texture", "CompressedTexture2D", pngBytes(t, 8, 8, color.NRGBA{255, 0, 0, 255})},
		{"sfx/jump.wav", "res://audio/jump.wav", "wav", "AudioStreamWAV", wavBytes()},
		{"logo.svg", "res://logo.svg", "texture", "CompressedTexture2D", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>`)},
	}
	for _, c := range cases {
		src := writeOutside(t, outside, c.name, c.data)
		out := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": src, "target_path": c.target})
		if !out.Imported || out.Importer != c.importer || out.DetectedType != c.typ || !strings.HasPrefix(out.UID, "uid://") {
			t.Errorf("%s: %+v", c.name, out)
		}
		if got := readProject(t, dir, c.target); !bytes.Equal(got, c.data) {
			t.Errorf("%s: copied bytes differ", c.name)
		}
		im, _ := importfile.For(c.target)
		if got, want := string(readProject(t, dir, c.target+".import")), string(importfile.Build(c.target, im, out.UID)); got != want {
			t.Errorf("%s: .import\n%s\nwant\n%s", c.name, got, want)
		}
	}
	// A .gltf says which of its files are not in the project yet.
	gltf := writeOutside(t, outside, "ship.gltf", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"ship.bin"},{"uri":"data:application/octet-stream;base64,AAAA"}],"images":[{"uri":"tex/hull%20a.png"}]}`))
	g := plugintest.CallAs[struct {
		Needs []string `json:"needs"`
		Next  string   `json:"next"`
	}](t, h, "asset", map[string]any{"source": gltf, "target_path": "res://models/ship.gltf"})
	if !slices.Equal(g.Needs, []string{"res://models/ship.bin", "res://models/tex/hull a.png"}) || !strings.Contains(g.Next, "needs") {
		t.Errorf("gltf: %+v", g)
	}
	if got := string(readProject(t, dir, "res://models/ship.gltf.import")); !strings.Contains(got, "importer=\"scene\"\nimporter_version=1\n") {
		t.Errorf("ship.gltf.import:\n%s", got)
	}

	// The texture's .import is the editor's, as in a real project.
	got := string(readProject(t, dir, "res://art/hero.png.import"))
	for _, line := range []string{`importer="texture"`, `path="res://.godot/imported/hero.png-`, `source_file="res://art/hero.png"`,
		"compress/mode=0", "mipmaps/generate=false", "detect_3d/compress_to=1", "metadata={\n\"vram_texture\": false\n}"} {
		if !strings.Contains(got, line) {
			t.Errorf("hero.png.import lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "svg/scale") || !strings.Contains(string(readProject(t, dir, "res://logo.svg.import")), "svg/scale=1.0") {
		t.Error("svg/scale belongs to .svg files only")
	}

	// Undo takes both files back out.
	if _, err := h.Workspace().Undo(context.Background(), 4, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if exists(dir, c.target) || exists(dir, c.target+".import") {
			t.Errorf("%s: still there after undo", c.target)
		}
	}
}

func TestImportSettingsAndOverwrite(t *testing.T) {
	outside := t.TempDir()
	t.Setenv(AllowEnv, outside)
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	src := writeOutside(t, outside, "a.png", pngBytes(t, 4, 4, color.NRGBA{0, 255, 0, 255}))
	out := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": src, "target_path": "res://a.png",
		"options": map[string]any{"import_settings": map[string]any{"compress/mode": 1, "mipmaps/generate": true, "compress/lossy_quality": 0.9, "type": "Texture2D"}}})
	imp := string(readProject(t, dir, "res://a.png.import"))
	for _, line := range []string{"\ncompress/mode=1\n", "\nmipmaps/generate=true\n", "\ncompress/lossy_quality=0.9\n", "\nprocess/fix_alpha_border=true\n"} {
		if !strings.Contains(imp, line) {
			t.Errorf(".import lacks %q:\n%s", line, imp)
		}
	}
	if out.Settings["compress/mode"] != "1" || len(out.Settings) != 3 {
		t.Errorf("settings %v", out.Settings)
	}

	// A second import of the same path is refused, then replaces the file
	// and keeps the .import (uid and the user's options).
	src2 := writeOutside(t, outside, "b/a.png", pngBytes(t, 4, 4, color.NRGBA{0, 0, 255, 255}))
	plugintest.Refused(t, h, "asset", map[string]any{"source": src2, "target_path": "res://a.png"}, sdk.CodePreconditionFailed, "already exists")
	out2 := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": src2, "target_path": "res://a.png", "options": map[string]any{"overwrite": true}})
	if out2.UID != out.UID || string(readProject(t, dir, "res://a.png.import")) != imp {
		t.Errorf("overwrite changed the .import: uid %s → %s", out.UID, out2.UID)
	}
	if got, _ := os.ReadFile(src2); !bytes.Equal(readProject(t, dir, "res://a.png"), got) {
		t.Error("overwrite did not replace the file")
	}

	// A file of the project can be copied too, with no policy needed; the
	// copy gets its own .import and uid.
	cp := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": "res://a.png", "target_path": "res://copies/a.png"})
	if !bytes.Equal(readProject(t, dir, "res://copies/a.png"), readProject(t, dir, "res://a.png")) || cp.UID == out.UID {
		t.Errorf("copy inside the project: %+v", cp)
	}
	plugintest.Refused(t, h, "asset", map[string]any{"source": "res://../a.png", "target_path": "res://e.png"}, sdk.CodeInvalidArgument, "source")
	plugintest.Refused(t, h, "asset", map[string]any{"source": "res://a.png", "target_path": "res://a.png", "options": map[string]any{"overwrite": true}}, sdk.CodeInvalidArgument, "both")

	// A .import left from another path is not this file's: it is rebuilt
	// with a new uid rather than kept.
	plugintest.WriteFile(t, dir, "res://d.png.import", imp)
	out3 := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": src, "target_path": "res://d.png"})
	if out3.UID == out.UID || !strings.Contains(string(readProject(t, dir, "res://d.png.import")), `source_file="res://d.png"`) {
		t.Errorf("a stray .import was kept: %+v", out3)
	}

	for _, c := range []struct {
		settings map[string]any
		text     string
	}{
		{map[string]any{"compress/nope": 1}, "no option \"compress/nope\""},
		{map[string]any{"mipmaps/generate": "yes"}, "is not true or false"},
		{map[string]any{"compress/mode": 1.5}, "is not a whole number"},
		{map[string]any{"roughness/src_normal": 3}, "is not a string"},
	} {
		plugintest.Refused(t, h, "asset", map[string]any{"source": src, "target_path": "res://c.png",
			"options": map[string]any{"import_settings": c.settings}}, sdk.CodeInvalidArgument, c.text)
	}
	if exists(dir, "res://c.png") {
		t.Error("a refused import wrote the file")
	}
}

// Only what the operator allows is read: everything else is refused with
// the way to allow it, and nothing is written.
func TestImportAssetRefusesWhatTheOperatorDidNotAllow(t *testing.T) {
	allowed := t.TempDir()
	elsewhere := t.TempDir()
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	good := writeOutside(t, allowed, "ok.png", pngBytes(t, 2, 2, color.NRGBA{A: 255}))
	secret := writeOutside(t, elsewhere, "secret.png", pngBytes(t, 2, 2, color.NRGBA{A: 255}))
	link := filepath.Join(allowed, "link.png")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(allowed, "dirlink")); err != nil {
		t.Fatal(err)
	}

	t.Setenv(AllowEnv, "")
	plugintest.Refused(t, h, "asset", map[string]any{"source": good, "target_path": "res://ok.png"}, sdk.CodePreconditionFailed, AllowEnv)

	t.Setenv(AllowEnv, allowed+string(os.PathListSeparator)+"relative/dir")
	cases := []struct {
		source, target, code, text string
	}{
		{secret, "res://s.png", sdk.CodePreconditionFailed, "not inside a folder the operator allows"},
		{link, "res://s.png", sdk.CodePreconditionFailed, "through a symbolic link"},
		{filepath.Join(allowed, "dirlink", "secret.png"), "res://s.png", sdk.CodePreconditionFailed, "through a symbolic link"},
		{filepath.Join(allowed, "..", filepath.Base(elsewhere), "secret.png"), "res://s.png", sdk.CodePreconditionFailed, "not inside"},
		{"ok.png", "res://s.png", sdk.CodeInvalidArgument, "not an absolute path"},
		{"https://example.com/a.png", "res://s.png", sdk.CodeInvalidArgument, "does not fetch"},
		{filepath.Join(allowed, "missing.png"), "res://s.png", sdk.CodeNotFound, "does not exist"},
		{allowed, "res://s.png", sdk.CodeInvalidArgument, "different extensions"},
		{good, "res://s.jpg", sdk.CodeInvalidArgument, "different extensions"},
		{good, "res://s.tscn", sdk.CodeInvalidArgument, "imports no file"},
		{good, "res://.godot/s.png", sdk.CodeInvalidArgument, ".godot"},
		{good, "res://../s.png", sdk.CodeInvalidArgument, "target_path"},
	}
	for _, c := range cases {
		res := plugintest.Refused(t, h, "asset", map[string]any{"source": c.source, "target_path": c.target}, c.code, c.text)
		if c.code == sdk.CodePreconditionFailed && !strings.Contains(res.Text(), AllowEnv) {
			t.Errorf("%s: the refusal does not say how to allow it: %s", c.source, res.Text())
		}
		if strings.Contains(res.Text(), "relative/dir") && !strings.Contains(res.Text(), "ignored") {
			t.Errorf("the bad allow-list entry is not named as ignored: %s", res.Text())
		}
	}
	fake := writeOutside(t, allowed, "fake.png", []byte("GIF89a not a png"))
	plugintest.Refused(t, h, "asset", map[string]any{"source": fake, "target_path": "res://fake.png"}, sdk.CodeInvalidArgument, "does not look like a .png")

	t.Setenv(MaxEnv, "1")
	big := writeOutside(t, allowed, "big.png", append(pngBytes(t, 1, 1, color.NRGBA{}), make([]byte, 2<<20)...))
	// The refusal names the tool as the agent calls it.
	plugintest.Refused(t, h, "asset", map[string]any{"source": big, "target_path": "res://big.png"}, sdk.CodeInvalidArgument, "the largest file godot_asset_import_asset copies is 1 MiB")

	for _, p := range []string{"res://s.png", "res://fake.png", "res://big.png", "res://ok.png"} {
		if exists(dir, p) {
			t.Errorf("%s was written by a refused call", p)
		}
	}
	t.Setenv(MaxEnv, "")
	plugintest.Must(t, h, "asset", map[string]any{"source": good, "target_path": "res://ok.png"})
}

type statusOut struct {
	Imported   *bool          `json:"imported"`
	Type       string         `json:"type"`
	Counts     map[string]int `json:"counts"`
	Items      []assetStatus  `json:"items"`
	Total      int            `json:"total"`
	NextOffset int            `json:"next_offset"`
	Truncated  bool           `json:"truncated"`
}

func md5hex(b []byte) string {
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

func TestGetStatus(t *testing.T) {
	png1 := pngBytes(t, 2, 2, color.NRGBA{R: 255, A: 255})
	png2 := pngBytes(t, 2, 2, color.NRGBA{G: 255, A: 255})
	tex, _ := importfile.For("x.png")
	imp := func(res string) string { return string(importfile.Build(res, tex, "uid://b1234567")) }
	md5file := func(res string, src []byte) (string, string) {
		return strings.TrimPrefix(importfile.MD5Path(res), "res://"), "source_md5=\"" + md5hex(src) + "\"\ndest_md5=\"0\"\n\n"
	}
	files := map[string]string{
		"project.godot":      projectGodot,
		"ok.png":             string(png1),
		"ok.png.import":      imp("res://ok.png"),
		"changed.png":        string(png2),
		"changed.png.import": imp("res://changed.png"),
		"new.png":            string(png1),
		"fresh.png":          string(png1),
		"fresh.png.import":   imp("res://fresh.png"),
		"copy.png":           string(png1),
		"copy.png.import":    imp("res://ok.png"),
		"gone.png.import":    imp("res://gone.png"),
		"bad.png":            "not a png",
		"bad.png.import":     strings.Replace(imp("res://bad.png"), "[remap]\n\n", "[remap]\n\nvalid=false\n", 1),
		"main.tscn":          "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node\"]\n",
		"ignored/.gdignore":  "",
		"ignored/raw.png":    string(png1),
	}
	k, v := md5file("res://ok.png", png1)
	files[k] = v
	k, v = md5file("res://changed.png", png1) // imported before it changed
	files[k] = v
	k, v = md5file("res://copy.png", png1)
	files[k] = v
	dir := plugintest.Project(t, files)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})

	out := plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{})
	want := map[string]string{"res://changed.png": StatusStale, "res://copy.png": StatusStale, "res://fresh.png": StatusPending,
		"res://gone.png": StatusOrphaned, "res://new.png": StatusMissing, "res://bad.png": StatusFailed}
	if len(out.Items) != len(want) || out.Total != len(want) {
		t.Fatalf("items %+v", out.Items)
	}
	for _, it := range out.Items {
		if want[it.Path] != it.Status || it.Reason == "" {
			t.Errorf("%s: %s (%s), want %s", it.Path, it.Status, it.Reason, want[it.Path])
		}
	}
	if out.Counts[StatusImported] != 1 || out.Counts[StatusStale] != 2 {
		t.Errorf("counts %v", out.Counts)
	}

	all := plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{"include_ok": true, "limit": 2})
	if all.Total != 7 || len(all.Items) != 2 || !all.Truncated || all.NextOffset != 2 || all.Items[0].Path != "res://bad.png" {
		t.Errorf("page 1: %+v", all)
	}
	last := plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{"include_ok": true, "limit": 2, "offset": 6})
	if len(last.Items) != 1 || last.Truncated || last.Items[0].Path != "res://ok.png" || last.Items[0].Status != StatusImported {
		t.Errorf("last page: %+v", last)
	}

	one := plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{"target_path": "res://ok.png"})
	if one.Imported == nil || !*one.Imported || one.Type != "CompressedTexture2D" || one.Items[0].UID != "uid://b1234567" {
		t.Errorf("one: %+v", one)
	}
	one = plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{"target_path": "res://changed.png"})
	if one.Imported == nil || *one.Imported {
		t.Errorf("changed.png is imported: %+v", one)
	}
	plugintest.Refused(t, h, "get_status", map[string]any{"target_path": "res://main.tscn"}, sdk.CodeInvalidArgument, "not a file the editor imports")
	plugintest.Refused(t, h, "get_status", map[string]any{"target_path": "res://nope.png"}, sdk.CodeNotFound, "nope.png")
}

var (
	uidRE = regexp.MustCompile(`uid://[a-z0-9]+`)
	idRE  = regexp.MustCompile(`id="(\d+)_[a-z0-9]{5}"|ExtResource\("(\d+)_[a-z0-9]{5}"\)|Gradient_[a-z0-9]{5}`)
)

// normalise blanks what is random in a file we wrote (uids, id suffixes),
// so it compares with the form the engine's saver produced.
func normalise(s string) string {
	s = uidRE.ReplaceAllString(s, "UID")
	return idRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "Gradient_") {
			return "Gradient_ID"
		}
		return regexp.MustCompile(`_[a-z0-9]{5}"`).ReplaceAllString(m, `"`)
	})
}

type materialOut struct {
	MaterialPath string   `json:"material_path"`
	Created      bool     `json:"created"`
	ChannelsSet  []string `json:"channels_set"`
	UID          string   `json:"uid"`
	Properties   []string `json:"properties"`
}

// The material is the one the Godot 4.6 editor's saver writes for the
// same textures (its text learned from the engine's ResourceSaver: ext
// resources numbered by path, properties in class order, each texture with
// the flag that enables it), and the engine loads it with every property.
func TestCreateMaterialFromTextures(t *testing.T) {
	tex, _ := importfile.For("x.png")
	files := map[string]string{"project.godot": projectGodot}
	names := []string{"albedo", "metallic", "roughness", "emission", "normal", "ao"}
	args := map[string]any{}
	for i, n := range names {
		p := "tex/brick_" + n + ".png"
		files[p] = string(pngBytes(t, 4, 4, color.NRGBA{uint8(40 * i), 0, 0, 255}))
		files[p+".import"] = string(importfile.Build("res://"+p, tex, "uid://b"+strings.Repeat(string(rune('a'+i)), 8)))
		args[n] = "res://" + p
	}
	dir := plugintest.Project(t, files)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	out := plugintest.CallAs[materialOut](t, h, "create_material_from_textures", args)
	if out.MaterialPath != "res://materials/brick.tres" || !out.Created || len(out.ChannelsSet) != 6 {
		t.Fatalf("%+v", out)
	}
	got := string(readProject(t, dir, out.MaterialPath))
	want := `[gd_resource type="StandardMaterial3D" format=3 uid="UID"]

[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_albedo.png" id="1"]
[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_ao.png" id="2"]
[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_emission.png" id="3"]
[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_metallic.png" id="4"]
[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_normal.png" id="5"]
[ext_resource type="Texture2D" uid="UID" path="res://tex/brick_roughness.png" id="6"]

[resource]
albedo_texture = ExtResource("1")
metallic = 1.0
metallic_texture = ExtResource("4")
roughness_texture = ExtResource("6")
emission_enabled = true
emission_texture = ExtResource("3")
normal_enabled = true
normal_texture = ExtResource("5")
ao_enabled = true
ao_texture = ExtResource("2")
`
	if normalise(got) != want {
		t.Errorf("material:\n%s\nwant (ids and uids blanked):\n%s", got, want)
	}
	if !strings.Contains(got, `uid="uid://baaaaaaaa" path="res://tex/brick_albedo.png"`) {
		t.Errorf("the texture's uid from its .import is not recorded:\n%s", got)
	}

	// One channel, a named path, a pre-4.6 project (load_steps), and a
	// gradient texture resource made by the placeholder tool as albedo.
	plugintest.Must(t, h, "create_placeholder_texture", map[string]any{"path": "res://tex/sky.tres", "colors": []any{"red", "blue"}})
	out = plugintest.CallAs[materialOut](t, h, "create_material_from_textures", map[string]any{"albedo": "res://tex/sky.tres", "normal": "res://tex/brick_normal.png", "path": "res://m/sky.tres"})
	sky := string(readProject(t, dir, "res://m/sky.tres"))
	if !strings.Contains(sky, `[ext_resource type="GradientTexture2D" uid="uid://`) || !strings.Contains(sky, "normal_enabled = true\nnormal_texture") {
		t.Errorf("sky material:\n%s", sky)
	}

	plugintest.Refused(t, h, "create_material_from_textures", map[string]any{"albedo": "res://tex/nope.png"}, sdk.CodeNotFound, "nope.png")
	plugintest.Refused(t, h, "create_material_from_textures", map[string]any{}, sdk.CodeInvalidArgument, "no texture given")
	plugintest.Refused(t, h, "create_material_from_textures", map[string]any{"albedo": "res://tex/brick_albedo.png", "path": "res://m/sky.tres"}, sdk.CodePreconditionFailed, "already exists")
	plugintest.Refused(t, h, "create_material_from_textures", map[string]any{"albedo": "res://project.godot"}, sdk.CodeInvalidArgument, "albedo")

	// The engine loads both materials and the texture resource with every
	// property present (the images are placeholders: the web engine has
	// no import pipeline).
	load := map[string][]byte{}
	for _, p := range []string{"project.godot", "materials/brick.tres", "m/sky.tres", "tex/sky.tres"} {
		load[p] = readProject(t, dir, "res://"+p)
	}
	for _, n := range names {
		p := "tex/brick_" + n + ".png"
		load[p] = readProject(t, dir, "res://"+p) // the check puts its own .import beside it
	}
	enginecheck.Files(t, load)
}

func TestMaterialOnOlderProjectsCountsLoadSteps(t *testing.T) {
	tex, _ := importfile.For("x.png")
	dir := plugintest.Project(t, map[string]string{
		"project.godot": strings.Replace(projectGodot, "4.6", "4.3", 1),
		"a.png":         string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
		"a.png.import":  string(importfile.Build("res://a.png", tex, "uid://bqqqqqqqq")),
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	plugintest.Must(t, h, "create_material_from_textures", map[string]any{"albedo": "res://a.png", "path": "res://a.tres"})
	if got := string(readProject(t, dir, "res://a.tres")); !strings.HasPrefix(got, `[gd_resource type="StandardMaterial3D" load_steps=2 format=3 uid="uid://`) {
		t.Errorf("4.3 material header:\n%s", got)
	}
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func nrgba(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func TestCreatePlaceholderImage(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	red, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}
	cases := []struct {
		args  map[string]any
		w, h  int
		check map[[2]int]color.NRGBA
	}{
		{map[string]any{"path": "res://art/box.png", "color": "red"}, 64, 64,
			map[[2]int]color.NRGBA{{0, 0}: red, {63, 63}: red}},
		{map[string]any{"path": "res://art/ball.png", "shape": "circle", "color": "#0000ff", "width": 32, "height": 32}, 32, 32,
			map[[2]int]color.NRGBA{{16, 16}: blue, {0, 0}: {}, {31, 0}: {}}},
		{map[string]any{"path": "res://art/spike.png", "shape": "triangle", "color": "Color(1, 0, 0, 1)", "background": "blue", "width": 20, "height": 10}, 20, 10,
			map[[2]int]color.NRGBA{{10, 8}: red, {0, 0}: blue, {19, 0}: blue}},
		{map[string]any{"path": "res://art/fade.png", "color": "red", "color_to": "blue", "width": 11, "height": 3}, 11, 3,
			map[[2]int]color.NRGBA{{0, 1}: red, {10, 1}: blue, {5, 1}: {128, 0, 128, 255}}},
		{map[string]any{"path": "res://art/sky.png", "color": "red", "color_to": "blue", "gradient": "vertical", "width": 2, "height": 5}, 2, 5,
			map[[2]int]color.NRGBA{{0, 0}: red, {1, 4}: blue}},
	}
	tex, _ := importfile.For("x.png")
	for _, c := range cases {
		p := c.args["path"].(string)
		out := plugintest.Call(t, h, "create_placeholder_image", c.args)
		img := decodePNG(t, readProject(t, dir, p))
		if img.Bounds().Dx() != c.w || img.Bounds().Dy() != c.h {
			t.Errorf("%s: size %v", p, img.Bounds())
		}
		for at, want := range c.check {
			if got := nrgba(img, at[0], at[1]); got != want {
				t.Errorf("%s: pixel %v = %v, want %v", p, at, got, want)
			}
		}
		if got, want := string(readProject(t, dir, p+".import")), string(importfile.Build(p, tex, out["uid"].(string))); got != want {
			t.Errorf("%s: .import\n%s", p, got)
		}
	}
	// Antialiased edge: a circle's rim is partly covered.
	img := decodePNG(t, readProject(t, dir, "res://art/ball.png"))
	partial := 0
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			if a := nrgba(img, x, y).A; a != 0 && a != 255 {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Error("the circle's rim is not antialiased: no pixel is partly covered")
	}
	// Godot's own PNG loader reads what image/png wrote: size and pixels.
	files := webgodot.ScriptProject(`extends Node
func _ready():
	for p in ["res://art/ball.png", "res://art/fade.png"]:
		var img := Image.new()
		var err := img.load_png_from_buffer(FileAccess.get_file_as_bytes(p))
		print("PNG ", p, " ", err, " ", img.get_width(), "x", img.get_height(), " ", img.get_pixel(img.get_width() / 2, img.get_height() / 2).to_html())
	get_tree().quit()
`)
	for _, p := range []string{"res://art/ball.png", "res://art/fade.png"} {
		files = append(files, webgodot.PackFile{Path: p, Data: readProject(t, dir, p)})
	}
	res, err := enginecheck.Runner(t).Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range res.Stdout() {
		if strings.HasPrefix(l, "PNG ") {
			got = append(got, l)
		}
	}
	if want := []string{"PNG res://art/ball.png 0 32x32 0000ffff", "PNG res://art/fade.png 0 11x3 800080ff"}; !slices.Equal(got, want) {
		t.Errorf("the engine read\n%q\nwant\n%q", got, want)
	}

	for _, c := range []struct {
		args map[string]any
		text string
	}{
		{map[string]any{"path": "res://x.png", "shape": "star"}, "shape \"star\""},
		{map[string]any{"path": "res://x.png", "color": "nocolour"}, "color"},
		{map[string]any{"path": "res://x.jpg"}, "path"},
		{map[string]any{"path": "res://art/box.png"}, "already exists"},
	} {
		code := sdk.CodeInvalidArgument
		if c.text == "already exists" {
			code = sdk.CodePreconditionFailed
		}
		plugintest.Refused(t, h, "create_placeholder_image", c.args, code, c.text)
	}
}

// The texture resources are what the engine's saver writes for the same
// objects (forms learned from ResourceSaver in Godot 4.6: only properties
// off their defaults, the Gradient as a sub-resource).
func TestCreatePlaceholderTexture(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "res://g1.tres", "colors": []any{"red", "blue"}, "fill": "radial", "width": 128},
			"[gd_resource type=\"GradientTexture2D\" format=3 uid=\"UID\"]\n\n[sub_resource type=\"Gradient\" id=\"Gradient_ID\"]\ncolors = PackedColorArray(1, 0, 0, 1, 0, 0, 1, 1)\n\n" +
				"[resource]\ngradient = SubResource(\"Gradient_ID\")\nwidth = 128\nfill = 1\nfill_from = Vector2(0.5, 0.5)\nfill_to = Vector2(1, 0.5)\n"},
		{map[string]any{"path": "res://g2.tres", "colors": []any{"red", "#00ff00", "blue"}, "direction": "vertical"},
			"[gd_resource type=\"GradientTexture2D\" format=3 uid=\"UID\"]\n\n[sub_resource type=\"Gradient\" id=\"Gradient_ID\"]\noffsets = PackedFloat32Array(0, 0.5, 1)\ncolors = PackedColorArray(1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1)\n\n" +
				"[resource]\ngradient = SubResource(\"Gradient_ID\")\nfill_to = Vector2(0, 1)\n"},
		{map[string]any{"path": "res://g3.tres", "colors": []any{"red"}},
			"[gd_resource type=\"GradientTexture2D\" format=3 uid=\"UID\"]\n\n[sub_resource type=\"Gradient\" id=\"Gradient_ID\"]\noffsets = PackedFloat32Array(0)\ncolors = PackedColorArray(1, 0, 0, 1)\n\n" +
				"[resource]\ngradient = SubResource(\"Gradient_ID\")\n"},
		{map[string]any{"path": "res://p.tres", "kind": "placeholder", "width": 32, "height": 16},
			"[gd_resource type=\"PlaceholderTexture2D\" format=3 uid=\"UID\"]\n\n[resource]\nsize = Vector2(32, 16)\n"},
	}
	load := map[string][]byte{"project.godot": []byte(projectGodot)}
	for _, c := range cases {
		p := c.args["path"].(string)
		plugintest.Must(t, h, "create_placeholder_texture", c.args)
		got := readProject(t, dir, p)
		if normalise(string(got)) != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", p, got, c.want)
		}
		load[strings.TrimPrefix(p, "res://")] = got
	}
	plugintest.Refused(t, h, "create_placeholder_texture", map[string]any{"path": "res://x.tres", "colors": []any{"red", "blue"}, "offsets": []any{0.5}}, sdk.CodeInvalidArgument, "2 colours")
	plugintest.Refused(t, h, "create_placeholder_texture", map[string]any{"path": "res://x.tres", "kind": "placeholder", "colors": []any{"red"}}, sdk.CodeInvalidArgument, "only a size")
	plugintest.Refused(t, h, "create_placeholder_texture", map[string]any{"path": "res://x.tres", "offsets": []any{0.5, 0.2}}, sdk.CodeInvalidArgument, "ascending")
	enginecheck.Files(t, load)
}

// Editor mode: the material is the addon's command plus the flags it
// leaves out; the file tools write through the workspace, whose commit
// has the editor rescan, and say that the editor imports the file.
func TestEditorMode(t *testing.T) {
	outside := t.TempDir()
	t.Setenv(AllowEnv, outside)
	tex, _ := importfile.For("x.png")
	dir := plugintest.Project(t, map[string]string{
		"project.godot":            projectGodot,
		"t/rock_albedo.png":        string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
		"t/rock_albedo.png.import": string(importfile.Build("res://t/rock_albedo.png", tex, "uid://bqqqqqqqq")),
		"t/rock_n.png":             string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
	})
	ed := sdktest.NewEditor().
		Result("cmd_create_material_from_textures", map[string]any{"material_path": "res://materials/rock.tres", "created": true, "channels_set": []any{"albedo", "normal"}}).
		Result("cmd_set_resource_property", map[string]any{"ok": true})
	scans := sdktest.NewOpenScenes()
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve, WorkspaceEditor: scans})
	out := plugintest.CallAs[materialOut](t, h, "create_material_from_textures", map[string]any{"albedo": "res://t/rock_albedo.png", "normal": "res://t/rock_n.png"})
	if out.MaterialPath != "res://materials/rock.tres" || !out.Created {
		t.Errorf("%+v", out)
	}
	want := []sdktest.EditorCall{
		{Command: "cmd_create_material_from_textures", Params: map[string]any{"albedo": "res://t/rock_albedo.png", "normal": "res://t/rock_n.png",
			"roughness": "", "metallic": "", "ao": "", "emission": "", "path": "res://materials/rock.tres"}},
		{Command: "cmd_set_resource_property", Params: map[string]any{"resource_path": "res://materials/rock.tres", "property": "normal_enabled", "value": true}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %+v", got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !plugintest.SameParams(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}

	src := writeOutside(t, outside, "coin.wav", wavBytes())
	imp := plugintest.CallAs[importOut](t, h, "asset", map[string]any{"source": src, "target_path": "res://coin.wav"})
	if !strings.Contains(imp.Next, "attached editor's filesystem scan imports") || !exists(dir, "res://coin.wav.import") {
		t.Errorf("editor-mode import: %+v", imp)
	}
	// The commit told the editor to rescan the new files: that scan is
	// what imports them.
	if got := scans.Reloaded(); !slices.Contains(got, "res://coin.wav") || !slices.Contains(got, "res://coin.wav.import") {
		t.Errorf("the editor was told to rescan %v", got)
	}
	img := plugintest.Call(t, h, "create_placeholder_image", map[string]any{"path": "res://dot.png", "shape": "circle"})
	if !strings.Contains(img["next"].(string), "attached editor") {
		t.Errorf("editor-mode image: %v", img)
	}
	st := plugintest.CallAs[statusOut](t, h, "get_status", map[string]any{})
	if st.Counts[StatusPending] != 3 || st.Counts[StatusMissing] != 1 {
		t.Errorf("editor-mode status %+v", st)
	}
	if len(ed.Calls()) != 2 {
		t.Errorf("file tools sent editor commands: %+v", ed.Calls()[2:])
	}
}

// Dry runs in both modes change nothing and preview in the SDK's shape;
// an editor dry run sends no mutating command.
func TestDryRuns(t *testing.T) {
	outside := t.TempDir()
	t.Setenv(AllowEnv, outside)
	src := writeOutside(t, outside, "a.png", pngBytes(t, 2, 2, color.NRGBA{A: 255}))
	tex, _ := importfile.For("x.png")
	files := map[string]string{
		"project.godot":  projectGodot,
		"t/a.png":        string(pngBytes(t, 2, 2, color.NRGBA{A: 255})),
		"t/a.png.import": string(importfile.Build("res://t/a.png", tex, "uid://bqqqqqqqq")),
	}
	calls := map[string]any{
		"asset":                         map[string]any{"source": src, "target_path": "res://in/a.png"},
		"create_material_from_textures": map[string]any{"albedo": "res://t/a.png"},
		"create_placeholder_image":      map[string]any{"path": "res://p/a.png"},
		"create_placeholder_texture":    map[string]any{"path": "res://p/a.tres"},
	}
	dir := plugintest.Project(t, files)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for tool, args := range calls {
		out := plugintest.DryRunIn(t, h, sdk.ModeHeadless, tool, args)
		preview := out["preview"].(map[string]any)
		if fs, _ := preview["files"].([]any); len(fs) == 0 {
			t.Errorf("%s: the headless preview lists no files: %v", tool, out)
		}
	}
	for _, p := range []string{"res://in/a.png", "res://in/a.png.import", "res://materials/a.tres", "res://p/a.png", "res://p/a.tres"} {
		if exists(dir, p) {
			t.Errorf("a dry run wrote %s", p)
		}
	}
	ed := sdktest.NewEditor()
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	plugintest.EditorDryRuns(t, he, ed, calls)
	if len(ed.Calls()) != 0 {
		t.Errorf("editor dry runs reached the editor: %+v", ed.Calls())
	}
}

// write_imported writes the texture the editor's import would make at the
// path the .import file names, from the options it holds; the engine
// loads the asset by its own path with those pixels; undo takes it out;
// a dry run only lists it; an attached editor makes its own.
func TestImportAssetWritesImportedTexture(t *testing.T) {
	outside := t.TempDir()
	t.Setenv(AllowEnv, outside)
	dir := plugintest.Project(t, map[string]string{"project.godot": projectGodot})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	type out struct {
		importOut
		ImportedFiles []string `json:"imported_files"`
		Commit        struct {
			DryRun bool `json:"dry_run"`
		} `json:"commit"`
	}
	png := writeOutside(t, outside, "hero.png", pngBytes(t, 8, 6, color.NRGBA{200, 30, 40, 255}))
	svg := writeOutside(t, outside, "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#2040e0"/></svg>`))

	// A dry run lists the imported file and writes nothing.
	dry := plugintest.DryRunIn(t, h, sdk.ModeHeadless, "asset", map[string]any{"source": png, "target_path": "res://art/hero.png",
		"options": map[string]any{"write_imported": true}})
	if !strings.Contains(fmt.Sprint(dry["preview"]), ".godot/imported/hero.png-") {
		t.Errorf("the dry run's preview lacks the imported file: %v", dry["preview"])
	}
	if exists(dir, "res://.godot") {
		t.Error("a dry run wrote .godot/")
	}

	a := plugintest.CallAs[out](t, h, "asset", map[string]any{"source": png, "target_path": "res://art/hero.png",
		"options": map[string]any{"write_imported": true}})
	tex, _ := importfile.For("x.png")
	want := importfile.ImportedPath("res://art/hero.png", tex)
	if !slices.Equal(a.ImportedFiles, []string{want}) || !strings.Contains(a.Next, "game runs") {
		t.Errorf("hero.png: %+v", a)
	}
	ctex := readProject(t, dir, want)
	made, err := importer.Import("res://art/hero.png", readProject(t, dir, "res://art/hero.png"), readProject(t, dir, "res://art/hero.png.import"))
	if err != nil || len(made) != 1 || !bytes.Equal(made[0].Data, ctex) || !bytes.HasPrefix(ctex, []byte("GST2")) {
		t.Errorf("the written .ctex is not the importer's: %v", err)
	}
	b := plugintest.CallAs[out](t, h, "asset", map[string]any{"source": svg, "target_path": "res://logo.svg",
		"options": map[string]any{"write_imported": true, "import_settings": map[string]any{"svg/scale": 2}}})
	if len(b.ImportedFiles) != 1 {
		t.Fatalf("logo.svg: %+v", b)
	}

	// The engine loads both by their own paths, through the .import
	// files, with the source's pixels (the SVG at scale 2).
	files := webgodot.ScriptProject(`extends Node
func _ready():
	for p in ["res://art/hero.png", "res://logo.svg"]:
		var t: Texture2D = load(p)
		var img := t.get_image()
		print("TEX ", p, " ", t.get_class(), " ", t.get_width(), "x", t.get_height(), " ", img.get_pixel(3, 3).to_html())
	get_tree().quit()
`)
	for _, p := range []string{"res://art/hero.png", "res://art/hero.png.import", want, "res://logo.svg", "res://logo.svg.import", b.ImportedFiles[0]} {
		files = append(files, webgodot.PackFile{Path: strings.TrimPrefix(p, "res://"), Data: readProject(t, dir, p)})
	}
	res, err := enginecheck.Runner(t).Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range res.Stdout() {
		if strings.HasPrefix(l, "TEX ") {
			got = append(got, l)
		}
	}
	if wantLines := []string{"TEX res://art/hero.png CompressedTexture2D 8x6 c81e28ff", "TEX res://logo.svg CompressedTexture2D 16x16 2040e0ff"}; !slices.Equal(got, wantLines) {
		t.Errorf("the engine loaded\n%q\nwant\n%q\nstderr %q", got, wantLines, res.Stderr())
	}

	// Only textures.
	wav := writeOutside(t, outside, "a.wav", wavBytes())
	plugintest.Refused(t, h, "asset", map[string]any{"source": wav, "target_path": "res://a.wav", "options": map[string]any{"write_imported": true}},
		sdk.CodeInvalidArgument, "textures only")

	// Undo takes the imported files out with the rest.
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{want, b.ImportedFiles[0], "res://art/hero.png", "res://logo.svg.import"} {
		if exists(dir, p) {
			t.Errorf("%s is still there after undo", p)
		}
	}

	// With an editor attached the editor imports: nothing is written
	// under .godot/.
	ed := sdktest.NewEditor()
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	e := plugintest.CallAs[out](t, he, "asset", map[string]any{"source": png, "target_path": "res://art/hero.png",
		"options": map[string]any{"write_imported": true}})
	if len(e.ImportedFiles) != 0 || exists(dir, want) {
		t.Errorf("editor mode wrote the imported texture: %+v", e)
	}
}
