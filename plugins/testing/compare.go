package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	// Baselines may be JPEG too.
	_ "image/jpeg"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type compareArgs struct {
	ImageA       string   `json:"image_a" jsonschema:"the first image: a res:// path of a PNG, a screenshot file godot_runtime_capture_game_screenshot saved, or base64 PNG data (a data: URI too)"`
	ImageB       string   `json:"image_b" jsonschema:"the second image, in the same forms"`
	Tolerance    float64  `json:"tolerance,omitempty" minimum:"0" maximum:"1" jsonschema:"per-channel difference (a fraction of 255) a pixel may have and still count as equal (default 0)"`
	MaxDiffRatio *float64 `json:"max_diff_ratio,omitempty" minimum:"0" maximum:"1" jsonschema:"match is true when at most this fraction of pixels differ (default 0: none)"`
	DiffImage    *bool    `json:"diff_image,omitempty" default:"true" jsonschema:"return the difference image: differing pixels red, the rest image_a dimmed to grey (default true)"`
}

type compareResult struct {
	SameSize     bool    `json:"same_size"`
	Width        int     `json:"width"`
	Height       int     `json:"height"`
	DiffPixels   int     `json:"diff_pixels" jsonschema:"pixels with a channel differing by more than tolerance"`
	TotalPixels  int     `json:"total_pixels"`
	DiffRatio    float64 `json:"diff_ratio" jsonschema:"diff_pixels / total_pixels"`
	MeanAbsDiff  float64 `json:"mean_abs_diff" jsonschema:"mean absolute difference over every RGBA channel, 0..1"`
	MaxChannel   float64 `json:"max_channel_diff" jsonschema:"the largest difference of one channel, 0..1"`
	Tolerance    float64 `json:"tolerance"`
	MaxDiffRatio float64 `json:"max_diff_ratio"`
	Match        bool    `json:"match" jsonschema:"diff_ratio is at most max_diff_ratio"`
	DiffBounds   *rect   `json:"diff_bounds,omitempty" jsonschema:"the smallest rectangle holding every differing pixel"`
	Text         string  `json:"text"`
}

type rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// maxImageBytes bounds an image argument (decoded).
const maxImageBytes = 64 << 20

func compareScreenshots(_ context.Context, call *sdk.Call, in compareArgs) (sdk.Result, error) {
	if in.Tolerance < 0 || in.Tolerance > 1 {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass tolerance between 0 and 1 (a fraction of 255 per channel)", "tolerance %v is out of range", in.Tolerance)
	}
	a, err := loadImage(call, "image_a", in.ImageA)
	if err != nil {
		return sdk.Result{}, err
	}
	b, err := loadImage(call, "image_b", in.ImageB)
	if err != nil {
		return sdk.Result{}, err
	}
	maxRatio := 0.0
	if in.MaxDiffRatio != nil {
		maxRatio = *in.MaxDiffRatio
	}
	res, diff, err := Compare(a, b, in.Tolerance, maxRatio)
	if err != nil {
		return sdk.Result{}, err
	}
	meta, _ := json.Marshal(res)
	out := sdk.Result{Structured: res, Content: []sdk.Content{sdk.TextContent{Text: res.Text + ": " + string(meta)}}}
	if in.DiffImage == nil || *in.DiffImage {
		var buf bytes.Buffer
		if err := png.Encode(&buf, diff); err != nil {
			return sdk.Result{}, err
		}
		out.Content = append(out.Content, sdk.ImageContent{Data: buf.Bytes(), MIMEType: "image/png"})
	}
	return out, nil
}

// Compare compares two images of the same size pixel by pixel (8-bit
// RGBA, non-premultiplied) and draws the difference image.
func Compare(a, b image.Image, tolerance, maxRatio float64) (compareResult, *image.NRGBA, error) {
	ab, bb := a.Bounds(), b.Bounds()
	if ab.Dx() != bb.Dx() || ab.Dy() != bb.Dy() {
		return compareResult{}, nil, sdk.Errorf(sdk.CodeInvalidArgument,
			"compare images of the same size: capture both at the same width and height (godot_runtime_capture_game_screenshot takes width/height)",
			"the images differ in size: image_a is %dx%d, image_b is %dx%d", ab.Dx(), ab.Dy(), bb.Dx(), bb.Dy())
	}
	w, h := ab.Dx(), ab.Dy()
	res := compareResult{SameSize: true, Width: w, Height: h, TotalPixels: w * h, Tolerance: tolerance, MaxDiffRatio: maxRatio}
	diff := image.NewNRGBA(image.Rect(0, 0, w, h))
	threshold := tolerance * 255
	var sum, maxc float64
	minX, minY, maxX, maxY := w, h, -1, -1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			ca := color.NRGBAModel.Convert(a.At(ab.Min.X+x, ab.Min.Y+y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(bb.Min.X+x, bb.Min.Y+y)).(color.NRGBA)
			differs := false
			for _, d := range [4]float64{absd(ca.R, cb.R), absd(ca.G, cb.G), absd(ca.B, cb.B), absd(ca.A, cb.A)} {
				sum += d
				if d > maxc {
					maxc = d
				}
				if d > threshold {
					differs = true
				}
			}
			if differs {
				res.DiffPixels++
				diff.SetNRGBA(x, y, color.NRGBA{R: 255, A: 255})
				minX, minY = min(minX, x), min(minY, y)
				maxX, maxY = max(maxX, x), max(maxY, y)
			} else {
				g := uint8((299*uint32(ca.R) + 587*uint32(ca.G) + 114*uint32(ca.B)) / 1000 * 3 / 10)
				diff.SetNRGBA(x, y, color.NRGBA{R: g, G: g, B: g, A: 255})
			}
		}
	}
	if res.TotalPixels > 0 {
		res.DiffRatio = float64(res.DiffPixels) / float64(res.TotalPixels)
		res.MeanAbsDiff = sum / float64(res.TotalPixels*4) / 255
	}
	res.MaxChannel = maxc / 255
	res.Match = res.DiffRatio <= maxRatio
	if maxX >= 0 {
		res.DiffBounds = &rect{X: minX, Y: minY, W: maxX - minX + 1, H: maxY - minY + 1}
	}
	verdict := "the images match"
	if !res.Match {
		verdict = "the images differ"
	}
	res.Text = fmt.Sprintf("%s: %d of %d pixels (%.4f%%) differ beyond tolerance %.3f; mean absolute difference %.5f", verdict,
		res.DiffPixels, res.TotalPixels, res.DiffRatio*100, tolerance, res.MeanAbsDiff)
	if res.DiffBounds != nil {
		r := res.DiffBounds
		res.Text += fmt.Sprintf("; differences within x=%d y=%d w=%d h=%d", r.X, r.Y, r.W, r.H)
	}
	return res, diff, nil
}

func absd(a, b uint8) float64 {
	if a > b {
		return float64(a - b)
	}
	return float64(b - a)
}

// loadImage reads an image argument: a res:// path, a PNG the runtime
// toolset saved in its screenshot folder, or base64 data.
func loadImage(call *sdk.Call, arg, v string) (image.Image, error) {
	v = strings.TrimSpace(v)
	var data []byte
	switch {
	case v == "":
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass "+arg+" as a res:// PNG path or base64 PNG data", "%s is empty", arg)
	case strings.HasPrefix(v, "res://"):
		p, err := call.Project()
		if err != nil {
			return nil, err
		}
		abs, err := p.Resolve(v)
		if err != nil {
			return nil, err
		}
		if data, err = readCapped(abs); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing image", "%s: cannot read %s: %v", arg, v, err)
		}
	case filepath.IsAbs(v):
		dir := filepath.Join(os.TempDir(), "godot-mcp-screenshots")
		clean := filepath.Clean(v)
		if filepath.Dir(clean) != dir {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument,
				"pass a res:// path, base64 data, or a file godot_runtime_capture_game_screenshot saved in "+dir,
				"%s: %s is outside the project and the screenshot folder", arg, v)
		}
		var err error
		if data, err = readCapped(clean); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "take the screenshot again", "%s: cannot read %s: %v", arg, v, err)
		}
	default:
		if i := strings.Index(v, ","); strings.HasPrefix(v, "data:") && i > 0 {
			v = v[i+1:]
		}
		var err error
		data, err = base64.StdEncoding.DecodeString(v)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(v)
		}
		if err != nil {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass "+arg+" as a res:// path or standard base64 PNG data", "%s is neither a res:// path nor base64: %v", arg, err)
		}
	}
	if len(data) > maxImageBytes {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "compare smaller images", "%s is larger than %d MB", arg, maxImageBytes>>20)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a PNG (or JPEG) image", "%s is not a decodable image: %v", arg, err)
	}
	if cfg.Width*cfg.Height > 64<<20 {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "compare smaller images", "%s has %dx%d pixels, more than this tool compares", arg, cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a PNG (or JPEG) image", "%s is not a decodable image: %v", arg, err)
	}
	return img, nil
}

func readCapped(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxImageBytes {
		return nil, fmt.Errorf("larger than %d MB", maxImageBytes>>20)
	}
	return os.ReadFile(p)
}
