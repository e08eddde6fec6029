package importer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"
)

// Format is Godot's Image::Format, as far as the texture importer's
// sources give it: 8-bit luminance or colour, with or without alpha.
type Format uint32

// The formats the loaders of PNG, JPEG, WebP and SVG produce.
const (
	FormatL8    Format = 0
	FormatLA8   Format = 1
	FormatRGB8  Format = 4
	FormatRGBA8 Format = 5
)

// Channels is the bytes per pixel of f.
func (f Format) Channels() int {
	switch f {
	case FormatL8:
		return 1
	case FormatLA8:
		return 2
	case FormatRGB8:
		return 3
	}
	return 4
}

func (f Format) String() string {
	switch f {
	case FormatL8:
		return "L8"
	case FormatLA8:
		return "LA8"
	case FormatRGB8:
		return "RGB8"
	case FormatRGBA8:
		return "RGBA8"
	}
	return fmt.Sprintf("Format(%d)", uint32(f))
}

// Image is an uncompressed image as Godot's Image holds one: rows of
// pixels of Format, top to bottom, with no padding.
type Image struct {
	W, H   int
	Format Format
	Pix    []byte
}

// maxSide is the largest width or height the importer takes: the .ctex
// header holds the size in 16 bits, and 16384 is the largest texture the
// editor imports without a size limit in lossy mode.
const maxSide = 16384

// maxPixels bounds the memory a decode may take (64 MP, 256 MB as RGBA).
// A variable so that the fuzz test can keep its inputs small.
var maxPixels = 64 << 20

// pngFormat reads the format Godot's PNG loader gives a PNG file: the
// colour type of its header, with alpha when a tRNS chunk comes before the
// image data.
func pngFormat(data []byte) (Format, error) {
	const sig = "\x89PNG\r\n\x1a\n"
	if len(data) < 33 || string(data[:8]) != sig || string(data[12:16]) != "IHDR" {
		return 0, fmt.Errorf("not a PNG file (no PNG signature and header)")
	}
	colorType := data[25]
	trns := false
	for p := 8; p+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		typ := string(data[p+4 : p+8])
		if typ == "tRNS" {
			trns = true
		}
		if typ == "IDAT" || typ == "IEND" || n < 0 || n > len(data)-p-12 {
			break
		}
		p += 12 + n
	}
	switch colorType {
	case 0:
		if trns {
			return FormatLA8, nil
		}
		return FormatL8, nil
	case 4:
		return FormatLA8, nil
	case 2, 3:
		if trns {
			return FormatRGBA8, nil
		}
		return FormatRGB8, nil
	case 6:
		return FormatRGBA8, nil
	}
	return 0, fmt.Errorf("PNG colour type %d is not one PNG defines", colorType)
}

// webpHasAlpha reads whether a WebP file says it has alpha, as libwebp's
// WebPGetFeatures does: the alpha flag of an extended (VP8X) header or the
// alpha hint of a lossless (VP8L) one.
func webpHasAlpha(data []byte) (bool, error) {
	if len(data) < 21 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return false, fmt.Errorf("not a WebP file (no RIFF WEBP header)")
	}
	switch string(data[12:16]) {
	case "VP8X":
		return data[20]&0x10 != 0, nil
	case "VP8L":
		if len(data) < 25 || data[20] != 0x2f {
			return false, fmt.Errorf("bad lossless WebP header")
		}
		return binary.LittleEndian.Uint32(data[21:25])&(1<<28) != 0, nil
	case "VP8 ":
		return false, nil
	}
	return false, fmt.Errorf("unknown WebP chunk %q", data[12:16])
}

// checkSize refuses an image the importer does not take, before decoding
// its pixels.
func checkSize(w, h int) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("the image is empty (%dx%d)", w, h)
	}
	if w > maxSide || h > maxSide || w*h > maxPixels {
		return fmt.Errorf("the image is %dx%d, larger than the %d pixels a side (and %d MP) imported here", w, h, maxSide, maxPixels>>20)
	}
	return nil
}

// decode reads a PNG, JPEG or WebP file (by ext, ".png") into the format
// Godot's loader for it gives.
func decode(ext string, data []byte) (*Image, error) {
	var f Format
	var cfg image.Config
	var err error
	var dec func() (image.Image, error)
	r := func() *bytes.Reader { return bytes.NewReader(data) }
	switch ext {
	case ".png":
		if f, err = pngFormat(data); err != nil {
			return nil, err
		}
		cfg, err = png.DecodeConfig(r())
		dec = func() (image.Image, error) { return png.Decode(r()) }
	case ".jpg", ".jpeg":
		cfg, err = jpeg.DecodeConfig(r())
		f = FormatRGB8
		if cfg.ColorModel == color.GrayModel {
			f = FormatL8
		}
		dec = func() (image.Image, error) { return jpeg.Decode(r()) }
	case ".webp":
		alpha, aerr := webpHasAlpha(data)
		if aerr != nil {
			return nil, aerr
		}
		f = FormatRGB8
		if alpha {
			f = FormatRGBA8
		}
		cfg, err = webp.DecodeConfig(r())
		dec = func() (image.Image, error) { return webp.Decode(r()) }
	default:
		return nil, fmt.Errorf("no image decoder for %q", ext)
	}
	if err != nil {
		return nil, err
	}
	if err := checkSize(cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	src, err := dec()
	if err != nil {
		return nil, err
	}
	return fromImage(src, f), nil
}

// fromImage converts a decoded image to f: 16-bit channels keep their
// high byte, luminance is the red channel of a grey source.
func fromImage(src image.Image, f Format) *Image {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	im := &Image{W: w, H: h, Format: f, Pix: make([]byte, w*h*f.Channels())}
	n := f.Channels()
	i := 0
	put := func(r, g, bl, a uint8) {
		switch f {
		case FormatL8:
			im.Pix[i] = r
		case FormatLA8:
			im.Pix[i], im.Pix[i+1] = r, a
		case FormatRGB8:
			im.Pix[i], im.Pix[i+1], im.Pix[i+2] = r, g, bl
		default:
			im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3] = r, g, bl, a
		}
		i += n
	}
	switch s := src.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			row := s.Pix[y*s.Stride : y*s.Stride+w*4]
			for x := 0; x < w*4; x += 4 {
				put(row[x], row[x+1], row[x+2], row[x+3])
			}
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			for _, v := range s.Pix[y*s.Stride : y*s.Stride+w] {
				put(v, v, v, 255)
			}
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
				put(c.R, c.G, c.B, c.A)
			}
		}
	}
	return im
}

// toImage is im as a Go image for the PNG encoder: grey for L8, NRGBA
// otherwise (the encoder writes an opaque one as RGB; the engine converts
// what it decodes to the format the .ctex header names).
func (im *Image) toImage() image.Image {
	if im.Format == FormatL8 {
		return &image.Gray{Pix: im.Pix, Stride: im.W, Rect: image.Rect(0, 0, im.W, im.H)}
	}
	if im.Format == FormatRGBA8 {
		return &image.NRGBA{Pix: im.Pix, Stride: im.W * 4, Rect: image.Rect(0, 0, im.W, im.H)}
	}
	out := image.NewNRGBA(image.Rect(0, 0, im.W, im.H))
	n := im.Format.Channels()
	for p, o := 0, 0; p < len(im.Pix); p, o = p+n, o+4 {
		switch im.Format {
		case FormatLA8:
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = im.Pix[p], im.Pix[p], im.Pix[p], im.Pix[p+1]
		case FormatRGB8:
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = im.Pix[p], im.Pix[p+1], im.Pix[p+2], 255
		}
	}
	return out
}
