package main

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// dominant names the strongest channel of a pixel ("r", "g", "b"), or
// "" for a grey one.
func dominant(img image.Image, x, y int) string {
	r, g, b, _ := img.At(x, y).RGBA()
	switch {
	case r > 2*g && r > 2*b:
		return "r"
	case g > 2*r && g > 2*b:
		return "g"
	case b > 2*r && b > 2*g:
		return "b"
	}
	return ""
}

// pixel is a point of a preview and the channel expected there (as
// dominant names it).
type pixel struct {
	x, y int
	want string
}

// A preview is the engine's rendering, returned as MCP image content: a
// canvas_item shader fills the rectangle, a spatial shader draws on a
// sphere in front of the background, on a quad, or on a plane seen from
// above (a trapezoid, wider near the camera than far from it), a
// material's parameters and params reach the shader, and a VisualShader
// graph renders too.
func TestPreviewRendersWithTheEngine(t *testing.T) {
	requireEngine(t)
	dir := plugintest.Project(t, map[string]string{
		"project.godot":   project,
		"red.gdshader":    "shader_type canvas_item;\nvoid fragment() {\n\tCOLOR = vec4(1.0, 0.0, 0.0, 1.0);\n}\n",
		"tint.gdshader":   "shader_type canvas_item;\nuniform vec4 tint : source_color = vec4(1.0);\nvoid fragment() {\n\tCOLOR = tint;\n}\n",
		"green.gdshader":  "shader_type spatial;\nrender_mode unshaded;\nvoid fragment() {\n\tALBEDO = vec3(0.0, 1.0, 0.0);\n}\n",
		"blue.tres":       "[gd_resource type=\"ShaderMaterial\" format=3]\n\n[ext_resource type=\"Shader\" path=\"res://tint.gdshader\" id=\"1_a\"]\n\n[resource]\nshader = ExtResource(\"1_a\")\nshader_parameter/tint = Color(0, 0, 1, 1)\n",
		"graph.tres":      "[gd_resource type=\"VisualShader\" format=3]\n\n[sub_resource type=\"VisualShaderNodeColorConstant\" id=\"C_1\"]\nconstant = Color(1, 0, 0, 1)\n\n[resource]\nflags/unshaded = true\nnodes/fragment/2/node = SubResource(\"C_1\")\nnodes/fragment/2/position = Vector2(0, 0)\nnodes/fragment/connections = PackedInt32Array(2, 0, 0, 0)\n",
		"notype.gdshader": "shader_type fog;\nvoid fog() {}\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct {
		args           map[string]any
		center, corner string
		more           []pixel
	}{
		{map[string]any{"shader_path": "res://red.gdshader", "size": 64}, "r", "r", nil},
		{map[string]any{"shader_path": "res://green.gdshader"}, "g", "", nil},
		{map[string]any{"shader_path": "res://green.gdshader", "mesh": "quad", "size": 128}, "g", "", nil},
		// The plane's near edge (low in the image) reaches x=20, its far
		// edge does not; above the far edge and below the near edge is
		// background.
		{map[string]any{"shader_path": "res://green.gdshader", "mesh": "plane", "size": 128}, "g", "",
			[]pixel{{20, 92, "g"}, {20, 52, ""}, {64, 20, ""}, {64, 120, ""}}},
		{map[string]any{"material_path": "res://blue.tres", "size": 32}, "b", "b", nil},
		{map[string]any{"shader_path": "res://tint.gdshader", "params": map[string]any{"tint": "#00ff00"}, "size": 32}, "g", "g", nil},
		{map[string]any{"shader_path": "res://graph.tres", "size": 64}, "r", "", nil},
	} {
		res := h.Call(t.Context(), "preview", c.args)
		if res.Err != nil || res.IsError {
			t.Errorf("%v: %v %s", c.args, res.Err, res.Text())
			continue
		}
		var img image.Image
		for _, ct := range res.Content {
			if ic, ok := ct.(sdk.ImageContent); ok && ic.MIMEType == "image/png" {
				var err error
				if img, err = png.Decode(bytes.NewReader(ic.Data)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if img == nil {
			t.Errorf("%v: no PNG in %+v", c.args, res.Content)
			continue
		}
		w := img.Bounds().Dx()
		if got := dominant(img, w/2, w/2); got != c.center {
			t.Errorf("%v: centre %v (%q), want %q", c.args, img.At(w/2, w/2), got, c.center)
		}
		if got := dominant(img, 1, 1); got != c.corner {
			t.Errorf("%v: corner %v (%q), want %q", c.args, img.At(1, 1), got, c.corner)
		}
		for _, p := range c.more {
			if got := dominant(img, p.x, p.y); got != p.want {
				t.Errorf("%v: (%d, %d) %v (%q), want %q", c.args, p.x, p.y, img.At(p.x, p.y), got, p.want)
			}
		}
	}
	plugintest.Refused(t, h, "preview", map[string]any{"shader_path": "res://notype.gdshader"}, sdk.CodeInvalidArgument, "spatial and canvas_item")
	plugintest.Refused(t, h, "preview", map[string]any{"shader_path": "res://red.gdshader", "mesh": "cube"}, sdk.CodeInvalidArgument, "sphere, plane or quad")
}

// A warm preview: a 256×256 spatial shader on the sphere, drawn and
// encoded by the engine.
//
//	go test -run '^$' -bench BenchmarkPreviewWarm -benchtime 5x ./plugins/shader/
func BenchmarkPreviewWarm(b *testing.B) {
	if _, err := webgodot.Locate(); err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "project.godot"), []byte(project), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "s.gdshader"), []byte("shader_type spatial;\nvoid fragment() {\n\tALBEDO = vec3(UV, 0.5);\n}\n"), 0o644)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir})
	args := map[string]any{"shader_path": "res://s.gdshader"}
	if r := h.Call(context.Background(), "preview", args); r.IsError {
		b.Fatal(r.Text())
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if r := h.Call(context.Background(), "preview", args); r.IsError || r.Err != nil {
			b.Fatal(r.Text(), r.Err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms/preview")
}
