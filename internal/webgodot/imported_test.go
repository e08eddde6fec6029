package webgodot

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"golang.org/x/image/webp"
)

// halves is a w x h image, its left half a and its right half b.
func halves(w, h int, a, b color.NRGBA) *image.NRGBA {
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x < w/2 {
				im.SetNRGBA(x, y, a)
			} else {
				im.SetNRGBA(x, y, b)
			}
		}
	}
	return im
}

func encode(t *testing.T, enc func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// spriteScene is a scene of one unfiltered, uncentred Sprite2D per
// texture, each at the x of the same index, y 16.
func spriteScene(textures []string, xs []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[gd_scene load_steps=%d format=3]\n\n", len(textures)+1)
	for i, tex := range textures {
		fmt.Fprintf(&b, "[ext_resource type=\"Texture2D\" path=%q id=\"%d\"]\n", tex, i+1)
	}
	b.WriteString("\n[node name=\"Main\" type=\"Node2D\"]\ntexture_filter = 1\n")
	for i := range textures {
		fmt.Fprintf(&b, "\n[node name=\"S%d\" type=\"Sprite2D\" parent=\".\"]\nposition = Vector2(%d, 16)\ncentered = false\ntexture = ExtResource(\"%d\")\n", i, xs[i], i+1)
	}
	return b.String()
}

// TestImportedTexturesRender: a project that no editor opened (no
// .godot/, and .import files only for some of its images) runs in the
// engine with its art: the game pack adds the imported textures, and a
// render of sprites using a PNG, a JPEG, a WebP and an SVG shows each
// image's own pixels where its sprite is. The project folder gets no file.
func TestImportedTexturesRender(t *testing.T) {
	requireSetup(t)
	dir := t.TempDir()
	red, blue := color.NRGBA{230, 20, 30, 255}, color.NRGBA{20, 40, 220, 255}
	yellow, teal := color.NRGBA{240, 220, 10, 255}, color.NRGBA{10, 200, 190, 255}
	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.godot", []byte("config_version=5\n\n[application]\n\nconfig/name=\"imports\"\nrun/main_scene=\"res://main.tscn\"\n\n"+
		"[display]\n\nwindow/size/viewport_width=320\nwindow/size/viewport_height=240\n\n"+
		"[rendering]\n\nenvironment/defaults/default_clear_color=Color(1, 0, 1, 1)\n"))
	write("art/halves.png", encode(t, func(b *bytes.Buffer) error { return png.Encode(b, halves(32, 32, red, blue)) }))
	write("art/halves.png.import", importfile.Build("res://art/halves.png", mustImporter(t, ".png"), "uid://cimportstest1"))
	write("art/photo.jpg", encode(t, func(b *bytes.Buffer) error {
		return jpeg.Encode(b, halves(32, 32, yellow, teal), &jpeg.Options{Quality: 100})
	}))
	write("art/square.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" fill="#10c020"/></svg>`))
	webpSrc := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-pong", "icon.webp")
	webpData, err := os.ReadFile(webpSrc)
	if err != nil {
		testenv.Missing(t, "the demo projects fixture ("+webpSrc+")", err.Error())
	}
	write("icon.webp", webpData)
	textures := []string{"res://art/halves.png", "res://art/photo.jpg", "res://icon.webp", "res://art/square.svg"}
	xs := []int{16, 64, 112, 260}
	write("main.tscn", []byte(spriteScene(textures, xs)))

	files, err := ReadGameFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Data
	}
	for _, src := range textures {
		rel := strings.TrimPrefix(src, "res://")
		im, _ := importfile.For(src)
		ctex := strings.TrimPrefix(importfile.ImportedPath(src, im), "res://")
		if !bytes.HasPrefix(byPath[ctex], []byte("GST2")) {
			t.Errorf("the pack has no imported %s at %s", src, ctex)
		}
		if byPath[rel+".import"] == nil {
			t.Errorf("the pack has no .import file for %s", src)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot")); err == nil {
		t.Error("packing wrote .godot/ into the project")
	}
	if _, err := os.Stat(filepath.Join(dir, "art", "photo.jpg.import")); err == nil {
		t.Error("packing wrote a .import file into the project")
	}

	r := sharedRunner(t)
	pck, err := BuildPCK(RuntimeVersion, files)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := r.StartGame(ctx, pck, GameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	frame, err := s.Capture(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines, _, _ := s.Lines(0)
	for _, l := range lines {
		if strings.Contains(l.Text, "ERROR") || strings.Contains(l.Text, "Failed loading") {
			t.Errorf("engine: %s", l.Text)
		}
	}
	webpIm, err := webp.Decode(bytes.NewReader(webpData))
	if err != nil {
		t.Fatal(err)
	}
	type probe struct {
		name string
		x, y int
		want color.Color
		tol  int
	}
	wb := webpIm.Bounds()
	probes := []probe{
		{"png left", 16 + 8, 16 + 16, red, 2}, {"png right", 16 + 24, 16 + 16, blue, 2},
		{"jpeg left", 64 + 6, 16 + 16, yellow, 10}, {"jpeg right", 64 + 26, 16 + 16, teal, 10},
		{"webp centre", 112 + wb.Dx()/2, 16 + wb.Dy()/2, webpIm.At(wb.Dx()/2, wb.Dy()/2), 2},
		{"webp corner", 112 + wb.Dx()/4, 16 + wb.Dy()/4, webpIm.At(wb.Dx()/4, wb.Dy()/4), 2},
		{"svg", 260 + 8, 16 + 8, color.NRGBA{0x10, 0xc0, 0x20, 255}, 2},
		{"background", 300, 200, color.NRGBA{255, 0, 255, 255}, 2},
	}
	for _, p := range probes {
		got := color.NRGBAModel.Convert(frame.At(p.x, p.y)).(color.NRGBA)
		want := color.NRGBAModel.Convert(p.want).(color.NRGBA)
		if want.A == 255 && (diff(got.R, want.R) > p.tol || diff(got.G, want.G) > p.tol || diff(got.B, want.B) > p.tol) {
			t.Errorf("%s at (%d,%d): rendered %v, want %v", p.name, p.x, p.y, got, want)
		}
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func mustImporter(t *testing.T, ext string) importfile.Importer {
	im, ok := importfile.For("x" + ext)
	if !ok {
		t.Fatalf("no importer for %s", ext)
	}
	return im
}

// BenchmarkGamePackImports packs a demo project that no editor opened
// (2d-dodge_the_creeps: 10 PNG textures and a WebP) the first time, importing every
// texture, and again from the cache, as a second run of the same game.
func BenchmarkGamePackImports(b *testing.B) {
	dir := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-dodge_the_creeps")
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(b, "the demo projects fixture ("+dir+")", err.Error())
	}
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			if _, err := ReadGameFiles(dir, ""); err != nil {
				b.Fatal(err)
			}
			imported := 0
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if !warm {
					importCache.mu.Lock()
					importCache.m, importCache.size = map[[32]byte][]importer.File{}, 0
					importCache.mu.Unlock()
				}
				files, err := ReadGameFiles(dir, "")
				if err != nil {
					b.Fatal(err)
				}
				imported = 0
				for _, f := range files {
					if strings.HasPrefix(f.Path, ".godot/imported/") {
						imported++
					}
				}
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/pack")
			b.ReportMetric(float64(imported), "imported-files")
		})
	}
}

// wavFile is a RIFF WAVE file of the samples given (8 or 16 bits).
func wavFile(rate, channels, bits int, samples []byte) []byte {
	le32 := func(n int) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }
	var b bytes.Buffer
	b.WriteString("RIFF")
	b.Write(le32(36 + len(samples)))
	b.WriteString("WAVEfmt ")
	b.Write(le32(16))
	b.Write([]byte{1, 0, byte(channels), 0})
	b.Write(le32(rate))
	b.Write(le32(rate * channels * bits / 8))
	b.Write([]byte{byte(channels * bits / 8), 0, byte(bits), 0})
	b.WriteString("data")
	b.Write(le32(len(samples)))
	b.Write(samples)
	return b.Bytes()
}

// A WAV file that no editor imported loads in the engine from the pack:
// one with the editor's .import file (naming a .sample the project does
// not have) and one with none, each an AudioStreamWAV of the file's
// length, rate, channels and samples.
func TestImportedWAVLoads(t *testing.T) {
	requireSetup(t)
	stereo := make([]byte, 0, 2205*4)
	for i := 0; i < 2205; i++ { // 0.1 s at 22050 Hz, a 16-bit ramp on both channels
		v := uint16(int16(i*14 - 15000))
		stereo = append(stereo, byte(v), byte(v>>8), byte(v), byte(v>>8))
	}
	mono8 := bytes.Repeat([]byte{128, 255, 0}, 1000) // 3000 frames at 8000 Hz
	have := map[string][]byte{
		"sfx/jump.wav": wavFile(22050, 2, 16, stereo),
		"sfx/hit.wav":  wavFile(8000, 1, 8, mono8),
	}
	wavIm, _ := importfile.For("x.wav")
	have["sfx/jump.wav.import"] = importfile.Build("res://sfx/jump.wav", wavIm, "uid://cwavimport1")
	made := importedFiles([]string{"sfx/jump.wav", "sfx/hit.wav"}, have)
	if len(made) != 4 {
		t.Fatalf("%d files made for two WAV files", len(made))
	}
	files := ScriptProject(`extends Node
func _ready():
	for p in ["res://sfx/jump.wav", "res://sfx/hit.wav"]:
		var s: AudioStreamWAV = load(p)
		print("WAV %s %s %.3f %d %d %s %d" % [p, s.get_class(), s.get_length(), s.format, s.mix_rate, s.stereo, s.data.size()])
	var hit: AudioStreamWAV = load("res://sfx/hit.wav")
	print("WAV samples ", hit.data[0], " ", hit.data[1], " ", hit.data[2], " ", hit.data[3], " ", hit.data[4], " ", hit.data[5])
	get_tree().quit()
`)
	for p, d := range have {
		if !strings.HasSuffix(p, ".import") {
			files = append(files, PackFile{Path: p, Data: d})
		}
	}
	files = append(files, made...)
	res := runFiles(t, files, 2*time.Minute)
	var got []string
	for _, l := range res.Stdout() {
		if strings.HasPrefix(l, "WAV ") {
			got = append(got, l)
		}
	}
	want := []string{
		"WAV res://sfx/jump.wav AudioStreamWAV 0.100 1 22050 true 8820",
		"WAV res://sfx/hit.wav AudioStreamWAV 0.375 1 8000 false 6000",
		// 8-bit 128, 255, 0 as 16-bit: 0, 127<<8, -128<<8, little-endian.
		"WAV samples 0 0 0 127 0 128",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the engine loaded\n%s\nwant\n%s\nstderr %q", strings.Join(got, "\n"), strings.Join(want, "\n"), res.Stderr())
	}
}

// A font no editor imported loads from the pack as the editor's import
// would make it: with the demo's .import file (its options applied, two
// of them changed here) and without one (the defaults), a FontFile of the file's family that
// measures text.
func TestImportedFontLoads(t *testing.T) {
	requireSetup(t)
	src := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-dodge_the_creeps", "fonts", "Xolonium-Regular.ttf")
	data, err := os.ReadFile(src)
	if err != nil {
		testenv.Missing(t, "the demo projects fixture ("+src+")", err.Error())
	}
	imp, err := os.ReadFile(src + ".import")
	if err != nil {
		t.Fatal(err)
	}
	// Options other than the defaults, to see them applied.
	imp = bytes.Replace(imp, []byte("subpixel_positioning=4"), []byte("subpixel_positioning=1"), 1)
	imp = bytes.Replace(imp, []byte("msdf_pixel_range=8"), []byte("msdf_pixel_range=12"), 1)
	have := map[string][]byte{
		"fonts/Xolonium-Regular.ttf":        data,
		"fonts/Xolonium-Regular.ttf.import": imp,
		"copy/plain.ttf":                    data,
	}
	made := importedFiles([]string{"fonts/Xolonium-Regular.ttf", "copy/plain.ttf"}, have)
	if len(made) != 4 {
		t.Fatalf("%d files made for two fonts", len(made))
	}
	files := ScriptProject(`extends Node
func _ready():
	for p in ["res://fonts/Xolonium-Regular.ttf", "res://copy/plain.ttf"]:
		var f: FontFile = load(p)
		print("FONT %s %s %s %s %d %d" % [p, f.get_class(), f.get_font_name(), f.get_string_size("Hello", HORIZONTAL_ALIGNMENT_LEFT, -1, 32).x > 40, f.subpixel_positioning, f.msdf_pixel_range])
	get_tree().quit()
`)
	files = append(files, PackFile{Path: "fonts/Xolonium-Regular.ttf", Data: data}, PackFile{Path: "copy/plain.ttf", Data: data})
	files = append(files, made...)
	res := runFiles(t, files, 2*time.Minute)
	var got []string
	for _, l := range res.Stdout() {
		if strings.HasPrefix(l, "FONT ") {
			got = append(got, l)
		}
	}
	want := []string{
		"FONT res://fonts/Xolonium-Regular.ttf FontFile Xolonium true 1 12",
		"FONT res://copy/plain.ttf FontFile Xolonium true 4 8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the engine loaded\n%s\nwant\n%s\nstderr %q", strings.Join(got, "\n"), strings.Join(want, "\n"), res.Stderr())
	}
}
