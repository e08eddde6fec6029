package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// maxSide bounds placeholder images and textures: big enough for any
// placeholder, small enough that an agent cannot fill the disk with one.
const maxSide = 4096

var (
	shapes    = []string{"rectangle", "circle", "triangle"}
	gradients = []string{"horizontal", "vertical", "diagonal", "radial"}
)

type imageArgs struct {
	Path       sdk.ResPath `json:"path" jsonschema:"res:// path of the PNG to write, e.g. res://art/player.png" godot:"ext=.png"`
	Width      int         `json:"width,omitempty" jsonschema:"width in pixels" default:"64" minimum:"1" maximum:"4096"`
	Height     int         `json:"height,omitempty" jsonschema:"height in pixels" default:"64" minimum:"1" maximum:"4096"`
	Shape      string      `json:"shape,omitempty" jsonschema:"what is drawn: rectangle (the whole image), circle (an ellipse touching the edges) or triangle (pointing up)" default:"rectangle" enum:"rectangle,circle,triangle"`
	Color      string      `json:"color,omitempty" jsonschema:"fill colour: a name (\"red\"), \"#rrggbb\", \"#rrggbbaa\" or \"Color(r, g, b, a)\" with components 0..1" default:"white"`
	ColorTo    string      `json:"color_to,omitempty" jsonschema:"makes the fill a gradient from color to this colour"`
	Gradient   string      `json:"gradient,omitempty" jsonschema:"direction of the gradient with color_to: horizontal (left to right), vertical (top to bottom), diagonal, radial (centre outwards)" default:"horizontal" enum:"horizontal,vertical,diagonal,radial"`
	Background string      `json:"background,omitempty" jsonschema:"colour around a circle or triangle" default:"transparent"`
	Overwrite  bool        `json:"overwrite,omitempty" jsonschema:"replace a file already at path (its .import file, and so its uid and options, is kept)"`
}

type imageResult struct {
	Path       string           `json:"path"`
	Width      int              `json:"width"`
	Height     int              `json:"height"`
	Shape      string           `json:"shape"`
	ImportFile string           `json:"import_file"`
	UID        string           `json:"uid"`
	Bytes      int              `json:"bytes"`
	Commit     sdk.CommitResult `json:"commit"`
	Next       string           `json:"next"`
}

// parseColor reads a colour argument as Godot's Color does: a name, a hex
// code, or the four components.
func parseColor(arg string, v string, def color.NRGBA) (color.NRGBA, error) {
	if v == "" {
		return def, nil
	}
	if strings.EqualFold(v, "transparent") {
		return color.NRGBA{}, nil
	}
	gv, err := godot.FromJSON(v, "Color")
	if err != nil {
		return def, sdk.Errorf(sdk.CodeInvalidArgument, "pass a colour name such as \"red\", \"#rrggbb\", \"#rrggbbaa\" or \"Color(r, g, b, a)\" with components 0..1",
			"%s: %v", arg, err)
	}
	c := gv.(godot.Color)
	b := func(x float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, x)) * 255)) }
	return color.NRGBA{b(c.R), b(c.G), b(c.B), b(c.A)}, nil
}

func checkSize(w, h int) (int, int, error) {
	if w == 0 {
		w = 64
	}
	if h == 0 {
		h = 64
	}
	if w < 1 || h < 1 || w > maxSide || h > maxSide {
		return 0, 0, sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("pass width and height from 1 to %d", maxSide),
			"size %dx%d is out of range", w, h)
	}
	return w, h, nil
}

func oneOf(arg, v string, def string, allowed []string) (string, error) {
	if v == "" {
		return def, nil
	}
	if !slices.Contains(allowed, v) {
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "pass one of: "+strings.Join(allowed, ", "), "%s %q is not known", arg, v)
	}
	return v, nil
}

// inShape reports whether the point (x, y), in 0..1 across the image,
// is inside the shape.
func inShape(shape string, x, y float64) bool {
	switch shape {
	case "circle":
		dx, dy := x-0.5, y-0.5
		return dx*dx+dy*dy <= 0.25
	case "triangle":
		// Apex at the top centre, base along the bottom edge.
		return y >= 0 && y <= 1 && math.Abs(x-0.5) <= y/2
	}
	return true
}

// along is how far (0..1) the point is along the gradient.
func along(gradient string, x, y float64) float64 {
	switch gradient {
	case "vertical":
		return y
	case "diagonal":
		return (x + y) / 2
	case "radial":
		return math.Min(1, 2*math.Hypot(x-0.5, y-0.5))
	}
	return x
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	l := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + (float64(q)-float64(p))*t)) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

// samples is the supersampling grid per pixel edge: shape edges are
// antialiased by the share of 4x4 sample points inside.
const samples = 4

// draw paints the placeholder. Pixel centres are sampled for the colour;
// coverage of the shape blends it over the background.
func draw(w, h int, shape, gradient string, fill, to, bg color.NRGBA, hasTo bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	den := func(n int) float64 {
		if n == 1 {
			return 1
		}
		return float64(n - 1)
	}
	for py := 0; py < h; py++ {
		for px := 0; px < w; px++ {
			in := 0
			for sy := 0; sy < samples; sy++ {
				for sx := 0; sx < samples; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/samples) / float64(w)
					y := (float64(py) + (float64(sy)+0.5)/samples) / float64(h)
					if inShape(shape, x, y) {
						in++
					}
				}
			}
			c := fill
			if hasTo {
				c = mix(fill, to, along(gradient, float64(px)/den(w), float64(py)/den(h)))
			}
			cov := float64(in) / (samples * samples)
			switch {
			case cov == 1:
			case cov == 0:
				c = bg
			default:
				c = over(c, bg, cov)
			}
			img.SetNRGBA(px, py, c)
		}
	}
	return img
}

// over blends c with coverage cov over bg, non-premultiplied.
func over(c, bg color.NRGBA, cov float64) color.NRGBA {
	ca, ba := float64(c.A)/255*cov, float64(bg.A)/255*(1-cov)
	a := ca + ba
	if a == 0 {
		return color.NRGBA{}
	}
	ch := func(p, q uint8) uint8 { return uint8(math.Round((float64(p)*ca + float64(q)*ba) / a)) }
	return color.NRGBA{ch(c.R, bg.R), ch(c.G, bg.G), ch(c.B, bg.B), uint8(math.Round(a * 255))}
}

func createImage(ctx context.Context, call *sdk.Call, in imageArgs) (sdk.Result, error) {
	target := string(in.Path)
	w, h, err := checkSize(in.Width, in.Height)
	if err != nil {
		return sdk.Result{}, err
	}
	shape, err := oneOf("shape", in.Shape, "rectangle", shapes)
	if err != nil {
		return sdk.Result{}, err
	}
	gradient, err := oneOf("gradient", in.Gradient, "horizontal", gradients)
	if err != nil {
		return sdk.Result{}, err
	}
	fill, err := parseColor("color", in.Color, color.NRGBA{255, 255, 255, 255})
	if err != nil {
		return sdk.Result{}, err
	}
	to, err := parseColor("color_to", in.ColorTo, fill)
	if err != nil {
		return sdk.Result{}, err
	}
	bg, err := parseColor("background", in.Background, color.NRGBA{})
	if err != nil {
		return sdk.Result{}, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, draw(w, h, shape, gradient, fill, to, bg, in.ColorTo != "")); err != nil {
		return sdk.Result{}, fmt.Errorf("encoding %s: %w", target, err)
	}

	ws := call.Workspace()
	st, err := statNew(ctx, ws, target, in.Overwrite, "pass overwrite: true to replace it (its .import file is kept), or another path")
	if err != nil {
		return sdk.Result{}, err
	}
	im, _ := importfile.For(target)
	importPath := target + ".import"
	ist, err := ws.Stat(ctx, importPath)
	if err != nil {
		return sdk.Result{}, err
	}
	tx := ws.Begin("Create placeholder image " + target)
	tx.Write(target, buf.Bytes(), st.Version)
	id := ""
	if ist.Exists {
		if f, err := ws.Read(ctx, importPath); err == nil {
			if info, err := importfile.Parse(importPath, f.Data); err == nil && info.Importer == im.Name && info.SourceFile == target && uid.IsCanonical(info.UID) {
				id = info.UID
			}
		}
	}
	if id == "" {
		id = uid.New().String()
		tx.Write(importPath, importfile.Build(target, im, id), ist.Version)
	}
	cr, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	next := "the editor imports it on its next filesystem scan (open the project); use it by its path or " + id
	// One of the justified mode branches: the write is the same in both
	// modes (the files go through the workspace; the editor has no import
	// command), only what happens next differs, and the agent is told.
	if call.Mode() == sdk.ModeEditor {
		next = "the attached editor's filesystem scan imports it now; use it by its path or " + id
	}
	return sdk.JSON(imageResult{Path: target, Width: w, Height: h, Shape: shape, ImportFile: importPath, UID: id,
		Bytes: buf.Len(), Commit: cr, Next: next}), nil
}

type textureArgs struct {
	Path      sdk.ResPath `json:"path" jsonschema:"res:// path of the texture resource to write, e.g. res://art/sky.tres" godot:"ext=.tres"`
	Kind      string      `json:"kind,omitempty" jsonschema:"gradient: a GradientTexture2D (colours, drawn by Godot, no image file); placeholder: a PlaceholderTexture2D (only a size: stands in for a texture to come, draws nothing)" default:"gradient" enum:"gradient,placeholder"`
	Width     int         `json:"width,omitempty" jsonschema:"width in pixels" default:"64" minimum:"1" maximum:"4096"`
	Height    int         `json:"height,omitempty" jsonschema:"height in pixels" default:"64" minimum:"1" maximum:"4096"`
	Colors    []string    `json:"colors,omitempty" jsonschema:"gradient: the colours, evenly spaced unless offsets are given (one colour makes a solid texture); each a name, \"#rrggbb\", \"#rrggbbaa\" or \"Color(r, g, b, a)\"" default:"[\"black\", \"white\"]"`
	Offsets   []float64   `json:"offsets,omitempty" jsonschema:"gradient: where each colour sits, 0..1 ascending, one per colour"`
	Fill      string      `json:"fill,omitempty" jsonschema:"gradient: linear, radial (centre outwards) or square" default:"linear" enum:"linear,radial,square"`
	Direction string      `json:"direction,omitempty" jsonschema:"gradient, linear fill: horizontal (left to right), vertical (top to bottom) or diagonal" default:"horizontal" enum:"horizontal,vertical,diagonal"`
	Overwrite bool        `json:"overwrite,omitempty" jsonschema:"replace a file already at path"`
}

type textureResult struct {
	Path   string           `json:"path"`
	Type   string           `json:"type"`
	UID    string           `json:"uid"`
	Width  int              `json:"width"`
	Height int              `json:"height"`
	Commit sdk.CommitResult `json:"commit"`
}

var fills = map[string]int64{"linear": 0, "radial": 1, "square": 2}

// gradientEnds are fill_from and fill_to for each linear direction; the
// class's defaults are (0, 0) and (1, 0), so horizontal writes neither.
var gradientEnds = map[string][2]godot.Vector2{
	"horizontal": {{X: 0, Y: 0}, {X: 1, Y: 0}},
	"vertical":   {{X: 0, Y: 0}, {X: 0, Y: 1}},
	"diagonal":   {{X: 0, Y: 0}, {X: 1, Y: 1}},
}

func createTexture(ctx context.Context, call *sdk.Call, in textureArgs) (sdk.Result, error) {
	target := string(in.Path)
	w, h, err := checkSize(in.Width, in.Height)
	if err != nil {
		return sdk.Result{}, err
	}
	kind, err := oneOf("kind", in.Kind, "gradient", []string{"gradient", "placeholder"})
	if err != nil {
		return sdk.Result{}, err
	}
	fill, err := oneOf("fill", in.Fill, "linear", []string{"linear", "radial", "square"})
	if err != nil {
		return sdk.Result{}, err
	}
	dir, err := oneOf("direction", in.Direction, "horizontal", []string{"horizontal", "vertical", "diagonal"})
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	st, err := statNew(ctx, ws, target, in.Overwrite, "pass overwrite: true to replace it, or another path")
	if err != nil {
		return sdk.Result{}, err
	}
	typ := "GradientTexture2D"
	if kind == "placeholder" {
		typ = "PlaceholderTexture2D"
	}
	rf, id, err := newResourceFile(ctx, ws, typ, target)
	if err != nil {
		return sdk.Result{}, err
	}
	res := rf.Resource()
	if kind == "placeholder" {
		if len(in.Colors) > 0 || len(in.Offsets) > 0 {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "leave colors and offsets out, or use kind: gradient",
				"a placeholder texture has only a size")
		}
		res.Set("size", godot.Vector2{X: float64(w), Y: float64(h)})
	} else {
		if err := gradientTexture(rf, in, w, h, fill, dir); err != nil {
			return sdk.Result{}, err
		}
	}
	cr, err := ws.Begin("Create texture "+target).Write(target, rf.Bytes(), st.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(textureResult{Path: target, Type: typ, UID: id, Width: w, Height: h, Commit: cr}), nil
}

// gradientTexture fills rf's GradientTexture2D and its Gradient, writing
// only what differs from the classes' defaults, as the editor's saver does.
func gradientTexture(rf *godot.File, in textureArgs, w, h int, fill, dir string) error {
	raw := in.Colors
	if len(raw) == 0 {
		raw = []string{"black", "white"}
	}
	var colors godot.PackedColorArray
	for i, v := range raw {
		c, err := godot.FromJSON(v, "Color")
		if err != nil {
			return sdk.Errorf(sdk.CodeInvalidArgument, "pass colour names such as \"red\", \"#rrggbb\" or \"Color(r, g, b, a)\" with components 0..1",
				"colors[%d]: %v", i, err)
		}
		colors = append(colors, c.(godot.Color))
	}
	offsets := make(godot.PackedFloat32Array, len(colors))
	switch {
	case len(in.Offsets) > 0:
		if len(in.Offsets) != len(colors) {
			return sdk.Errorf(sdk.CodeInvalidArgument, "pass one offset per colour, or none for even spacing",
				"%d offsets for %d colours", len(in.Offsets), len(colors))
		}
		for i, o := range in.Offsets {
			if o < 0 || o > 1 || (i > 0 && o < in.Offsets[i-1]) {
				return sdk.Errorf(sdk.CodeInvalidArgument, "pass offsets from 0 to 1 in ascending order", "offsets[%d] = %v", i, o)
			}
			offsets[i] = float32(o)
		}
	case len(colors) > 1:
		for i := range offsets {
			offsets[i] = float32(float64(i) / float64(len(colors)-1))
		}
	}
	g, err := rf.AddSubResource("Gradient")
	if err != nil {
		return fmt.Errorf("adding the gradient: %w", err)
	}
	// Gradient's defaults are offsets (0, 1) and colours black, white.
	if !slices.Equal(offsets, godot.PackedFloat32Array{0, 1}) {
		g.Set("offsets", offsets)
	}
	if !slices.Equal(colors, godot.PackedColorArray{{A: 1}, {R: 1, G: 1, B: 1, A: 1}}) {
		g.Set("colors", colors)
	}
	res := rf.Resource()
	res.Set("gradient", g.Ref())
	if w != 64 {
		res.Set("width", godot.Int(int64(w)))
	}
	if h != 64 {
		res.Set("height", godot.Int(int64(h)))
	}
	if f := fills[fill]; f != 0 {
		res.Set("fill", godot.Int(f))
	}
	from, to := gradientEnds[dir][0], gradientEnds[dir][1]
	if fill != "linear" {
		// Radial and square fills grow from the centre to the edge.
		from, to = godot.Vector2{X: 0.5, Y: 0.5}, godot.Vector2{X: 1, Y: 0.5}
	}
	if from != (godot.Vector2{}) {
		res.Set("fill_from", from)
	}
	if to != (godot.Vector2{X: 1}) {
		res.Set("fill_to", to)
	}
	return nil
}
