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

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func pngOf(t *testing.T, w, h int, paint func(x, y int) color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, paint(x, y))
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCompareScreenshots compares a res:// PNG with base64 data that
// differs in a 2x3 block (by 40 per channel) and by 2 everywhere else:
// tolerance 0.01 (2.55) ignores the 2s, the block is counted, drawn red
// in the difference image, and its bounds reported.
func TestCompareScreenshots(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := pngOf(t, 10, 8, func(x, y int) color.NRGBA { return color.NRGBA{R: 100, G: 100, B: 100, A: 255} })
	b := pngOf(t, 10, 8, func(x, y int) color.NRGBA {
		if x >= 4 && x < 6 && y >= 2 && y < 5 {
			return color.NRGBA{R: 140, G: 140, B: 140, A: 255}
		}
		return color.NRGBA{R: 102, G: 102, B: 102, A: 255}
	})
	if err := os.WriteFile(filepath.Join(dir, "baseline.png"), a, 0o644); err != nil {
		t.Fatal(err)
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	res := h.Call(context.Background(), "compare_screenshots", map[string]any{
		"image_a": "res://baseline.png", "image_b": "data:image/png;base64," + base64.StdEncoding.EncodeToString(b), "tolerance": 0.01})
	var out compareResult
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%v: %s", err, res.Text())
	}
	if !out.SameSize || out.DiffPixels != 6 || out.TotalPixels != 80 || out.DiffRatio != 6.0/80 || out.Match ||
		out.DiffBounds == nil || *out.DiffBounds != (rect{X: 4, Y: 2, W: 2, H: 3}) {
		t.Fatalf("%+v", out)
	}
	// (6 px * 3 ch * 40 + 74 px * 3 ch * 2) / (80 * 4) / 255
	if want := (6.0*3*40 + 74.0*3*2) / 320 / 255; abs(out.MeanAbsDiff-want) > 1e-9 {
		t.Errorf("mean_abs_diff %v, want %v", out.MeanAbsDiff, want)
	}
	var img []byte
	for _, c := range res.Content {
		if ic, ok := c.(sdk.ImageContent); ok {
			img = ic.Data
		}
	}
	diff, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		t.Fatalf("no difference image: %v", err)
	}
	if c := color.NRGBAModel.Convert(diff.At(4, 2)).(color.NRGBA); c != (color.NRGBA{R: 255, A: 255}) {
		t.Errorf("a differing pixel is %v", c)
	}
	if c := color.NRGBAModel.Convert(diff.At(0, 0)).(color.NRGBA); c.R != c.G || c.R == 255 {
		t.Errorf("an equal pixel is %v", c)
	}

	// With max_diff_ratio 0.1 the same images match; without tolerance
	// every pixel differs.
	res = h.Call(context.Background(), "compare_screenshots", map[string]any{
		"image_a": "res://baseline.png", "image_b": base64.StdEncoding.EncodeToString(b), "tolerance": 0.01, "max_diff_ratio": 0.1, "diff_image": false})
	if err := res.Structured(&out); err != nil || !out.Match || len(res.Content) != 1 {
		t.Errorf("%v %+v", err, out)
	}
	res = h.Call(context.Background(), "compare_screenshots", map[string]any{"image_a": "res://baseline.png", "image_b": base64.StdEncoding.EncodeToString(b)})
	if err := res.Structured(&out); err != nil || out.DiffPixels != 80 {
		t.Errorf("%v %+v", err, out)
	}
}

func TestCompareScreenshotsRefusals(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	small := base64.StdEncoding.EncodeToString(pngOf(t, 4, 4, func(x, y int) color.NRGBA { return color.NRGBA{A: 255} }))
	big := base64.StdEncoding.EncodeToString(pngOf(t, 5, 4, func(x, y int) color.NRGBA { return color.NRGBA{A: 255} }))
	for _, c := range []struct {
		args map[string]any
		code string
		msg  string
	}{
		{map[string]any{"image_a": small, "image_b": big}, sdk.CodeInvalidArgument, "image_a is 4x4, image_b is 5x4"},
		{map[string]any{"image_a": small, "image_b": "res://nope.png"}, sdk.CodeNotFound, "res://nope.png"},
		{map[string]any{"image_a": small, "image_b": "not base64!"}, sdk.CodeInvalidArgument, "neither a res:// path nor base64"},
		{map[string]any{"image_a": small, "image_b": base64.StdEncoding.EncodeToString([]byte("text"))}, sdk.CodeInvalidArgument, "not a decodable image"},
		{map[string]any{"image_a": small, "image_b": "/etc/passwd"}, sdk.CodeInvalidArgument, "outside the project"},
		{map[string]any{"image_a": small, "image_b": "res://../x.png"}, sdk.CodeInvalidArgument, ""},
	} {
		res := h.Call(context.Background(), "compare_screenshots", c.args)
		if res.ErrorCode != c.code || !strings.Contains(res.Text(), c.msg) {
			t.Errorf("%v: %s %s", c.args["image_b"], res.ErrorCode, res.Text())
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
