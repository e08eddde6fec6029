package importer

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// svgSize reads the size an SVG file asks for, as the engine's SVG loader
// takes it: the root's width and height in pixels, or its viewBox's size
// where they are missing or relative.
func svgSize(data []byte) (w, h float64, err error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	for {
		tok, terr := d.Token()
		if terr == io.EOF {
			return 0, 0, fmt.Errorf("no <svg> element")
		}
		if terr != nil {
			return 0, 0, terr
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local != "svg" {
			return 0, 0, fmt.Errorf("the root element is <%s>, not <svg>", se.Name.Local)
		}
		var vbW, vbH float64
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width":
				w = svgLength(a.Value)
			case "height":
				h = svgLength(a.Value)
			case "viewBox":
				f := strings.FieldsFunc(a.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
				if len(f) == 4 {
					vbW, _ = strconv.ParseFloat(f[2], 64)
					vbH, _ = strconv.ParseFloat(f[3], 64)
				}
			}
		}
		if w <= 0 {
			w = vbW
		}
		if h <= 0 {
			h = vbH
		}
		if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
			return 0, 0, fmt.Errorf("the <svg> element gives no size (width and height, or a viewBox)")
		}
		return w, h, nil
	}
}

// svgLength is a length in pixels: a plain number or one in px, pt, mm,
// cm or in at 96 dots per inch; 0 for a percentage or anything else.
func svgLength(s string) float64 {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		px     float64
	}{{"px", 1}, {"pt", 96.0 / 72}, {"pc", 16}, {"mm", 96 / 25.4}, {"cm", 96 / 2.54}, {"in", 96}}
	scale := 1.0
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, scale = v, u.px
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 || math.IsNaN(v) {
		return 0
	}
	return v * scale
}

// rasterizeSVG draws an SVG file at scale (the svg/scale option) into an
// RGBA8 image, as the engine's SVG loader does with ThorVG: the size is
// the SVG's, times scale, rounded, at least one pixel.
func rasterizeSVG(data []byte, scale float64) (*Image, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("svg/scale %v is not a positive number", scale)
	}
	fw, fh, err := svgSize(data)
	if err != nil {
		return nil, err
	}
	w := max(1, int(math.Round(fw*scale)))
	h := max(1, int(math.Round(fh*scale)))
	if fw*scale > maxSide || fh*scale > maxSide {
		w, h = maxSide+1, maxSide+1 // refused by checkSize with the real message below
	}
	if err := checkSize(w, h); err != nil {
		return nil, fmt.Errorf("at svg/scale %v %w", scale, err)
	}
	icon, err := oksvg.ReadIconStream(bytes.NewReader(data), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, err
	}
	if icon.ViewBox.W <= 0 || icon.ViewBox.H <= 0 {
		icon.ViewBox.W, icon.ViewBox.H = fw, fh
	}
	icon.SetTarget(0, 0, float64(w), float64(h))
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	icon.Draw(rasterx.NewDasher(w, h, rasterx.NewScannerGV(w, h, dst, dst.Bounds())), 1)
	// The rasterizer draws premultiplied colour; the engine's image holds
	// straight alpha.
	im := &Image{W: w, H: h, Format: FormatRGBA8, Pix: dst.Pix}
	for i := 0; i < len(im.Pix); i += 4 {
		a := uint32(im.Pix[i+3])
		if a != 0 && a != 255 {
			for c := 0; c < 3; c++ {
				im.Pix[i+c] = uint8(min(255, (uint32(im.Pix[i+c])*255+a/2)/a))
			}
		}
	}
	return im, nil
}
