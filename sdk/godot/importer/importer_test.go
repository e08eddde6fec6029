package importer

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

func encodePNG(t testing.TB, im image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func defaults(t testing.TB) TextureOptions {
	t.Helper()
	o, err := ParseTextureOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// header is a .ctex file's fields, read back.
type header struct {
	magic                       string
	version, w, h, flags, limit uint32
	reserved                    [3]uint32
	dataFormat                  uint32
	w16, h16                    uint16
	mipmaps, format             uint32
	levels                      [][]byte
}

func readCTEX(t *testing.T, b []byte) header {
	t.Helper()
	r := bytes.NewReader(b)
	var h header
	m := make([]byte, 4)
	_, _ = r.Read(m)
	h.magic = string(m)
	for _, p := range []any{&h.version, &h.w, &h.h, &h.flags, &h.limit, &h.reserved, &h.dataFormat, &h.w16, &h.h16, &h.mipmaps, &h.format} {
		if err := binary.Read(r, binary.LittleEndian, p); err != nil {
			t.Fatal(err)
		}
	}
	if h.dataFormat == dataFormatPNG {
		for i := uint32(0); i <= h.mipmaps; i++ {
			var n uint32
			if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
				t.Fatal(err)
			}
			d := make([]byte, n)
			if _, err := r.Read(d); err != nil {
				t.Fatal(err)
			}
			h.levels = append(h.levels, d)
		}
	} else {
		rest := make([]byte, r.Len())
		_, _ = r.Read(rest)
		h.levels = [][]byte{rest}
	}
	if r.Len() != 0 {
		t.Errorf("%d bytes after the image data", r.Len())
	}
	return h
}

// A default import is the editor's header (flags for 3D, normal and
// roughness detection; no mipmap limit) and one PNG, "PNG " first, that
// decodes to the source's pixels, in the format the engine's PNG loader
// gives the source (RGB8: the source PNG has no alpha channel).
func TestTextureHeaderAndData(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range src.Pix {
		src.Pix[i] = byte(40 * i)
	}
	for i := 3; i < len(src.Pix); i += 4 {
		src.Pix[i] = 255
	}
	ctex, err := Texture("a.png", encodePNG(t, src), defaults(t))
	if err != nil {
		t.Fatal(err)
	}
	h := readCTEX(t, ctex)
	if h.magic != "GST2" || h.version != 1 || h.w != 3 || h.h != 2 || h.flags != 1<<24|1<<26|1<<27 || h.limit != 0xFFFFFFFF ||
		h.reserved != [3]uint32{} || h.dataFormat != 1 || h.w16 != 3 || h.h16 != 2 || h.mipmaps != 0 || h.format != uint32(FormatRGB8) {
		t.Errorf("header %+v", h)
	}
	if len(h.levels) != 1 || !strings.HasPrefix(string(h.levels[0]), "PNG \x89PNG") {
		t.Fatalf("levels %d", len(h.levels))
	}
	got, err := png.Decode(bytes.NewReader(h.levels[0][4:]))
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 3; x++ {
			if g, w := color.NRGBAModel.Convert(got.At(x, y)), src.At(x, y); g != w {
				t.Errorf("(%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}

	// Mipmaps on: the flag, the limit, and a PNG per level down to 1x1;
	// the VRAM modes store raw pixels instead.
	o := defaults(t)
	o.Mipmaps, o.MipmapLimit = true, 4
	h = readCTEX(t, must(t)(Texture("a.png", encodePNG(t, src), o)))
	if h.flags&flagHasMipmaps == 0 || h.limit != 4 || h.mipmaps != 1 || len(h.levels) != 2 {
		t.Errorf("mipmapped header %+v", h)
	}
	o.Mode = CompressVRAM
	h = readCTEX(t, must(t)(Texture("a.png", encodePNG(t, src), o)))
	if h.dataFormat != dataFormatImage || len(h.levels[0]) != (3*2+1*1)*3 {
		t.Errorf("VRAM: data format %d, %d bytes", h.dataFormat, len(h.levels[0]))
	}
}

func must(t *testing.T) func([]byte, error) []byte {
	return func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// The format is the one Godot's PNG loader gives, by colour type and a
// tRNS chunk, and JPEG by its components.
func TestFormats(t *testing.T) {
	r := image.Rect(0, 0, 2, 2)
	opaquePal := image.NewPaletted(r, color.Palette{color.NRGBA{1, 2, 3, 255}})
	alphaPal := image.NewPaletted(r, color.Palette{color.NRGBA{1, 2, 3, 100}})
	rgba := image.NewNRGBA(r)
	rgba.Pix[3] = 7
	opaque := image.NewNRGBA(r)
	for i := 3; i < len(opaque.Pix); i += 4 {
		opaque.Pix[i] = 255
	}
	gray16 := image.NewGray16(r)
	cases := []struct {
		name string
		data []byte
		want Format
	}{
		{"gray", encodePNG(t, image.NewGray(r)), FormatL8},
		{"gray16", encodePNG(t, gray16), FormatL8},
		{"rgb", encodePNG(t, opaque), FormatRGB8},
		{"rgba", encodePNG(t, rgba), FormatRGBA8},
		{"palette", encodePNG(t, opaquePal), FormatRGB8},
		{"palette+tRNS", encodePNG(t, alphaPal), FormatRGBA8},
	}
	for _, c := range cases {
		im, err := decode(".png", c.data)
		if err != nil || im.Format != c.want || len(im.Pix) != 4*c.want.Channels() {
			t.Errorf("%s: %v %v", c.name, im, err)
		}
	}
	var j bytes.Buffer
	_ = jpeg.Encode(&j, image.NewGray(r), nil)
	if im, err := decode(".jpg", j.Bytes()); err != nil || im.Format != FormatL8 {
		t.Errorf("grey JPEG: %v %v", im, err)
	}
	j.Reset()
	_ = jpeg.Encode(&j, opaque, nil)
	if im, err := decode(".jpeg", j.Bytes()); err != nil || im.Format != FormatRGB8 {
		t.Errorf("colour JPEG: %v %v", im, err)
	}
	// A PNG that says it is 20000 pixels wide is refused from its header.
	big := encodePNG(t, image.NewGray(r))
	binary.BigEndian.PutUint32(big[16:], 20000)
	binary.BigEndian.PutUint32(big[29:], crc32.ChecksumIEEE(big[12:29]))
	if _, err := decode(".png", big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge PNG: %v", err)
	}
}

// Transparent pixels take the colour of the nearest opaque one within 4
// pixels and keep their alpha; premultiplying rounds as Godot 4.6 does.
func TestFixAlphaAndPremultiply(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 7, 1))
	src.SetNRGBA(0, 0, color.NRGBA{200, 100, 50, 255})
	src.SetNRGBA(6, 0, color.NRGBA{9, 9, 9, 10}) // under the threshold: not a source
	im, err := LoadTexture("a.png", encodePNG(t, src), defaults(t))
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= 6; x++ {
		p := im.Pix[x*4 : x*4+4]
		want := []byte{200, 100, 50, 0}
		if x > 4 {
			want = []byte{0, 0, 0, 0} // beyond the radius
		}
		if x == 6 {
			want = []byte{9, 9, 9, 10} // 6 away from the opaque pixel
		}
		if !bytes.Equal(p, want) {
			t.Errorf("pixel %d = %v, want %v", x, p, want)
		}
	}
	o := defaults(t)
	o.FixAlphaBorder, o.PremultAlpha = false, true
	half := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	half.SetNRGBA(0, 0, color.NRGBA{255, 128, 1, 128})
	im, err = LoadTexture("a.png", encodePNG(t, half), o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{128, 64, 1, 128}; !bytes.Equal(im.Pix, want) {
		t.Errorf("premultiplied %v, want %v", im.Pix, want)
	}
}

// Each level halves the one above, rounding down, each pixel the rounded
// mean of its 2x2 block (an odd last column is dropped).
func TestMipmaps(t *testing.T) {
	im := &Image{W: 3, H: 2, Format: FormatL8, Pix: []byte{10, 20, 200, 30, 41, 200}}
	levels := mipmaps(im)
	if len(levels) != 1 || levels[0].W != 1 || levels[0].H != 1 || levels[0].Pix[0] != 25 {
		t.Errorf("levels %+v", levels[0])
	}
	big := &Image{W: 8, H: 2, Format: FormatRGB8, Pix: make([]byte, 8*2*3)}
	if l := mipmaps(big); len(l) != 3 || l[0].W != 4 || l[0].H != 1 || l[2].W != 1 {
		t.Errorf("8x2: %d levels", len(l))
	}
}

// Options the package cannot honour are errors naming them; the size
// limit scales the longer side down.
func TestOptions(t *testing.T) {
	for params, text := range map[string]string{
		"process/channel_remap/red=2": "channel_remap/red",
		"compress/mode=7":             "compress/mode",
		"svg/scale=abc":               "svg/scale",
	} {
		k, v, _ := strings.Cut(params, "=")
		if _, err := ParseTextureOptions(map[string]string{k: v}); err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("%s: %v", params, err)
		}
	}
	o := defaults(t)
	o.SizeLimit = 16
	im, err := LoadTexture("a.png", encodePNG(t, image.NewNRGBA(image.Rect(0, 0, 64, 32))), o)
	if err != nil || im.W != 16 || im.H != 8 {
		t.Errorf("size limit: %v %v", im, err)
	}
}

// The SVG size is the root's width and height (with units) or its
// viewBox's; svg/scale multiplies it.
func TestSVG(t *testing.T) {
	for svg, want := range map[string][2]int{
		`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="4"/>`:     {10, 4},
		`<svg width="10px" height="3pt"/>`:                                    {10, 4},
		`<svg viewBox="0 0 12 6"/>`:                                           {12, 6},
		`<svg width="100%" height="100%" viewBox="0,0,8,8"/>`:                 {8, 8},
		`<?xml version="1.0"?><!-- c --><svg width="2" height="2"><g/></svg>`: {2, 2},
	} {
		im, err := rasterizeSVG([]byte(svg), 1)
		if err != nil || im.W != want[0] || im.H != want[1] || im.Format != FormatRGBA8 {
			t.Errorf("%s: %v %v", svg, im, err)
		}
	}
	o := defaults(t)
	o.SVGScale = 2.5
	im, err := LoadTexture("i.svg", []byte(`<svg width="4" height="4"><rect width="4" height="4" fill="#ff0000" fill-opacity="0.5"/></svg>`), o)
	if err != nil || im.W != 10 || im.H != 10 {
		t.Fatalf("scaled: %v %v", im, err)
	}
	if p := im.Pix[(5*10+5)*4:][:4]; p[0] < 250 || p[1] > 2 || p[3] < 125 || p[3] > 130 {
		t.Errorf("half-transparent red is %v (straight alpha)", p)
	}
	for _, bad := range []string{`<html/>`, `<svg/>`, `not xml`, `<svg width="99999" height="2"/>`} {
		if _, err := rasterizeSVG([]byte(bad), 1); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Import names the files as the .import file does: the editor's path
// when there is none, every .ctex of dest_files otherwise.
func TestImport(t *testing.T) {
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 2, 2)))
	files, err := Import("res://a/b.png", data, nil)
	im, _ := importfile.For("x.png")
	if err != nil || len(files) != 1 || files[0].Path != importfile.ImportedPath("res://a/b.png", im) {
		t.Fatalf("%v %v", files, err)
	}
	vram := `[remap]

importer="texture"
type="CompressedTexture2D"
path.s3tc="res://.godot/imported/b.png-x.s3tc.ctex"
path.etc2="res://.godot/imported/b.png-x.etc2.ctex"

[deps]

source_file="res://a/b.png"
dest_files=["res://.godot/imported/b.png-x.s3tc.ctex", "res://.godot/imported/b.png-x.etc2.ctex"]

[params]

compress/mode=2
mipmaps/generate=true
`
	files, err = Import("res://a/b.png", data, []byte(vram))
	if err != nil || len(files) != 2 || !strings.HasSuffix(files[1].Path, ".etc2.ctex") || !bytes.Equal(files[0].Data, files[1].Data) {
		t.Fatalf("%v %v", files, err)
	}
	if _, err := Import("res://a.wav", []byte("RIFF"), nil); err != ErrUnsupported {
		t.Errorf("wav: %v", err)
	}
	if _, err := Import("res://a.png", data, []byte("[remap]\nimporter=\"image\"\n")); err == nil {
		t.Error("the image importer's file: no error")
	}
	if _, err := Import("res://a.png", []byte("\x89PNG\r\n\x1a\nbroken"), nil); err == nil {
		t.Error("a broken PNG: no error")
	}
}

// FuzzTexture: no input panics or hangs the importer; what it accepts
// is a well-formed .ctex.
func FuzzTexture(f *testing.F) {
	f.Add("png", encodePNG(f, image.NewNRGBA(image.Rect(0, 0, 3, 3))))
	f.Add("png", encodePNG(f, image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black})))
	var j bytes.Buffer
	_ = jpeg.Encode(&j, image.NewRGBA(image.Rect(0, 0, 4, 4)), nil)
	f.Add("jpg", j.Bytes())
	f.Add("webp", []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"))
	f.Add("svg", []byte(`<svg width="3" height="2"><circle cx="1" cy="1" r="1" fill="red"/></svg>`))
	defer func(n int) { maxPixels = n }(maxPixels)
	maxPixels = 1 << 16
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		o, _ := ParseTextureOptions(nil)
		o.Mipmaps = len(data)%2 == 0
		b, err := Texture("f."+ext, data, o)
		if err != nil {
			return
		}
		if !bytes.HasPrefix(b, []byte("GST2")) || len(b) < 56 {
			t.Fatalf("accepted input gave %d bytes", len(b))
		}
	})
}
