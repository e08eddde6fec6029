package main

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Files the render tests add to the test game: resources of known
// colours, and a 3D scene whose own camera looks at a red box while a
// green one stands 10 m to the right.
var renderFiles = map[string]string{
	"green_tex.tres": `[gd_resource type="GradientTexture2D" format=3]

[sub_resource type="Gradient" id="Gradient_g"]
colors = PackedColorArray(0.1, 0.8, 0.2, 1, 0.1, 0.8, 0.2, 1)

[resource]
gradient = SubResource("Gradient_g")
`,
	"red.tres": `[gd_resource type="StandardMaterial3D" format=3]

[resource]
albedo_color = Color(1, 0, 0, 1)
`,
	"blue_box.tres": `[gd_resource type="BoxMesh" format=3]

[sub_resource type="StandardMaterial3D" id="Blue"]
albedo_color = Color(0, 0, 1, 1)

[resource]
material = SubResource("Blue")
`,
	"yellow_panel.tres": `[gd_resource type="StyleBoxFlat" format=3]

[resource]
bg_color = Color(1, 1, 0, 1)
`,
	"magenta.tres": `[gd_resource type="ShaderMaterial" format=3]

[sub_resource type="Shader" id="Shader_m"]
code = "shader_type canvas_item;

void fragment() {
	COLOR = vec4(1.0, 0.0, 1.0, 1.0);
}
"

[resource]
shader = SubResource("Shader_m")
`,
	"cyan_theme.tres": `[gd_resource type="Theme" format=3]

[sub_resource type="StyleBoxFlat" id="S"]
bg_color = Color(0, 1, 1, 1)

[resource]
PanelContainer/styles/panel = SubResource("S")
`,
	"curve.tres": `[gd_resource type="Curve" format=3]

[resource]
`,
	"boxes.tscn": `[gd_scene format=3]

[sub_resource type="StandardMaterial3D" id="red"]
albedo_color = Color(1, 0, 0, 1)

[sub_resource type="StandardMaterial3D" id="green"]
albedo_color = Color(0, 1, 0, 1)

[sub_resource type="BoxMesh" id="box"]

[node name="World" type="Node3D"]

[node name="Red" type="MeshInstance3D" parent="."]
mesh = SubResource("box")
material_override = SubResource("red")

[node name="Green" type="MeshInstance3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 10, 0, 0)
mesh = SubResource("box")
material_override = SubResource("green")

[node name="Camera" type="Camera3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 4)
current = true

[node name="Sun" type="DirectionalLight3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 0.7071, 0.7071, 0, -0.7071, 0.7071, 0, 5, 5)
`,
}

func renderProject(t *testing.T) string {
	t.Helper()
	dir := testGame(t)
	for name, text := range renderFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type rgb struct{ r, g, b int }

func pixel(img image.Image, x, y int) rgb {
	r, g, b, _ := img.At(x, y).RGBA()
	return rgb{int(r >> 8), int(g >> 8), int(b >> 8)}
}

func centre(img image.Image) rgb {
	b := img.Bounds()
	return pixel(img, (b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2)
}

// Colour tests with room for lighting: the named channel clearly
// dominates the other two.
func (c rgb) red() bool    { return c.r > 120 && c.g < c.r/3 && c.b < c.r/3 }
func (c rgb) green() bool  { return c.g > 120 && c.r < c.g/2 && c.b < c.g/2 }
func (c rgb) blue() bool   { return c.b > 120 && c.r < c.b/3 && c.g < c.b/3 }
func (c rgb) yellow() bool { return c.r > 200 && c.g > 200 && c.b < 60 }

func anyRed(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if pixel(img, x, y).red() {
				return true
			}
		}
	}
	return false
}

// TestRenderResourcesAndViews renders resources in their preview scenes
// and scenes from given views in the real engine (web runtime), and
// checks the pixels.
func TestRenderResourcesAndViews(t *testing.T) {
	requireWeb(t)
	dir := renderProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	render := func(args map[string]any) image.Image {
		t.Helper()
		res := h.Call(ctx, "render_scene", args)
		if res.Err != nil || res.IsError {
			t.Fatalf("render_scene %v: %v %s", args, res.Err, res.Text())
		}
		return imageOf(t, res)
	}

	// A texture resource fills the picture with its colour.
	if c := centre(render(map[string]any{"resource": "res://green_tex.tres"})); !c.green() {
		t.Errorf("texture resource: centre %v, want the texture's green", c)
	}
	// A red material on the preview sphere.
	if c := centre(render(map[string]any{"resource": "res://red.tres"})); !c.red() {
		t.Errorf("material resource: centre %v, want red", c)
	}
	// A mesh, with its own (blue) material, framed and lit.
	img := render(map[string]any{"resource": "res://blue_box.tres"})
	if c := centre(img); !c.blue() {
		t.Errorf("mesh resource: centre %v, want blue", c)
	}
	if c := pixel(img, 2, 2); c.blue() {
		t.Errorf("mesh resource: corner %v is blue too: the mesh is not framed", c)
	}
	// Its material alone, as a sub-resource of the mesh file.
	if c := centre(render(map[string]any{"resource": "res://blue_box.tres::Blue"})); !c.blue() {
		t.Errorf("sub-resource material: centre %v, want blue", c)
	}
	// A material inside a scene, as the scene file's sub-resource.
	if c := centre(render(map[string]any{"resource": "res://boxes.tscn::green"})); !c.green() {
		t.Errorf("sub-resource of a scene: centre %v, want green", c)
	}
	// A StyleBox as a panel with a margin around it.
	img = render(map[string]any{"resource": "res://yellow_panel.tres"})
	if c := centre(img); !c.yellow() {
		t.Errorf("stylebox: centre %v, want yellow", c)
	}
	if c := pixel(img, 2, 2); c.yellow() {
		t.Errorf("stylebox: corner %v is yellow too, want the margin", c)
	}

	// A canvas_item shader material fills a rectangle with what it draws.
	if c := centre(render(map[string]any{"resource": "res://magenta.tres"})); c.r < 200 || c.b < 200 || c.g > 60 {
		t.Errorf("canvas_item material: centre %v, want magenta", c)
	}
	// A Theme dresses the preview's PanelContainer: its panel style shows
	// below the controls.
	if c := pixel(render(map[string]any{"resource": "res://cyan_theme.tres"}), 300, 230); c.g < 200 || c.b < 200 || c.r > 60 {
		t.Errorf("theme: pixel (300,230) %v, want the theme's cyan panel", c)
	}

	// 2D: without a view the red square is at its saved place (40, 120);
	// centred on it at zoom 2 it is in the middle and twice as big; a
	// view moved away leaves it out of the picture; a rect around it
	// fits it.
	img = render(map[string]any{"scene": "res://main.tscn"})
	if c := pixel(img, 40, 120); !c.red() {
		t.Fatalf("no view: pixel (40,120) %v, want the red square", c)
	}
	img = render(map[string]any{"scene": "res://main.tscn", "view": map[string]any{"center": []float64{40, 120}, "zoom": 2}})
	if c := centre(img); !c.red() {
		t.Errorf("view centred on the square: centre %v, want red", c)
	}
	// The square is 20 px wide: at zoom 2, 40 px, so 15 px from the
	// centre is inside it and 25 px is not.
	if c := pixel(img, 160+15, 120); !c.red() {
		t.Errorf("view at zoom 2: pixel 15 px right of the centre %v, want red (the square twice as big)", c)
	}
	if c := pixel(img, 160+25, 120); c.red() {
		t.Errorf("view at zoom 2: pixel 25 px right of the centre %v is red, the square is too big", c)
	}
	img = render(map[string]any{"scene": "res://main.tscn", "view": map[string]any{"center": []float64{1000, 1000}}})
	if anyRed(img) {
		t.Errorf("view moved away from the square: it is still in the picture")
	}
	img = render(map[string]any{"scene": "res://main.tscn", "view": map[string]any{"rect": []float64{30, 110, 20, 20}}})
	// Fitted at zoom 12 (240/20): the square fills the height, 240 px
	// of the 320 px width, so near the top it is red and at x = 20 the
	// background shows beside it.
	if c := pixel(img, 160, 3); !c.red() {
		t.Errorf("view rect = the square: pixel (160,3) %v, want red (the square fills the height)", c)
	}
	if c := pixel(img, 20, 120); c.red() {
		t.Errorf("view rect = the square: pixel (20,120) %v is red, want the background beside the square", c)
	}

	// 3D: the scene's own camera sees the red box; a view from 10 m to
	// the right sees the green one.
	if c := centre(render(map[string]any{"scene": "res://boxes.tscn"})); !c.red() {
		t.Errorf("3D with the scene's camera: centre %v, want the red box", c)
	}
	img = render(map[string]any{"scene": "res://boxes.tscn", "view": map[string]any{"position": []float64{10, 0, 4}, "look_at": []float64{10, 0, 0}, "fov": 40}})
	if c := centre(img); !c.green() {
		t.Errorf("3D view at x=10: centre %v, want the green box", c)
	}
	if anyRed(img) {
		t.Errorf("3D view at x=10: the red box is in the picture")
	}

	// What cannot be shown says so.
	res := h.Call(ctx, "render_scene", map[string]any{"resource": "res://curve.tres"})
	if res.ErrorCode != sdk.CodeToolError || !strings.Contains(res.Error.Message, "cannot show a Curve") {
		t.Errorf("a Curve: %+v", res.Error)
	}
	res = h.Call(ctx, "render_scene", map[string]any{"resource": "res://blue_box.tres::Nope"})
	if res.ErrorCode != sdk.CodeToolError || !strings.Contains(res.Error.Message, "no sub-resource Nope") {
		t.Errorf("a missing sub-resource: %+v", res.Error)
	}
	res = h.Call(ctx, "render_scene", map[string]any{"resource": "res://nope.tres"})
	if res.ErrorCode != sdk.CodeNotFound {
		t.Errorf("a missing resource: %+v", res.Error)
	}
}

// TestRenderArgumentChecks: wrong arguments are refused before any
// engine starts.
func TestRenderArgumentChecks(t *testing.T) {
	dir := testGame(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"scene": "res://main.tscn", "resource": "res://a.tres"}, "both scene and resource"},
		{map[string]any{"view": map[string]any{"center": []float64{1, 2}, "position": []float64{1, 2, 3}}}, "mixes 2D"},
		{map[string]any{"view": map[string]any{}}, "is empty"},
		{map[string]any{"view": map[string]any{"center": []float64{1}}}, "center has 1 numbers"},
		{map[string]any{"view": map[string]any{"rect": []float64{0, 0, 0, 10}}}, "no area"},
		{map[string]any{"view": map[string]any{"rect": []float64{0, 0, 5, 10}, "zoom": 2}}, "rect and center/zoom"},
		{map[string]any{"view": map[string]any{"fov": 200}}, "outside 1..179"},
		{map[string]any{"view": map[string]any{"zoom": -1}}, "zoom must be above 0"},
		{map[string]any{"view": map[string]any{"position": []float64{1, 1, 1}, "look_at": []float64{1, 1, 1}}}, "look_at is the camera's own position"},
	} {
		res := h.Call(context.Background(), "render_scene", c.args)
		if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Message, c.want) || res.Error.Hint == "" {
			t.Errorf("%v: %+v, want INVALID_ARGUMENT %q", c.args, res.Error, c.want)
		}
	}
}
