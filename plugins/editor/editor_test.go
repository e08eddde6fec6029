package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// testGame copies the small game of internal/webgodot/testdata/game (a
// red 20 px square saved at (40, 120) on a dark blue background, 320x240)
// into a temporary project, with a green texture resource beside it.
func testGame(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "internal", "webgodot", "testdata", "game")
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tex := `[gd_resource type="GradientTexture2D" format=3]

[sub_resource type="Gradient" id="Gradient_g"]
colors = PackedColorArray(0.1, 0.8, 0.2, 1, 0.1, 0.8, 0.2, 1)

[resource]
gradient = SubResource("Gradient_g")
`
	if err := os.WriteFile(filepath.Join(dir, "green_tex.tres"), []byte(tex), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func pngOf(t *testing.T, res *sdktest.Result) image.Image {
	t.Helper()
	for _, c := range res.Content {
		if ic, ok := c.(sdk.ImageContent); ok {
			img, err := png.Decode(bytes.NewReader(ic.Data))
			if err != nil || ic.MIMEType != "image/png" {
				t.Fatalf("image: %v (%s)", err, ic.MIMEType)
			}
			i := strings.Index(res.Text(), filepath.Join(os.TempDir(), "godot-mcp-screenshots"))
			if i < 0 {
				t.Fatalf("no file named in %s", res.Text())
			}
			file := strings.SplitN(res.Text()[i:], ":", 2)[0]
			if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, ic.Data) {
				t.Errorf("file %s does not hold the image: %v", file, err)
			}
			return img
		}
	}
	t.Fatalf("no image in %s", res.Text())
	return nil
}

func solidPNG(t *testing.T, w, h int, c color.NRGBA) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestEditorMode: with an editor attached the tool polls
// cmd_capture_editor_screenshot (no params) until the addon hands over
// the picture, scales it when asked, and refuses the headless-only
// arguments without sending anything.
func TestEditorMode(t *testing.T) {
	sdk.PollInterval = 5 * time.Millisecond
	polls := 0
	shot := solidPNG(t, 64, 32, color.NRGBA{200, 10, 10, 255})
	ed := sdktest.NewEditor().On("cmd_capture_editor_screenshot", func(map[string]any) (any, *sdk.Error) {
		polls++
		if polls < 3 {
			return map[string]any{"ready": false, "pending": polls > 1, "reason": "editor_not_drawing"}, nil
		}
		return map[string]any{"ready": true, "format": "png", "width": 64, "height": 32, "base64": shot}, nil
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	ctx := context.Background()
	res := h.Call(ctx, "capture_screenshot", map[string]any{})
	if res.Err != nil || res.IsError {
		t.Fatalf("capture_screenshot: %v %s", res.Err, res.Text())
	}
	img := pngOf(t, res)
	if img.Bounds().Dx() != 64 || !strings.Contains(res.Text(), "the editor's window, 64x32") {
		t.Errorf("image %v, text %s", img.Bounds(), res.Text())
	}
	calls := ed.Calls()
	if len(calls) != 3 {
		t.Fatalf("%d commands sent, want 3 polls: %+v", len(calls), calls)
	}
	for _, c := range calls {
		if c.Command != "cmd_capture_editor_screenshot" || len(c.Params) != 0 {
			t.Errorf("sent %s %v, want cmd_capture_editor_screenshot {}", c.Command, c.Params)
		}
	}

	polls = 0
	res = h.Call(ctx, "capture_screenshot", map[string]any{"width": 32})
	if img := pngOf(t, res); img.Bounds().Dx() != 32 || img.Bounds().Dy() != 16 {
		t.Errorf("scaled to width 32: %v", img.Bounds())
	}

	// The editor never draws: TIMEOUT with the addon's reason.
	never := sdktest.NewEditor().Result("cmd_capture_editor_screenshot", map[string]any{"ready": false, "pending": true, "reason": "editor_not_drawing"})
	h2 := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: never.Serve})
	res = h2.Call(ctx, "capture_screenshot", map[string]any{"timeout_ms": 50})
	if res.ErrorCode != sdk.CodeTimeout || !strings.Contains(res.Error.Message, "editor_not_drawing") {
		t.Errorf("editor not drawing: %+v", res.Error)
	}

	// Headless-only arguments are refused in editor mode, naming headless mode.
	before := len(ed.Calls())
	for _, args := range []map[string]any{
		{"scene": "res://main.tscn"},
		{"resource": "res://green_tex.tres"},
		{"view": map[string]any{"center": []float64{0, 0}}},
	} {
		res = h.Call(ctx, "capture_screenshot", args)
		if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "headless" ||
			!strings.Contains(res.Error.Message, "headless mode") || !strings.Contains(res.Error.Hint, "render_scene") {
			t.Errorf("%v in editor mode: %+v", args, res.Error)
		}
	}
	if n := len(ed.Calls()); n != before {
		t.Errorf("%d commands sent for refused calls", n-before)
	}
}

// TestHeadlessRender renders in the real engine (web runtime): the test
// game's red square at its saved place, the square leaving the picture
// when the view moves away, and a texture resource's colour at the centre.
func TestHeadlessRender(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	t.Cleanup(web.Close)
	dir := testGame(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	render := func(args map[string]any) image.Image {
		t.Helper()
		res := h.Call(ctx, "capture_screenshot", args)
		if res.Err != nil || res.IsError {
			t.Fatalf("capture_screenshot %v: %v %s", args, res.Err, res.Text())
		}
		return pngOf(t, res)
	}
	red := func(img image.Image, x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r>>8 > 200 && g>>8 < 40 && b>>8 < 40
	}
	// The main scene, its script not run: the square at (40, 120).
	img := render(map[string]any{})
	if !red(img, 40, 120) || red(img, 150, 120) {
		t.Errorf("main scene: red at (40,120) %v, at (150,120) %v; want only the first", red(img, 40, 120), red(img, 150, 120))
	}
	// Centred on the square: it is in the middle; moved away: nowhere.
	img = render(map[string]any{"scene": "res://main.tscn", "view": map[string]any{"center": []float64{40, 120}}})
	if !red(img, 160, 120) {
		t.Errorf("view centred on the square: the centre is not red")
	}
	img = render(map[string]any{"scene": "res://main.tscn", "view": map[string]any{"center": []float64{-500, 120}}})
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if red(img, x, y) {
				t.Fatalf("view moved away: red at (%d,%d)", x, y)
			}
		}
	}
	// A texture resource fills the picture with its colour.
	img = render(map[string]any{"resource": "res://green_tex.tres", "width": 160})
	if img.Bounds().Dx() != 160 {
		t.Errorf("width 160: %v", img.Bounds())
	}
	if r, g, b, _ := img.At(80, 60).RGBA(); g>>8 < 150 || r>>8 > 80 || b>>8 > 100 {
		t.Errorf("texture resource: centre %d,%d,%d, want green", r>>8, g>>8, b>>8)
	}
	// Errors name the fix.
	res := h.Call(ctx, "capture_screenshot", map[string]any{"resource": "res://nope.tres"})
	if res.ErrorCode != sdk.CodeNotFound {
		t.Errorf("missing resource: %+v", res.Error)
	}
	res = h.Call(ctx, "capture_screenshot", map[string]any{"view": map[string]any{"zoom": 2, "fov": 60}})
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Message, "mixes 2D") {
		t.Errorf("mixed view: %+v", res.Error)
	}
}
