package importer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

// fontOptions are the dynamic font importer's options the editor sets on
// the FontFile it saves, each a FontFile property of the same name.
var fontOptions = []string{
	"antialiasing", "generate_mipmaps", "disable_embedded_bitmaps", "multichannel_signed_distance_field",
	"msdf_pixel_range", "msdf_size", "allow_system_fallback", "force_autohinter", "modulate_color_glyphs",
	"hinting", "subpixel_positioning", "keep_rounding_remainders", "oversampling",
}

// fontMagic is how TrueType, OpenType and WOFF files start.
var fontMagic = [][]byte{{0, 1, 0, 0}, []byte("true"), []byte("OTTO"), []byte("wOFF"), []byte("wOF2"), []byte("ttcf")}

// maxFont bounds the font files read.
const maxFont = 32 << 20

// FontResource is the FontFile of a TTF, OTF or WOFF file as a text
// resource: the file's bytes as data, and the import options of params
// (a .import file's [params]; missing ones take the editor's defaults)
// set as the editor's importer sets them. The editor saves the same
// FontFile in a binary .fontdata; fallbacks, preloaded glyphs and
// language or script overrides are not applied here.
func FontResource(data []byte, params map[string]string) ([]byte, error) {
	if len(data) > maxFont {
		return nil, fmt.Errorf("the font file is larger than %d MB", maxFont>>20)
	}
	ok := false
	for _, m := range fontMagic {
		ok = ok || bytes.HasPrefix(data, m)
	}
	if !ok {
		return nil, fmt.Errorf("not a TrueType, OpenType or WOFF font file")
	}
	def, _ := importfile.For("x.ttf")
	var b strings.Builder
	b.Grow(len(data)*4 + 600)
	b.WriteString("[gd_resource type=\"FontFile\" format=3]\n\n[resource]\ndata = PackedByteArray(")
	for i, v := range data {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	b.WriteString(")\n")
	for _, k := range fontOptions {
		v, set := params[k]
		if !set {
			v, _ = def.Param(k)
		}
		v = strings.TrimSpace(v)
		if v != "true" && v != "false" {
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				return nil, fmt.Errorf("%s=%s is not a number", k, v)
			}
		}
		fmt.Fprintf(&b, "%s = %s\n", k, v)
	}
	return []byte(b.String()), nil
}
