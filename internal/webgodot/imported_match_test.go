package webgodot

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/godot/scaffold"
)

// compareScript has the engine decode each listed source file itself
// (its own PNG, JPEG, WebP and SVG loaders), process it as the texture
// importer does (alpha border fix, premultiplied alpha, mipmaps), and
// compare the result, every mipmap level, with the texture it loads
// through the .import file: the .ctex this package made. Each line: path, size, both formats, whether the
// pixels are equal, and over the compared bytes (every one up to 256K,
// evenly spread beyond) how many differ, by more than 2, and the most.
const compareScript = `extends Node
func _ready():
	for line in FileAccess.get_file_as_string("res://webgodot/list.txt").split("\n", false):
		var f := line.split("|")
		var p := f[0]
		var bytes := FileAccess.get_file_as_bytes(p)
		var src := Image.new()
		var err := OK
		match p.get_extension().to_lower():
			"png": err = src.load_png_from_buffer(bytes)
			"jpg", "jpeg": err = src.load_jpg_from_buffer(bytes)
			"webp": err = src.load_webp_from_buffer(bytes)
			"svg": err = src.load_svg_from_buffer(bytes, float(f[3]))
		if err != OK:
			print("CMP|%s|decode error %d" % [p, err])
			continue
		if f[1] == "true":
			src.fix_alpha_edges()
		if f[2] == "true":
			src.premultiply_alpha()
		var tex: Texture2D = load(p)
		if tex == null:
			print("CMP|%s|load failed" % p)
			continue
		var got := tex.get_image()
		var mips := got.get_mipmap_count()
		if got.has_mipmaps():
			src.generate_mipmaps()
		var sf := src.get_format()
		var gf := got.get_format()
		src.convert(Image.FORMAT_RGBA8)
		got.convert(Image.FORMAT_RGBA8)
		var a := src.get_data()
		var b := got.get_data()
		var nd := 0
		var n2 := 0
		var mx := 0
		var n := 0
		if a.size() == b.size() and a != b:
			var step := maxi(1, a.size() / 262144)
			var i := 0
			while i < a.size():
				var d := absi(a[i] - b[i])
				if d > 0:
					nd += 1
				if d > 2:
					n2 += 1
				mx = maxi(mx, d)
				n += 1
				i += step
		print("CMP|%s|%dx%d|%d|%d|%s|%d|%d|%d|%d|%d|%dx%d" % [p, src.get_width(), src.get_height(), sf, gf, str(a == b), nd, n2, mx, n, mips, got.get_width(), got.get_height()])
	get_tree().quit()
`

// withParams is the .import file of source with the options of info in
// place of the defaults.
func withParams(source string, info importfile.Info) []byte {
	im, _ := importfile.For(source)
	text := string(importfile.Build(source, im, ""))
	for k, v := range info.Params {
		def, ok := im.Param(k)
		if ok {
			text = strings.Replace(text, "\n"+k+"="+def+"\n", "\n"+k+"="+v+"\n", 1)
		}
	}
	return []byte(text)
}

// TestImportedMatchesTheEnginesDecode measures, over every texture of the
// demo projects (PNG, JPEG, WebP, SVG, with their own .import options)
// and the scaffold's icon.svg, how close the texture made here is to
// what the editor's import gives: the engine's own decode of the file,
// processed as the importer processes it. PNG and WebP must match pixel
// for pixel (both lossless, the formats equal); JPEG and SVG go through
// other decoders and rasterizers, within bounds; every texture loads.
func TestImportedMatchesTheEnginesDecode(t *testing.T) {
	requireSetup(t)
	root := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	if _, err := os.Stat(root); err != nil {
		testenv.Missing(t, "the demo projects fixture ("+root+")", err.Error())
	}
	files := ScriptProject(compareScript)
	var list []string
	kind := map[string]string{}
	add := func(res string, data, importData []byte) {
		if importData == nil {
			im, _ := importfile.For(res)
			importData = importfile.Build(res, im, "")
		}
		kind[res] = strings.ToLower(path.Ext(res))
		switch {
		case kind[res] == ".jpeg":
			kind[res] = ".jpg"
		case kind[res] == ".webp" && bytes.Contains(data, []byte("VP8L")):
			kind[res] = ".webp lossless"
		case kind[res] == ".webp":
			kind[res] = ".webp lossy"
		}
		o, _ := importer.ParseTextureOptions(mustParse(t, res, importData).Params)
		made, err := importer.Import(res, data, importData)
		if err != nil {
			t.Errorf("%s: %v", res, err)
			return
		}
		rel := strings.TrimPrefix(res, "res://")
		files = append(files, PackFile{Path: rel, Data: data}, PackFile{Path: rel + ".import", Data: importData})
		for _, f := range made {
			files = append(files, PackFile{Path: strings.TrimPrefix(f.Path, "res://"), Data: f.Data})
		}
		list = append(list, fmt.Sprintf("%s|%v|%v|%v", res, o.FixAlphaBorder, o.PremultAlpha, o.SVGScale))
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !importer.Supported(p) || strings.Contains(p, "/.godot/") {
			return err
		}
		imp, err := os.ReadFile(p + ".import")
		if err != nil {
			return nil // not imported in the demo: not a texture there
		}
		info := mustParse(t, p, imp)
		if info.Importer != "texture" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		res := "res://" + filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		add(res, data, withParams(res, info))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	add("res://scaffold/icon.svg", []byte(scaffold.IconSVG), nil)
	files = append(files, PackFile{Path: "webgodot/list.txt", Data: []byte(strings.Join(list, "\n"))})

	res := runFiles(t, files, 4*time.Minute)
	type stat struct{ files, exact, formats, loaded, maxDiff, over2, compared int }
	stats := map[string]*stat{}
	seen := 0
	for _, l := range res.Stdout() {
		f := strings.Split(l, "|")
		if f[0] != "CMP" {
			continue
		}
		seen++
		ext := kind[f[1]]
		s := stats[ext]
		if s == nil {
			s = &stat{}
			stats[ext] = s
		}
		s.files++
		if len(f) < 12 {
			t.Errorf("%s: %s", f[1], strings.Join(f[2:], " "))
			continue
		}
		num := func(i int) int { v, _ := strconv.Atoi(f[i]); return v }
		s.loaded++
		if f[3] == f[4] {
			s.formats++
		} else if ext != ".svg" {
			t.Errorf("%s: the engine's decode is format %s, the texture %s", f[1], f[3], f[4])
		}
		if f[2] != f[11] {
			t.Errorf("%s: size %s, the texture %s", f[1], f[2], f[11])
		}
		if f[5] == "true" {
			s.exact++
		} else if ext == ".png" || ext == ".webp lossless" {
			t.Errorf("%s: %s of %s bytes differ (at most by %s)", f[1], f[6], f[9], f[8])
		}
		s.maxDiff = max(s.maxDiff, num(8))
		s.over2 += num(7)
		s.compared += num(9)
	}
	if seen != len(list) {
		t.Errorf("the engine compared %d of %d textures; stderr: %q", seen, len(list), res.Stderr())
	}
	exts := make([]string, 0, len(stats))
	for e := range stats {
		exts = append(exts, e)
	}
	slices.Sort(exts)
	for _, e := range exts {
		s := stats[e]
		t.Logf("%-14s textures %3d  loaded %3d  same format %3d  pixel-exact %3d  max channel diff %3d  bytes off by >2: %d of %d compared",
			e, s.files, s.loaded, s.formats, s.exact, s.maxDiff, s.over2, s.compared)
	}
	if s := stats[".webp lossy"]; s != nil && s.maxDiff > 2 {
		t.Errorf("lossy WebP: a channel differs by %d from the engine's decode", s.maxDiff)
	}
	if s := stats[".jpg"]; s != nil && s.maxDiff > 4 {
		t.Errorf("JPEG: a channel differs by %d from the engine's decode", s.maxDiff)
	}
	if s := stats[".svg"]; s != nil && s.compared > 0 && s.over2*20 > s.compared {
		t.Errorf("SVG: %d of %d bytes differ by more than 2 from the engine's rasterization", s.over2, s.compared)
	}
}

func mustParse(t *testing.T, name string, data []byte) importfile.Info {
	t.Helper()
	if data == nil {
		return importfile.Info{Params: map[string]string{}}
	}
	info, err := importfile.Parse(name+".import", data)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
