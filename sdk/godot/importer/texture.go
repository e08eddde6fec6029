package importer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"golang.org/x/image/draw"
)

// CompressMode is the texture importer's compress/mode.
type CompressMode int

// The texture importer's compression modes.
const (
	CompressLossless CompressMode = iota
	CompressLossy
	CompressVRAM
	CompressVRAMUncompressed
	CompressBasis
)

// TextureOptions are the texture importer's options that change what it
// writes, read from a .import file's [params].
type TextureOptions struct {
	Mode           CompressMode
	Mipmaps        bool
	MipmapLimit    int
	FixAlphaBorder bool
	PremultAlpha   bool
	InvertY        bool
	SizeLimit      int
	SVGScale       float64
	// The flags the editor records for its 3D, normal-map and roughness
	// detection (they only act in the editor).
	Detect3D, DetectNormal, DetectRoughness bool
}

// ParseTextureOptions reads the options from params (a .import file's
// [params] as Godot text, by key); a missing key takes the editor's
// default. An option this package cannot honour is an error naming it.
func ParseTextureOptions(params map[string]string) (TextureOptions, error) {
	def, _ := importfile.For("x.svg")
	get := func(k string) string {
		if v, ok := params[k]; ok {
			return strings.TrimSpace(v)
		}
		v, _ := def.Param(k)
		return v
	}
	var errs []string
	num := func(k string) float64 {
		s := get(k)
		switch s {
		case "true":
			return 1
		case "false":
			return 0
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			errs = append(errs, fmt.Sprintf("%s=%s is not a number", k, s))
			return 0
		}
		return f
	}
	o := TextureOptions{
		Mode:            CompressMode(num("compress/mode")),
		Mipmaps:         num("mipmaps/generate") != 0,
		MipmapLimit:     int(num("mipmaps/limit")),
		FixAlphaBorder:  num("process/fix_alpha_border") != 0,
		PremultAlpha:    num("process/premult_alpha") != 0,
		InvertY:         num("process/normal_map_invert_y") != 0,
		SizeLimit:       int(num("process/size_limit")),
		SVGScale:        num("svg/scale"),
		Detect3D:        num("detect_3d/compress_to") > 0,
		DetectNormal:    num("compress/normal_map") == 0,
		DetectRoughness: num("roughness/mode") == 0,
	}
	if o.Mode < CompressLossless || o.Mode > CompressBasis {
		errs = append(errs, fmt.Sprintf("compress/mode=%d is not one of 0..4", o.Mode))
	}
	for i, k := range []string{"red", "green", "blue", "alpha"} {
		if int(num("process/channel_remap/"+k)) != i {
			errs = append(errs, "process/channel_remap/"+k+" other than its default is not supported")
		}
	}
	if o.SizeLimit < 0 {
		errs = append(errs, "process/size_limit is negative")
	}
	if len(errs) > 0 {
		return o, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return o, nil
}

// Texture imports an image file (PNG, JPEG, WebP or SVG, by the
// extension of name) as the texture importer does and returns the
// CompressedTexture2D file (.ctex) it writes.
//
// Lossless mode embeds PNG where the editor embeds lossless WebP (unless
// the project forces PNG): the engine loads both to the same pixels.
// Lossy mode embeds PNG too (Go has no WebP encoder). The VRAM modes and
// Basis Universal write the pixels uncompressed (as VRAM Uncompressed
// does), which the engine loads on every platform; the editor would
// compress them.
func Texture(name string, data []byte, o TextureOptions) ([]byte, error) {
	im, err := LoadTexture(name, data, o)
	if err != nil {
		return nil, err
	}
	return EncodeCTEX(im, o)
}

// LoadTexture is the image Texture stores: the file decoded as the
// engine's loader decodes it and processed as the importer processes it
// (size limit, alpha border fix, premultiplied alpha, green inverted),
// without mipmaps.
func LoadTexture(name string, data []byte, o TextureOptions) (*Image, error) {
	ext := strings.ToLower(name[strings.LastIndex(name, ".")+1:])
	var im *Image
	var err error
	if ext == "svg" {
		im, err = rasterizeSVG(data, o.SVGScale)
	} else {
		im, err = decode("."+ext, data)
	}
	if err != nil {
		return nil, err
	}
	limit := o.SizeLimit
	if limit == 0 {
		limit = maxSide
	}
	if im.W > limit || im.H > limit {
		im = resize(im, limit)
	}
	if o.FixAlphaBorder {
		fixAlphaEdges(im)
	}
	if o.PremultAlpha && im.Format == FormatRGBA8 {
		for i := 0; i < len(im.Pix); i += 4 {
			a := uint16(im.Pix[i+3])
			for c := 0; c < 3; c++ {
				im.Pix[i+c] = uint8((uint16(im.Pix[i+c])*a + 255) >> 8)
			}
		}
	}
	if o.InvertY && im.Format.Channels() >= 3 {
		n := im.Format.Channels()
		for i := 1; i < len(im.Pix); i += n {
			im.Pix[i] = 255 - im.Pix[i]
		}
	}
	return im, nil
}

// resize scales im down so that its longer side is limit, keeping its
// aspect ratio as the importer computes it. The editor resizes with cubic
// interpolation; this uses Catmull-Rom, so edge pixels may differ a little.
func resize(im *Image, limit int) *Image {
	w, h := limit, im.H*limit/im.W
	if im.H > im.W {
		w, h = im.W*limit/im.H, limit
	}
	w, h = max(w, 1), max(h, 1)
	src := im.toImage()
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return fromImage(dst, im.Format)
}

// fixAlphaEdges gives each nearly transparent pixel of an RGBA8 image
// the colour of the nearest opaque enough pixel within four pixels, as
// Image::fix_alpha_edges does, so that filtering does not bleed a dark
// fringe. Alpha is kept. Other formats are left alone, as there.
func fixAlphaEdges(im *Image) {
	if im.Format != FormatRGBA8 {
		return
	}
	const radius, threshold = 4, 20
	src := bytes.Clone(im.Pix)
	w, h := im.W, im.H
	// sum[(y)*(w+1)+x] counts the opaque enough pixels above and left of
	// (x, y), so that a pixel with none within the radius is passed over
	// without looking at its 81 neighbours.
	sum := make([]int32, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var row int32
		for x := 0; x < w; x++ {
			if src[(y*w+x)*4+3] >= threshold {
				row++
			}
			sum[(y+1)*(w+1)+x+1] = sum[y*(w+1)+x+1] + row
		}
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-radius), min(h-1, y+radius)+1
		for x := 0; x < w; x++ {
			o := (y*w + x) * 4
			if src[o+3] >= threshold {
				continue
			}
			x0, x1 := max(0, x-radius), min(w-1, x+radius)+1
			if sum[y1*(w+1)+x1]-sum[y0*(w+1)+x1]-sum[y1*(w+1)+x0]+sum[y0*(w+1)+x0] == 0 {
				continue
			}
			best := math.MaxInt32
			var col [3]byte
			for k := max(0, y-radius); k <= min(h-1, y+radius); k++ {
				for l := max(0, x-radius); l <= min(w-1, x+radius); l++ {
					d := (y-k)*(y-k) + (x-l)*(x-l)
					if d >= best {
						continue
					}
					p := (k*w + l) * 4
					if src[p+3] < threshold {
						continue
					}
					best = d
					col = [3]byte{src[p], src[p+1], src[p+2]}
				}
			}
			if best != math.MaxInt32 {
				copy(im.Pix[o:o+3], col[:])
			}
		}
	}
}

// mipmaps returns the smaller levels of im down to 1x1, each half the
// one before (rounded down, at least 1), every pixel the rounded mean of
// the 2x2 block above it, as Image::generate_mipmaps makes them for 8-bit
// formats.
func mipmaps(im *Image) []*Image {
	var out []*Image
	n := im.Format.Channels()
	prev := im
	for prev.W > 1 || prev.H > 1 {
		w, h := max(prev.W>>1, 1), max(prev.H>>1, 1)
		next := &Image{W: w, H: h, Format: im.Format, Pix: make([]byte, w*h*n)}
		right := n
		if prev.W == 1 {
			right = 0
		}
		down := prev.W * n
		if prev.H == 1 {
			down = 0
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				s := (y*2*prev.W + x*2) * n
				d := (y*w + x) * n
				for c := 0; c < n; c++ {
					sum := uint32(prev.Pix[s+c]) + uint32(prev.Pix[s+right+c]) + uint32(prev.Pix[s+down+c]) + uint32(prev.Pix[s+down+right+c])
					next.Pix[d+c] = uint8((sum + 2) >> 2)
				}
			}
		}
		out = append(out, next)
		prev = next
	}
	return out
}

// The .ctex header's flags and data formats (CompressedTexture2D).
const (
	ctexVersion         = 1
	flagHasMipmaps      = 1 << 23
	flagDetect3D        = 1 << 24
	flagDetectNormal    = 1 << 26
	flagDetectRoughness = 1 << 27

	dataFormatImage = 0
	dataFormatPNG   = 1
)

// EncodeCTEX writes im as the texture importer writes a .ctex file: the
// GST2 header (size, flags, mipmap limit), then the image with its
// mipmaps when o asks for them, as PNG (lossless and lossy modes) or raw
// pixels (the VRAM modes, uncompressed here).
func EncodeCTEX(im *Image, o TextureOptions) ([]byte, error) {
	if err := checkSize(im.W, im.H); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	u32 := func(v uint32) { _ = binary.Write(&b, binary.LittleEndian, v) }
	u16 := func(v uint16) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("GST2")
	u32(ctexVersion)
	u32(uint32(im.W))
	u32(uint32(im.H))
	var flags uint32
	if o.Mipmaps {
		flags |= flagHasMipmaps
	}
	if o.Detect3D {
		flags |= flagDetect3D
	}
	if o.DetectRoughness {
		flags |= flagDetectRoughness
	}
	if o.DetectNormal {
		flags |= flagDetectNormal
	}
	u32(flags)
	limit := uint32(math.MaxUint32) // -1: no mipmap limit
	if o.Mipmaps {
		limit = uint32(int32(o.MipmapLimit))
	}
	u32(limit)
	u32(0)
	u32(0)
	u32(0)

	levels := []*Image{im}
	if o.Mipmaps {
		levels = append(levels, mipmaps(im)...)
	}
	df := uint32(dataFormatPNG)
	if o.Mode >= CompressVRAM {
		df = dataFormatImage
	}
	u32(df)
	u16(uint16(im.W))
	u16(uint16(im.H))
	u32(uint32(len(levels) - 1))
	u32(uint32(im.Format))
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for _, l := range levels {
		if df == dataFormatImage {
			b.Write(l.Pix)
			continue
		}
		// Image::png_packer's form: "PNG " before the PNG stream.
		var p bytes.Buffer
		p.WriteString("PNG ")
		if err := enc.Encode(&p, l.toImage()); err != nil {
			return nil, err
		}
		u32(uint32(p.Len()))
		b.Write(p.Bytes())
	}
	return b.Bytes(), nil
}
