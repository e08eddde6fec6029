package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// screenshotDir is where screenshots are written as files, outside the
// project: a screenshot is not part of the game.
func screenshotDir() string { return filepath.Join(os.TempDir(), "godot-mcp-screenshots") }

// screenshotResult turns a capture answer (the addon's or the probe's:
// {format, width, height, base64} or {error}) into an MCP image, a PNG
// file and its size as text. width/height, when set and not already
// applied by the game, scale the image here.
func screenshotResult(out map[string]any, width, height int) (sdk.Result, error) {
	if msg, ok := out["error"].(string); ok && msg != "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "make sure the game is running and drawing, then retry",
			"the game could not take a screenshot: %s", msg)
	}
	b64, _ := out["base64"].(string)
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(data) == 0 {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "update the godot-mcp addon",
			"the game's screenshot answer holds no base64 image")
	}
	format, _ := out["format"].(string)
	if format == "" {
		format = "png"
	}
	w, _ := out["width"].(float64)
	h, _ := out["height"].(float64)
	if (width > 0 && width != int(w)) || (height > 0 && height != int(h)) {
		scaled, sw, sh, err := scalePNG(data, width, height)
		if err != nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "retry without width and height", "cannot scale the screenshot: %v", err)
		}
		data, w, h, format = scaled, float64(sw), float64(sh), "png"
	}
	if err := os.MkdirAll(screenshotDir(), 0o755); err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "check that the temporary folder is writable", "cannot keep the screenshot: %v", err)
	}
	file := filepath.Join(screenshotDir(), fmt.Sprintf("game-%s-%s.%s", time.Now().UTC().Format("20060102T150405.000"), requestID()[:6], format))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "check that the temporary folder is writable", "cannot keep the screenshot: %v", err)
	}
	meta, _ := json.Marshal(map[string]any{"format": format, "width": w, "height": h, "bytes": len(data), "file": file})
	return sdk.Result{Content: []sdk.Content{
		sdk.ImageContent{Data: data, MIMEType: "image/" + format},
		sdk.TextContent{Text: fmt.Sprintf("screenshot of the running game, %dx%d %s, saved as %s: %s", int(w), int(h), format, file, meta)},
	}}, nil
}

// scalePNG scales a PNG to width x height (one of them 0: keep the aspect
// ratio), bilinearly.
func scalePNG(data []byte, width, height int) ([]byte, int, int, error) {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, err
	}
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw == 0 || sh == 0 {
		return nil, 0, 0, fmt.Errorf("the image is empty")
	}
	if width <= 0 {
		width = max(1, (sw*height+sh/2)/sh)
	}
	if height <= 0 {
		height = max(1, (sh*width+sw/2)/sw)
	}
	dst := image.NewNRGBA(image.Rect(0, 0, width, height))
	for y := range height {
		fy := (float64(y)+0.5)*float64(sh)/float64(height) - 0.5
		y0 := clampInt(int(fy), 0, sh-1)
		y1 := clampInt(y0+1, 0, sh-1)
		ty := fy - float64(y0)
		for x := range width {
			fx := (float64(x)+0.5)*float64(sw)/float64(width) - 0.5
			x0 := clampInt(int(fx), 0, sw-1)
			x1 := clampInt(x0+1, 0, sw-1)
			tx := fx - float64(x0)
			c00 := color.NRGBAModel.Convert(src.At(b.Min.X+x0, b.Min.Y+y0)).(color.NRGBA)
			c10 := color.NRGBAModel.Convert(src.At(b.Min.X+x1, b.Min.Y+y0)).(color.NRGBA)
			c01 := color.NRGBAModel.Convert(src.At(b.Min.X+x0, b.Min.Y+y1)).(color.NRGBA)
			c11 := color.NRGBAModel.Convert(src.At(b.Min.X+x1, b.Min.Y+y1)).(color.NRGBA)
			mix := func(a, b, c, d uint8) uint8 {
				top := float64(a)*(1-tx) + float64(b)*tx
				bot := float64(c)*(1-tx) + float64(d)*tx
				return uint8(top*(1-ty) + bot*ty + 0.5)
			}
			dst.SetNRGBA(x, y, color.NRGBA{mix(c00.R, c10.R, c01.R, c11.R), mix(c00.G, c10.G, c01.G, c11.G),
				mix(c00.B, c10.B, c01.B, c11.B), mix(c00.A, c10.A, c01.A, c11.A)})
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, dst); err != nil {
		return nil, 0, 0, err
	}
	return out.Bytes(), width, height, nil
}

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }
