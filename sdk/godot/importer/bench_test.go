package importer

import (
	"image"
	"image/color"
	"math"
	"testing"
	"time"
)

// sprite is a typical 2D texture: a 256x256 RGBA sprite, a shaded disc on
// a transparent background (so the alpha border fix has work to do).
func sprite(tb testing.TB) []byte {
	im := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			d := math.Hypot(float64(x-128), float64(y-128))
			if d < 110 {
				im.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(255 - d), 255})
			}
		}
	}
	return encodePNG(tb, im)
}

// iconSVG is the 128x128 icon a new project gets (as scaffold writes it):
// a rounded square with a face.
const iconSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
<rect x="4" y="4" width="120" height="120" rx="24" fill="#478cbf"/>
<circle cx="44" cy="56" r="14" fill="#fff"/><circle cx="84" cy="56" r="14" fill="#fff"/>
<circle cx="44" cy="58" r="6" fill="#414042"/><circle cx="84" cy="58" r="6" fill="#414042"/>
<path d="M36 88 Q64 108 92 88" stroke="#fff" stroke-width="8" fill="none" stroke-linecap="round"/>
</svg>`

func benchImport(b *testing.B, name string, data []byte, mipmaps bool) {
	o, err := ParseTextureOptions(nil)
	if err != nil {
		b.Fatal(err)
	}
	o.Mipmaps = mipmaps
	var out []byte
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), processCPUTime()
	for i := 0; i < b.N; i++ {
		if out, err = Texture(name, data, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/texture")
	if c := processCPUTime() - cpu; c > 0 {
		b.ReportMetric(float64(c.Microseconds())/1000/float64(b.N), "cpu-ms/texture")
	}
	b.ReportMetric(float64(len(data)), "source-bytes")
	b.ReportMetric(float64(len(out)), "ctex-bytes")
}

// BenchmarkImportPNG256 imports a 256x256 RGBA PNG sprite as the editor's
// default 2D import does (lossless, alpha border fixed, no mipmaps).
func BenchmarkImportPNG256(b *testing.B) { benchImport(b, "sprite.png", sprite(b), false) }

// BenchmarkImportPNG256Mipmaps is the same sprite with mipmaps (the 3D
// preset's choice).
func BenchmarkImportPNG256Mipmaps(b *testing.B) { benchImport(b, "sprite.png", sprite(b), true) }

// BenchmarkImportSVGIcon rasterizes and imports a 128x128 SVG icon.
func BenchmarkImportSVGIcon(b *testing.B) { benchImport(b, "icon.svg", []byte(iconSVG), false) }
